package adapters

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"
)

// A Go program launched from source is built by dbg, the way delve
// builds it (-gcflags=all=-N -l), into a cache kept across sessions, and
// delve runs the binary ("exec"). A launch or restart_debugging of an
// unchanged program runs the binary of the last build: nothing is
// compiled or linked again.
//
// Whether a program is unchanged is decided by a fingerprint of what the
// build reads: the path, size and modification time of every file of
// the program's module (sources, embedded files, go.mod, go.sum), the
// build flags, the environment given to the launch and the go command.
// Where inputs lie outside the module (a go.work, a replace directive
// naming a directory), the fingerprint cannot see them and go build
// decides, relinking only what changed. A build that fails is left to
// delve, which reports it as before.

// goBuildMaxFiles bounds the files a fingerprint reads; a larger module
// is handed to go build's own check.
const goBuildMaxFiles = 20000

// goBuildKeep is how long a cached binary nobody launched is kept.
const goBuildKeep = 7 * 24 * time.Hour

// goBuildTimeout bounds one build.
const goBuildTimeout = 5 * time.Minute

// goGCFlags are delve's: optimisations and inlining off.
var goGCFlags = []string{"-gcflags=all=-N -l"}

// prebuild builds prog (a package directory, a .go file or, for mode
// "test", a package's tests) and returns the binary, or "" when the
// build must be left to delve (a failure, flags dbg does not pass on).
func (g Go) prebuild(ctx context.Context, t Target, mode, prog string) string {
	if _, own := t.Extra["output"]; own {
		return ""
	}
	if _, flags := t.Extra["buildFlags"]; flags {
		return ""
	}
	goBin, err := lookPath("go")
	if err != nil {
		return ""
	}
	root, err := g.buildRoot()
	if err != nil {
		return ""
	}
	modDir := goModuleDir(Target{Program: prog})
	env := sortedEnv(t.Env)
	key := hashOf(goBin, mode, prog, modDir, strings.Join(env, "\x00"), strings.Join(goGCFlags, " "))
	dir := filepath.Join(root, key[:24])
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return ""
	}
	unlock, err := lockDir(ctx, dir)
	if err != nil {
		return ""
	}
	defer unlock()
	bin := filepath.Join(dir, "bin")
	stamp := filepath.Join(dir, "inputs")
	print, fingerprinted := moduleFingerprint(modDir, goBin)
	if fingerprinted {
		if old, err := os.ReadFile(stamp); err == nil && string(old) == print {
			if st, err := os.Stat(bin); err == nil && st.Mode().IsRegular() {
				now := time.Now()
				_ = os.Chtimes(dir, now, now) // in use: keep it
				return bin
			}
		}
	}
	_ = os.Remove(stamp)
	argv := append([]string{"build"}, goGCFlags...)
	target := prog
	if mode == "test" {
		argv = append([]string{"test", "-c"}, goGCFlags...)
	}
	progress(ctx, "building %s for the debugger (go %s)…", prog, strings.Join(argv[:len(argv)-len(goGCFlags)], " "))
	argv = append(argv, "-o", bin, target)
	bctx, cancel := context.WithTimeout(ctx, goBuildTimeout)
	defer cancel()
	cmd := exec.CommandContext(bctx, goBin, argv...)
	cmd.Dir = modDir
	cmd.Env = append(os.Environ(), env...)
	if err := cmd.Run(); err != nil {
		return ""
	}
	if st, err := os.Stat(bin); err != nil || !st.Mode().IsRegular() {
		return "" // go test -c of a package without tests writes nothing
	}
	if fingerprinted {
		// The fingerprint is taken again: a file saved during the build
		// makes the next launch build again rather than run a stale binary.
		if after, ok := moduleFingerprint(modDir, goBin); ok && after == print {
			_ = os.WriteFile(stamp, []byte(print), 0o600)
		}
	}
	pruneBuilds(root, dir, time.Now())
	return bin
}

// buildRoot is the cache of built programs.
func (g Go) buildRoot() (string, error) {
	if g.BuildDir != "" {
		return g.BuildDir, nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(cache, "dbg", "go-debug"), nil
}

// moduleFingerprint hashes the path, size and modification time of every
// file under the module directory, and the go command's. ok is false
// when the build reads inputs the walk cannot see.
func moduleFingerprint(modDir, goBin string) (string, bool) {
	if os.Getenv("GOWORK") != "" || os.Getenv("GOFLAGS") != "" {
		return "", false
	}
	for d := modDir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.work")); err == nil {
			return "", false
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	if gomod, err := os.ReadFile(filepath.Join(modDir, "go.mod")); err == nil && localReplace(string(gomod)) {
		return "", false
	}
	h := sha256.New()
	if st, err := os.Stat(goBin); err == nil {
		fmt.Fprintf(h, "go %s %d %d\n", goBin, st.Size(), st.ModTime().UnixNano())
	}
	// Outside a module only the program's own folder is read.
	_, err := os.Stat(filepath.Join(modDir, "go.mod"))
	flat := err != nil
	n := 0
	err = filepath.WalkDir(modDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != modDir && (flat || strings.HasPrefix(name, ".") || name == "node_modules") {
				return filepath.SkipDir
			}
			if p != modDir {
				if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
					return filepath.SkipDir // another module
				}
			}
			return nil
		}
		n++
		if n > goBuildMaxFiles {
			return fs.ErrInvalid
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(modDir, p)
		fmt.Fprintf(h, "%s %d %d %v\n", rel, info.Size(), info.ModTime().UnixNano(), info.Mode())
		return nil
	})
	if err != nil {
		return "", false
	}
	return hex.EncodeToString(h.Sum(nil)), true
}

// localReplace reports whether go.mod replaces a module by a directory.
func localReplace(gomod string) bool {
	for _, line := range strings.Split(gomod, "\n") {
		_, to, ok := strings.Cut(line, "=>")
		if !ok {
			continue
		}
		to = strings.TrimSpace(to)
		if strings.HasPrefix(to, ".") || strings.HasPrefix(to, "/") {
			return true
		}
	}
	return false
}

func sortedEnv(env map[string]string) []string {
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

func hashOf(parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(h[:])
}

// lockDir takes an exclusive lock on dir (shared with other dbg
// servers), waiting at most until ctx ends.
func lockDir(ctx context.Context, dir string) (func(), error) {
	f, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { _ = f.Close() }, nil
		}
		if err != syscall.EWOULDBLOCK {
			_ = f.Close()
			return nil, err
		}
		select {
		case <-ctx.Done():
			_ = f.Close()
			return nil, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// pruneBuilds removes the cached programs nobody launched for
// goBuildKeep, except keep.
func pruneBuilds(root, keep string, now time.Time) {
	ents, err := os.ReadDir(root)
	if err != nil {
		return
	}
	for _, e := range ents {
		p := filepath.Join(root, e.Name())
		if !e.IsDir() || p == keep {
			continue
		}
		if info, err := e.Info(); err == nil && now.Sub(info.ModTime()) > goBuildKeep {
			_ = os.RemoveAll(p)
		}
	}
}

// GoModulePath is the module path dir's go.mod declares ("" without one).
func GoModulePath(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}
