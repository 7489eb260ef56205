package adapters

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Interpreter is the Python a session runs, and why it was picked. The
// create and start answers carry it, so that a user sees at once which
// environment their imports resolve in.
type Interpreter struct {
	// Path is the interpreter the debuggee runs on (attach: the target's).
	Path string `json:"path"`
	// Version is its version ("3.11.7").
	Version string `json:"version,omitempty"`
	// Source says why it was picked: "executablePath", "venv" (the
	// project's .venv or venv), "virtualenv" ($VIRTUAL_ENV), "poetry",
	// "uv" ($UV_PROJECT_ENVIRONMENT), "pyenv" (.python-version), "path"
	// (python3 in PATH) or "process" (attach: the target's own).
	Source string `json:"source"`
	// Dir is the project directory or file that decided it, when one did.
	Dir string `json:"from,omitempty"`
	// Debugpy is the version of the debugpy that serves the session.
	Debugpy string `json:"debugpy,omitempty"`
	// Adapter is the interpreter debugpy's adapter runs on, when it is
	// not Path (Path has no debugpy of its own).
	Adapter string `json:"adapter,omitempty"`
	// Injector is, for an attach by pid, the debugger that injected
	// debugpy into the target ("gdb", "lldb-16").
	Injector string `json:"injector,omitempty"`
}

// pyInfo is what one interpreter says about itself.
type pyInfo struct {
	path       string // as given
	version    string // "3.11.7"
	debugpy    string // the debugpy package directory, "" when none
	dpVersion  string // its version
	requires   string // its Requires-Python (">=3.10"), "" when unknown
	managed    bool   // PEP 668: pip needs --break-system-packages
	executable string // its sys.executable: the interpreter a launcher (pyenv's shim) runs
	err        error  // the interpreter did not run
}

// pipArgv is the command that installs the pinned debugpy into i.
func (i pyInfo) pipArgv() []string {
	argv := []string{i.path, "-m", "pip", "install", "debugpy==" + DebugpyVersion}
	if i.managed {
		argv = append(argv, "--break-system-packages")
	}
	return argv
}

// pipCommand is pipArgv as one line, for messages.
func (i pyInfo) pipCommand() string { return strings.Join(i.pipArgv(), " ") }

// supports reports whether i's debugpy supports Python version v, by
// its Requires-Python (">=3.10"; an unknown bound supports every version).
func (i pyInfo) supports(v string) bool {
	m := regexp.MustCompile(`>=\s*(\d+)\.(\d+)`).FindStringSubmatch(i.requires)
	if m == nil {
		return true
	}
	maj, _ := strconv.Atoi(m[1])
	min, _ := strconv.Atoi(m[2])
	vm, vn := majorMinor(v)
	return vm > maj || (vm == maj && vn >= min)
}

// majorMinor splits "3.11.7" into 3 and 11 (0, 0 when it is no version).
func majorMinor(v string) (int, int) {
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return 0, 0
	}
	maj, _ := strconv.Atoi(parts[0])
	min, _ := strconv.Atoi(parts[1])
	return maj, min
}

// pyProbeScript prints the version, the debugpy directory, whether the
// interpreter is externally managed (PEP 668), and sys.executable —
// without importing debugpy,
// which would cost as much as the adapter's own start.
const pyProbeScript = `import os, sys, sysconfig
print("%d.%d.%d" % sys.version_info[:3])
d = ""
try:
    import importlib.util
    s = importlib.util.find_spec("debugpy")
    if s is not None and s.origin:
        d = os.path.dirname(s.origin)
except Exception:
    pass
print(d)
print(int(os.path.exists(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED"))))
print(sys.executable)
`

var (
	dpVersionRE = regexp.MustCompile(`"version":\s*"([^"]+)"`)
	requiresRE  = regexp.MustCompile(`(?m)^Requires-Python:\s*(.+)$`)
)

// pyCache remembers what interpreters said about themselves: for ten
// minutes when they have debugpy, for five seconds when they have not (so
// that one create asks once, and an install is seen at the next). A nil
// cache asks every time.
type pyCache struct {
	checkMu  sync.Mutex // held through an injection check
	mu       sync.Mutex
	entries  map[string]pyCacheEntry
	verdicts map[string]injectVerdict // the injection checks' verdicts, by key
}

type pyCacheEntry struct {
	info pyInfo
	at   time.Time
}

func newPyCache() *pyCache {
	return &pyCache{entries: map[string]pyCacheEntry{}, verdicts: map[string]injectVerdict{}}
}

// probe asks the interpreter py about itself (bounded to probeTimeout).
func (c *pyCache) probe(ctx context.Context, py string) pyInfo { return c.probeAs(ctx, py, nil) }

