package adapters

import (
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// pyHook is dbg's sitecustomize for debugpy's processes: TCP_NODELAY on
// every socket between debugpy's adapter and pydevd, and no description
// of the environment for a log that is not kept (see the file).
//
//go:embed pyhooks/sitecustomize.py
var pyHook []byte

// pyNoDelay sets TCP_NODELAY on pydevd's connection in a target dbg
// attached to; the hook injects it after debugpy's code, and the
// sys.remote_exec script runs it after debugpy.listen.
//
//go:embed pyhooks/pydevd_nodelay.py
var pyNoDelay []byte

// hookDir writes the hook into a directory of dbg's own (one per content,
// so that an upgraded dbg never runs an older hook) and returns it.
func (p Python) hookDir() (string, error) {
	base := p.HookDir
	if base == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			cache = os.TempDir()
		}
		base = filepath.Join(cache, "dbg")
	}
	dir := filepath.Join(base, "python-hooks-"+shortHash(string(pyHook)+string(pyNoDelay)))
	for name, content := range map[string][]byte{"sitecustomize.py": pyHook, "pydevd_nodelay.py": pyNoDelay} {
		if err := writeOnce(filepath.Join(dir, name), content); err != nil {
			return "", fmt.Errorf("python hooks: %w", err)
		}
	}
	return dir, nil
}

// writeOnce makes file hold content, atomically, unless it already does.
func writeOnce(file string, content []byte) error {
	if b, err := os.ReadFile(file); err == nil && string(b) == string(content) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	tmp := fmt.Sprintf("%s.%d", file, os.Getpid())
	if err := os.WriteFile(tmp, content, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, file)
}

// prependPath puts dir first on a PYTHONPATH value ("" or unset: dir alone).
func prependPath(dir, path string, set bool) string {
	if !set || path == "" {
		return dir
	}
	return dir + string(os.PathListSeparator) + path
}

// adapterEnv is the environment of debugpy's adapter: dbg's, with the
// hook first on PYTHONPATH (the adapter's children, its launcher and its
// attach injector, inherit it), and the directory of an explicit GDB
// first on PATH, so that the injector runs the gdb dbg checked.
func (p Python) adapterEnv(hook string) []string {
	env := os.Environ()
	if hook != "" {
		old, set := os.LookupEnv("PYTHONPATH")
		env = append(withoutEnv(env, "PYTHONPATH", "DBG_PYHOOK_DEBUGGEE"), "PYTHONPATH="+prependPath(hook, old, set))
	}
	if p.GDB != "" && filepath.Base(p.GDB) == "gdb" {
		env = append(withoutEnv(env, "PATH"), "PATH="+filepath.Dir(p.GDB)+string(os.PathListSeparator)+os.Getenv("PATH"))
	}
	return env
}

// debuggeeEnv adds to a launch's env what makes the debuggee run the hook
// and then restore PYTHONPATH to what it would be without dbg: the value
// the launch sets, else the one it inherits from dbg.
func debuggeeEnv(hook string, env map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range env {
		out[k] = v
	}
	if hook == "" {
		return out
	}
	old, set := env["PYTHONPATH"]
	if !set {
		old, set = os.LookupEnv("PYTHONPATH")
	}
	out["PYTHONPATH"] = prependPath(hook, old, set)
	out["DBG_PYHOOK_DEBUGGEE"] = "1"
	out["DBG_PYHOOK_PYTHONPATH"] = old
	out["DBG_PYHOOK_PYTHONPATH_SET"] = map[bool]string{true: "1", false: "0"}[set]
	return out
}

// hookNote says what dbg does to debugpy's sockets, for the python entry
// of list_supported_languages.
const hookNote = "dbg sets TCP_NODELAY on debugpy's sockets in the sessions it starts (launch, attach by pid), through a sitecustomize it chains to the program's own, " +
	"and, attached by port to a debugpy it did not start, on that adapter's connections and pydevd's socket when it may trace them (without that, steps wait for delayed ACKs)"

// hookDirFor is hookDir for debugpy's processes run as u. dbg's own hook
// folder is private to dbg's user, so another user gets a copy in a new
// folder of an unpredictable name, given to that user, which cleanup
// removes.
func (p Python) hookDirFor(u *pyUser) (dir string, cleanup func(), err error) {
	if u == nil {
		dir, err := p.hookDir()
		return dir, func() {}, err
	}
	dir, err = os.MkdirTemp("", "dbg-pyhook-*")
	if err != nil {
		return "", func() {}, fmt.Errorf("python hooks: %w", err)
	}
	cleanup = func() { _ = os.RemoveAll(dir) }
	for name, content := range map[string][]byte{"sitecustomize.py": pyHook, "pydevd_nodelay.py": pyNoDelay} {
		f, err := os.OpenFile(filepath.Join(dir, name), os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o644)
		if err == nil {
			_, err = f.Write(content)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			cleanup()
			return "", func() {}, fmt.Errorf("python hooks: %w", err)
		}
	}
	if err := chownDir(dir, u.UID, u.GID); err != nil {
		cleanup()
		return "", func() {}, fmt.Errorf("python hooks: %w", err)
	}
	return dir, cleanup, nil
}

// chownDir gives the folder dir, just made, to uid and gid, through its
// descriptor opened without following a link.
func chownDir(dir string, uid, gid int) error {
	fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
	if err != nil {
		return &os.PathError{Op: "open", Path: dir, Err: err}
	}
	defer syscall.Close(fd)
	if err := syscall.Fchown(fd, uid, gid); err != nil {
		return &os.PathError{Op: "fchown", Path: dir, Err: err}
	}
	return nil
}
