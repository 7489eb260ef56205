package adapters

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/dbg-dev/dbg/safefs"
)

// The builds of native programs: a C or C++ source compiled with debug
// info into a cache, a Cargo project built with cargo.

// NativeBuildError is a failed build; Output is the compiler's message.
type NativeBuildError struct {
	Command []string
	Output  string
	Err     error
}

func (e *NativeBuildError) Error() string {
	return fmt.Sprintf("build failed (%s): %v\n%s", strings.Join(e.Command, " "), e.Err, strings.TrimSpace(e.Output))
}

func (e *NativeBuildError) Unwrap() error { return e.Err }

// BuildNative turns program into a debuggable binary. program may be a C
// (.c), C++ (.cpp .cc .cxx .c++) or Rust (.rs) source, a Cargo project
// directory or its Cargo.toml, or a binary (returned as is); a .rs file
// inside a Cargo project builds that project. Relative paths are
// resolved against cwd (or the working directory). It returns the binary
// and the source's directory. lang (the session's language) only names
// the program in errors: the file decides the compiler.
//
// Single sources are built into a per-user cache directory keyed by
// their content, so a rebuild of an unchanged source is free; Cargo
// builds into the project's target/.
func BuildNative(ctx context.Context, lang, program, cwd string) (bin, srcDir string, err error) {
	program, st, err := programPath("program", program, cwd)
	if err != nil {
		return "", "", err
	}
	if st.IsDir() || filepath.Base(program) == "Cargo.toml" {
		dir := program
		if !st.IsDir() {
			dir = filepath.Dir(program)
		}
		if _, err := os.Stat(filepath.Join(dir, "Cargo.toml")); err != nil {
			return "", "", fmt.Errorf("%s is a directory without Cargo.toml; give a binary or a source file", dir)
		}
		bin, err := cargoBuild(ctx, dir)
		return bin, dir, err
	}
	dir := filepath.Dir(program)
	var compiler []string
	switch strings.ToLower(filepath.Ext(program)) {
	case ".c":
		compiler = []string{"cc", "-g", "-O0"}
	case ".cpp", ".cc", ".cxx", ".c++":
		compiler = []string{"c++", "-g", "-O0"}
	case ".rs":
		// A file of a Cargo project builds the project.
		if proj := natCargoRoot(dir); proj != "" {
			bin, err := cargoBuild(ctx, proj)
			return bin, proj, err
		}
		compiler = []string{"rustc", "-g", "-C", "opt-level=0"}
	default:
		if st.Mode()&0o111 == 0 {
			return "", "", fmt.Errorf("%s program %s is neither a known source (.c, .cpp, .rs), a Cargo project, nor an executable", lang, program)
		}
		return program, dir, nil
	}
	out, err := compileCached(ctx, compiler, program)
	return out, dir, err
}

// natCargoRoot returns the nearest directory at or above dir holding a
// Cargo.toml, or "".
func natCargoRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "Cargo.toml")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// compileCached compiles src with compiler into the cache, unless a binary
// of the same source and command is already there.
func compileCached(ctx context.Context, compiler []string, src string) (string, error) {
	data, err := os.ReadFile(src)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	h.Write([]byte(strings.Join(compiler, "\x00") + "\x00" + src + "\x00"))
	h.Write(data)
	key := hex.EncodeToString(h.Sum(nil))[:24]
	cache, err := safefs.UserCacheDir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(cache, "dbg", "build", key)
	name := strings.TrimSuffix(filepath.Base(src), filepath.Ext(src))
	bin := filepath.Join(dir, name)
	if isExec(bin) {
		return bin, nil
	}
	tmp, err := safefs.CreateTemp(dir, name+".*.tmp")
	if err != nil {
		return "", err
	}
	tmpName := tmp.Name()
	tmp.Close()
	defer os.Remove(tmpName)
	argv := append(append([]string{}, compiler...), "-o", tmpName, src)
	progress(ctx, "building %s for the debugger (%s)…", src, compiler[0])
	bctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(bctx, argv[0], argv[1:]...)
	cmd.Dir = filepath.Dir(src)
	outb, err := cmd.CombinedOutput()
	if err != nil {
		return "", &NativeBuildError{Command: argv, Output: string(outb), Err: err}
	}
	if err := os.Rename(tmpName, bin); err != nil {
		return "", err
	}
	return bin, nil
}

// cargoBuild runs `cargo build` in dir and returns the binary it built.
func cargoBuild(ctx context.Context, dir string) (string, error) {
	bctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	argv := []string{"cargo", "build", "--message-format=json-render-diagnostics"}
	progress(ctx, "building %s for the debugger (cargo build)…", dir)
	cmd := exec.CommandContext(bctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return "", err
	}
	if err := cmd.Start(); err != nil {
		return "", &NativeBuildError{Command: argv, Err: err}
	}
	var bins []string
	dec := json.NewDecoder(stdout)
	for {
		var msg struct {
			Reason     string  `json:"reason"`
			Executable *string `json:"executable"`
			Target     struct {
				Kind []string `json:"kind"`
			} `json:"target"`
		}
		if err := dec.Decode(&msg); err != nil {
			if !errors.Is(err, io.EOF) {
				_, _ = io.Copy(io.Discard, stdout)
			}
			break
		}
		if msg.Reason == "compiler-artifact" && msg.Executable != nil {
			for _, k := range msg.Target.Kind {
				if k == "bin" {
					bins = append(bins, *msg.Executable)
				}
			}
		}
	}
	if err := cmd.Wait(); err != nil {
		return "", &NativeBuildError{Command: argv, Output: stderr.String(), Err: err}
	}
	switch len(bins) {
	case 0:
		return "", &NativeBuildError{Command: argv, Output: stderr.String(), Err: errors.New("cargo built no binary")}
	case 1:
		return bins[0], nil
	}
	return "", fmt.Errorf("cargo built several binaries (%s); give one as the program", strings.Join(bins, ", "))
}