// probeAs is probe with py run as u (see pyUser).
func (c *pyCache) probeAs(ctx context.Context, py string, u *pyUser) pyInfo {
	key := py + "\x00" + u.key()
	if st, err := os.Stat(py); err == nil {
		key += "\x00" + st.ModTime().String()
	}
	if c != nil {
		c.mu.Lock()
		e, ok := c.entries[key]
		c.mu.Unlock()
		ttl := 5 * time.Second
		if e.info.debugpy != "" {
			ttl = 10 * time.Minute
		}
		if ok && time.Since(e.at) < ttl {
			return e.info
		}
	}
	info := probePython(ctx, py, u)
	if c != nil && info.err == nil {
		c.mu.Lock()
		c.entries[key] = pyCacheEntry{info: info, at: time.Now()}
		c.mu.Unlock()
	}
	return info
}

// probeTimeout bounds the start of an interpreter that describes itself:
// a pyenv shim on a loaded machine can take seconds.
const probeTimeout = 30 * time.Second

func probePython(ctx context.Context, py string, u *pyUser) pyInfo {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, "-c", pyProbeScript)
	cmd.Env = withoutEnv(os.Environ(), "PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP")
	u.apply(cmd) // another user's interpreter runs as that user, never as root
	out, err := cmd.Output()
	info := pyInfo{path: py}
	if err != nil {
		info.err = fmt.Errorf("run %s: %w", py, err)
		return info
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) < 3 {
		info.err = fmt.Errorf("%s did not describe itself: %q", py, out)
		return info
	}
	info.version, info.debugpy, info.managed = lines[0], lines[1], lines[2] == "1"
	if len(lines) > 3 {
		info.executable = lines[3]
	}
	if info.debugpy != "" {
		if b, err := os.ReadFile(filepath.Join(info.debugpy, "_version.py")); err == nil {
			if m := dpVersionRE.FindSubmatch(b); m != nil {
				info.dpVersion = string(m[1])
			}
		}
		metas, _ := filepath.Glob(filepath.Join(filepath.Dir(info.debugpy), "debugpy-*.dist-info", "METADATA"))
		for _, meta := range metas {
			if b, err := os.ReadFile(meta); err == nil {
				if m := requiresRE.FindSubmatch(b); m != nil {
					info.requires = strings.TrimSpace(string(m[1]))
				}
			}
		}
	}
	return info
}

// withoutEnv returns env without the named variables.
func withoutEnv(env []string, names ...string) []string {
	out := env[:0:0]
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		drop := false
		for _, n := range names {
			if k == n {
				drop = true
			}
		}
		if !drop {
			out = append(out, kv)
		}
	}
	return out
}

// projectMarkers are the files that make a directory a Python project's
// root: the project's interpreter is looked for from the program's
// directory up to the first directory holding one.
var projectMarkers = []string{"pyproject.toml", "setup.py", "setup.cfg", "Pipfile", "poetry.lock", "uv.lock",
	"requirements.txt", ".git"}

// projectDirs returns the directories from start up to its project root
// (the first holding a marker), or start alone when none does.
func projectDirs(start string) []string {
	var dirs []string
	for d := start; ; d = filepath.Dir(d) {
		dirs = append(dirs, d)
		for _, m := range projectMarkers {
			if _, err := os.Stat(filepath.Join(d, m)); err == nil {
				return dirs
			}
		}
		if filepath.Dir(d) == d {
			return dirs[:1]
		}
	}
}

// venvPython is the interpreter of the virtual environment at dir.
func venvPython(dir string) string {
	for _, name := range []string{"python", "python3"} {
		if p := filepath.Join(dir, "bin", name); isExec(p) {
			return p
		}
	}
	return ""
}

// getenv reads a variable from the session's environment, then dbg's.
func (t Target) getenv(name string) string {
	if v, ok := t.Env[name]; ok {
		return v
	}
	return os.Getenv(name)
}

// resolveInterpreter picks the interpreter of a launch: executablePath,
// else the project's .venv/venv (the program's directory up to the
// project root, then the session's cwd and its root), $VIRTUAL_ENV, the
// uv or Poetry environment, pyenv's .python-version, and PATH.
func (p Python) resolveInterpreter(ctx context.Context, t Target) Interpreter {
	if t.ExecutablePath != "" {
		return Interpreter{Path: t.ExecutablePath, Source: "executablePath"}
	}
	var roots [][]string
	if t.Program != "" && !isPythonModule(t.Program) {
		roots = append(roots, projectDirs(filepath.Dir(absPath(t.Program))))
	}
	if t.Cwd != "" {
		roots = append(roots, projectDirs(absPath(t.Cwd)))
	} else if wd, err := os.Getwd(); err == nil && (t.Program == "" || isPythonModule(t.Program)) {
		roots = append(roots, projectDirs(wd))
	}
	for _, dirs := range roots {
		for _, d := range dirs {
			for _, v := range []string{".venv", "venv"} {
				if py := venvPython(filepath.Join(d, v)); py != "" {
					return Interpreter{Path: py, Source: "venv", Dir: filepath.Join(d, v)}
				}
			}
		}
	}
	if ve := t.getenv("VIRTUAL_ENV"); ve != "" {
		if py := venvPython(ve); py != "" {
			return Interpreter{Path: py, Source: "virtualenv", Dir: ve}
		}
	}
	for _, dirs := range roots {
		root := dirs[len(dirs)-1]
		if ue := t.getenv("UV_PROJECT_ENVIRONMENT"); ue != "" {
			if !filepath.IsAbs(ue) {
				ue = filepath.Join(root, ue)
			}
			if py := venvPython(ue); py != "" {
				return Interpreter{Path: py, Source: "uv", Dir: ue}
			}
		}
		if py, dir := poetryPython(ctx, root); py != "" {
			return Interpreter{Path: py, Source: "poetry", Dir: dir}
		}
	}
	for _, dirs := range roots {
		if py, file := pyenvPython(ctx, dirs[0], t); py != "" {
			return Interpreter{Path: py, Source: "pyenv", Dir: file}
		}
	}
	for _, name := range []string{"python3", "python"} {
		if py, err := lookPath(name); err == nil {
			return Interpreter{Path: py, Source: "path"}
		}
	}
	return Interpreter{Path: "python3", Source: "path"}
}

