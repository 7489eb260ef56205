package sessions

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/proc"
	"github.com/dbg-dev/dbg/toolkit"
)

// maxSeenSources bounds the source files a session remembers from its
// stacks.
const maxSeenSources = 4096

// seenSources are the source files a session's stacks have shown: files
// the program itself runs (its libraries among them), which a confined
// server still lets the agent read and break in.
type seenSources struct {
	mu    sync.Mutex
	files map[string]bool
}

func (v *seenSources) add(file string) {
	if file == "" {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.files == nil {
		v.files = map[string]bool{}
	}
	if len(v.files) < maxSeenSources {
		v.files[filepath.Clean(file)] = true
	}
}

func (v *seenSources) has(file string) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.files[file]
}

// CheckPath refuses, unless the server allows paths outside the project
// (Config.AllowOutsideProject), a file the agent names (arg: "file",
// "files") that lies outside the project and outside the program of
// session s (nil: no session): its directory, working directory and
// source paths, or the process's working directory and executable for an
// attach. A file a stack of s has shown is the program's own and passes.
// Links are resolved first, so a link in the project to a file elsewhere
// is outside.
func (m *Manager) CheckPath(s *Session, arg, file string) error {
	if m.cfg.AllowOutsideProject || file == "" {
		return nil
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("%s %s: %v", arg, toolkit.Clip(file), err), "pass an absolute path")
	}
	if s != nil && s.seen.has(filepath.Clean(abs)) {
		return nil
	}
	real := realPath(abs)
	roots := m.allowedRoots(s)
	for _, r := range roots {
		if within(r, real) {
			return nil
		}
	}
	if s != nil && s.seen.has(real) {
		return nil
	}
	return toolkit.NewError(toolkit.CodeInvalidArgument,
		fmt.Sprintf("%s %s is outside the project and the session's program (%s); this server reads and sets breakpoints only there", arg, toolkit.Clip(file), strings.Join(roots, ", ")),
		"name a file of the project or of the program, or one its stack shows; to lift the limit, restart the server with --allow-outside-project")
}

// allowedRoots are the folders a confined server lets the agent name
// files in, resolved: the project, and the program of s.
func (m *Manager) allowedRoots(s *Session) []string {
	var roots []string
	add := func(p string) {
		if p == "" {
			return
		}
		if abs, err := filepath.Abs(p); err == nil {
			roots = append(roots, realPath(abs))
		}
	}
	if p, err := m.ResolveProject(""); err == nil {
		add(p)
	}
	if s == nil {
		return roots
	}
	s.mu.Lock()
	t, pid := s.target, s.pid
	s.mu.Unlock()
	if t.Program != "" {
		prog := t.Program
		if st, err := os.Stat(prog); err != nil || !st.IsDir() {
			prog = filepath.Dir(prog)
		}
		add(prog)
	}
	add(t.Cwd)
	for _, p := range t.SourcePaths {
		add(p)
	}
	if t.Mode == adapters.Attach && pid > 0 {
		if cwd, err := proc.Cwd(pid); err == nil {
			add(cwd)
		}
		if exe, err := proc.Exe(pid); err == nil {
			add(filepath.Dir(exe))
		}
	}
	return roots
}

// realPath resolves the links of p, or of its longest existing prefix.
func realPath(p string) string {
	rest := ""
	for {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return filepath.Join(p, rest)
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}

// within reports whether path lies in dir.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
