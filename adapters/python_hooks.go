package adapters

import (
	_ "embed"
	"fmt"
	"os"
	"path/filepath"

	"github.com/dbg-dev/dbg/safefs"
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
		cache, err := safefs.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("python hooks: %w", err)
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

// writeOnce makes file hold content, atomically, unless it already does;
// its folder is made private (see safefs.WriteFile).
func writeOnce(file string, content []byte) error {
	if b, err := os.ReadFile(file); err == nil && string(b) == string(content) {
		return nil
	}
	return safefs.WriteFile(file, content, 0o644)
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
const hookNote = "dbg sets TCP_NODELAY on debugpy's sockets in the sessions it starts (launch, attach by pid), through a sitecustomize it chains to the program's own; " +
	"attach by port to a debugpy you started yourself runs steps at debugpy's own speed (about 40 ms each)"