// poetryPython asks Poetry for the environment of the project at root,
// when root is a Poetry project and poetry is installed.
func poetryPython(ctx context.Context, root string) (string, string) {
	b, err := os.ReadFile(filepath.Join(root, "pyproject.toml"))
	if err != nil || !strings.Contains(string(b), "[tool.poetry") {
		return "", ""
	}
	poetry, err := lookPath("poetry")
	if err != nil {
		return "", ""
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, poetry, "env", "info", "-p")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return "", ""
	}
	dir := strings.TrimSpace(string(out))
	return venvPython(dir), dir
}

// pyenvPython resolves the version a .python-version names (searched
// from dir upward, as pyenv does), through `pyenv prefix` when pyenv is
// installed, else in $PYENV_ROOT/versions or ~/.pyenv/versions.
func pyenvPython(ctx context.Context, dir string, t Target) (string, string) {
	var file string
	for d := dir; ; d = filepath.Dir(d) {
		if f := filepath.Join(d, ".python-version"); isFile(f) {
			file = f
			break
		}
		if filepath.Dir(d) == d {
			return "", ""
		}
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return "", ""
	}
	for _, name := range strings.Fields(string(b)) {
		if name == "system" || strings.HasPrefix(name, "#") {
			continue
		}
		if py := pyenvVersion(ctx, name, filepath.Dir(file), t); py != "" {
			return py, file
		}
	}
	return "", ""
}

func pyenvVersion(ctx context.Context, name, dir string, t Target) string {
	if pyenv, err := lookPath("pyenv"); err == nil {
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, pyenv, "prefix", name)
		cmd.Dir = dir
		if out, err := cmd.Output(); err == nil {
			if py := venvPython(strings.TrimSpace(string(out))); py != "" {
				return py
			}
		}
	}
	root := t.getenv("PYENV_ROOT")
	if root == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		root = filepath.Join(home, ".pyenv")
	}
	return venvPython(filepath.Join(root, "versions", name))
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// helperPythons are the interpreters that may run debugpy's adapter for a
// debuggee whose own interpreter has none: PATH's, then the system's.
func helperPythons() []string {
	var out []string
	for _, name := range []string{"python3", "python"} {
		if p, err := lookPath(name); err == nil {
			out = append(out, p)
		}
	}
	return append(out, "/usr/bin/python3", "/usr/local/bin/python3")
}

// launchPlan decides which interpreter runs the debuggee (the project's)
// and which one runs debugpy's adapter: the same, when it has debugpy,
// else the first helper interpreter whose debugpy supports its version.
func (p Python) launchPlan(ctx context.Context, t Target) (Interpreter, pyInfo, error) {
	in := p.resolveInterpreter(ctx, t)
	own := p.cache.probe(ctx, in.Path)
	if own.err != nil {
		return in, own, fmt.Errorf("the %s interpreter %s does not run: %w", in.Source, in.Path, own.err)
	}
	in.Version = own.version
	if own.debugpy != "" {
		in.Debugpy = own.dpVersion
		return in, own, nil
	}
	for _, h := range helperPythons() {
		if h == in.Path { // a venv's python may share its file with a helper, not its packages
			continue
		}
		hi := p.cache.probe(ctx, h)
		if hi.err != nil || hi.debugpy == "" {
			continue
		}
		if !hi.supports(own.version) {
			continue
		}
		in.Debugpy, in.Adapter = hi.dpVersion, h
		return in, hi, nil
	}
	return in, own, &NotFoundError{Language: "python",
		What:    fmt.Sprintf("debugpy in the %s interpreter %s (Python %s), or in an interpreter in PATH whose debugpy supports Python %s", in.Source, in.Path, own.version, own.version),
		Install: own.pipCommand()}
}

// sameFile reports whether a and b are one file (symlinks resolved).
func sameFile(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}
