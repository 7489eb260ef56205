package cobol

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/dbg-dev/dbg/safefs"
)

// Program is a COBOL program built for debugging.
type Program struct {
	Source string   // the .cob file, absolute
	Binary string   // the executable
	Fields []*Field // WORKING-STORAGE records with storage
}

// BuildError is a failed cobc run; Output is cobc's message.
type BuildError struct {
	Command []string
	Output  string
	Err     error
}

func (e *BuildError) Error() string {
	return fmt.Sprintf("build failed (%s): %v\n%s", strings.Join(e.Command, " "), e.Err, strings.TrimSpace(e.Output))
}

func (e *BuildError) Unwrap() error { return e.Err }

// Build compiles src with GnuCOBOL for debugging, into a per-user cache
// directory keyed by the source's content (an unchanged source is built
// once). It translates with `cobc -C -x -g` and a symbol listing, gives
// every C line of a statement that statement's .cob line, compiles with
// `cobc -x -g`, and reads the data layout.
//
// Concurrent builds of the same source are safe: each builds in its own
// temporary directory and the first to finish is kept.
func Build(ctx context.Context, src string) (*Program, error) {
	src, err := filepath.Abs(src)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return nil, fmt.Errorf("cobol source: %w", err)
	}
	if _, err := exec.LookPath("cobc"); err != nil {
		return nil, errors.New("cobol: cobc (GnuCOBOL) not found in PATH; install it with `dbg adapters install cobol`")
	}
	h := sha256.New()
	h.Write([]byte("v1\x00" + src + "\x00"))
	h.Write(data)
	key := hex.EncodeToString(h.Sum(nil))[:24]
	cache, err := safefs.UserCacheDir()
	if err != nil {
		return nil, err
	}
	root := filepath.Join(cache, "dbg", "cobol")
	final := filepath.Join(root, key)
	name := strings.TrimSuffix(filepath.Base(src), filepath.Ext(src))
	if p, err := load(src, final, name); err == nil {
		return p, nil
	}
	tmp, err := safefs.MkdirTemp(root, key+".tmp*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	bctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	cfile := name + ".c"
	if err := run(bctx, tmp, "cobc", "-C", "-x", "-g", "-t", name+".lst", "--tsymbols", "-o", cfile, src); err != nil {
		return nil, err
	}
	csrc, err := os.ReadFile(filepath.Join(tmp, cfile))
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(tmp, cfile), []byte(RewriteLines(string(csrc), cfile)), 0o644); err != nil {
		return nil, err
	}
	if err := run(bctx, tmp, "cobc", "-x", "-g", "-o", name, cfile); err != nil {
		return nil, err
	}
	if err := os.Rename(tmp, final); err != nil {
		// Another build got there first; use it.
		if p, lerr := load(src, final, name); lerr == nil {
			return p, nil
		}
		return nil, err
	}
	return load(src, final, name)
}

// LoadBinary finds the data layout of a binary that [Build] made (its
// listing and generated header sit beside it), for an attach to a
// running program. The source is the one named in the listing's header
// when it can be read, else empty.
func LoadBinary(bin string) (*Program, error) {
	real, err := filepath.EvalSymlinks(bin)
	if err != nil {
		return nil, err
	}
	dir, name := filepath.Dir(real), filepath.Base(real)
	if _, err := os.Stat(filepath.Join(dir, name+".lst")); err != nil {
		return nil, fmt.Errorf("%s was not built by dbg (no %s.lst beside it)", bin, name)
	}
	src := ""
	if c, err := os.ReadFile(filepath.Join(dir, name+".c")); err == nil {
		if m := sourceRE.FindSubmatch(c); m != nil {
			src = string(m[1])
		}
	}
	return load(src, dir, name)
}

// sourceRE finds the source named by cobc's generated C
// ("/* Line: 15 : Entry LOOP : /path/loop.cob */").
var sourceRE = regexp.MustCompile(`/\* Line: \d+\s*:.*: (\S+\.(?:cob|cbl|cobol|COB|CBL)) \*/`)

// load reads a finished build directory.
func load(src, dir, name string) (*Program, error) {
	bin := filepath.Join(dir, name)
	if st, err := os.Stat(bin); err != nil || st.Mode()&0o111 == 0 {
		return nil, fmt.Errorf("no binary in %s", dir)
	}
	lst, err := os.ReadFile(filepath.Join(dir, name+".lst"))
	if err != nil {
		return nil, err
	}
	hdr, err := os.ReadFile(filepath.Join(dir, name+".c.l.h"))
	if err != nil {
		return nil, err
	}
	return &Program{Source: src, Binary: bin, Fields: Attach(ParseListing(string(lst)), ParseStorage(string(hdr)))}, nil
}

func run(ctx context.Context, dir string, argv ...string) error {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return &BuildError{Command: argv, Output: string(out), Err: err}
	}
	return nil
}

// stmtRE matches cobc's statement comment
// "/* Line: 19        : ADD                : /path/loop.cob */".
var stmtRE = regexp.MustCompile(`^\s*/\* Line: (\d+)\s*:.*: (.+?) \*/\s*$`)

// RewriteLines makes every C line of the PROCEDURE DIVISION belong to
// the COBOL statement it implements: cobc -g points only some lines at
// the .cob file and the rest back at the generated C, so a debugger
// stepping a statement would stop in C. Between "PROCEDURE DIVISION" and
// "Program exit" each code line gets a #line for its statement; after
// that the C file's own numbering resumes. cfile is the generated file's
// name as cobc wrote it.
func RewriteLines(csrc, cfile string) string {
	lines := strings.Split(csrc, "\n")
	out := make([]string, 0, 2*len(lines))
	inProc := false
	cur, path := 0, ""
	for _, l := range lines {
		trim := strings.TrimSpace(l)
		switch {
		case strings.Contains(l, "/* PROCEDURE DIVISION */"):
			inProc = true
		case inProc && strings.Contains(l, "/* Program exit */"):
			inProc = false
			// the next output line is this one: resume the C numbering
			out = append(out, "#line "+strconv.Itoa(len(out)+2)+" "+strconv.Quote(cfile))
			out = append(out, l)
			continue
		}
		if inProc {
			if m := stmtRE.FindStringSubmatch(l); m != nil {
				cur, _ = strconv.Atoi(m[1])
				path = m[2]
			}
			if strings.HasPrefix(trim, "#line") {
				continue
			}
			if cur > 0 && trim != "" && !strings.HasPrefix(trim, "/*") {
				out = append(out, "#line "+strconv.Itoa(cur)+" "+strconv.Quote(path))
			}
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}
