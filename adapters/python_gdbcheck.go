package adapters

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/dbg-dev/dbg/proc"
)

// The injection check: before dbg first injects into a Python process
// with a debugger (python_inject.go), it makes the very same calls with
// that debugger on a throwaway process of the same interpreter, run as
// the same user, and keeps the verdict per debugger build, kernel,
// interpreter and user. It never touches any process but the throwaway
// one it starts.

// injectCheckTimeout bounds the check. gdb reads every shared library's
// symbols before its first call, which takes a few seconds.
const injectCheckTimeout = 45 * time.Second

// injectVerdict is the outcome of the check on one debugger, kernel,
// interpreter and user.
type injectVerdict struct {
	Key    string    `json:"key"`
	OK     bool      `json:"ok"`
	Reason string    `json:"reason,omitempty"` // why the calls do not work
	At     time.Time `json:"checkedAt"`
}

// injectCodeWait bounds the wait for the injected code to run once the
// debugger has finished its calls without an error.
const injectCodeWait = 10 * time.Second

// injectCheckMarker is what the check's injected code prints: 31*37*41.
const injectCheckMarker = "47027"

// injectCheckCode runs inside the throwaway process (no quotes: debugpy's
// injector passes it in a C string on the debugger's command line).
const injectCheckCode = "import sys;sys.stdout.write(str(31*37*41)+chr(10));sys.stdout.flush()"

// injectCheck tells whether injector j can run code in interpreter py
// (run as u) on this machine, from the cache when it can.
func (p Python) injectCheck(ctx context.Context, j pyInjector, py pyInfo, u *pyUser) injectVerdict {
	key := injectKey(ctx, j, py, u)
	if p.cache != nil {
		p.cache.checkMu.Lock() // one check at a time: they are slow and alike
		defer p.cache.checkMu.Unlock()
		p.cache.mu.Lock()
		v, ok := p.cache.verdicts[key]
		p.cache.mu.Unlock()
		if ok {
			return v
		}
	}
	file := filepath.Join(p.stateDir(), "python-attach", j.Kind+"-"+shortHash(key)+".json")
	var v injectVerdict
	if b, err := os.ReadFile(file); err == nil && json.Unmarshal(b, &v) == nil && v.Key == key {
		p.remember(key, v)
		return v
	}
	progress(ctx, "checking that %s can call into a Python %s process on this machine (once per %s and kernel)…", j.Name(), py.version, j.Kind)
	v, definite := runInjectCheck(ctx, j, py, u)
	v.Key, v.At = key, time.Now().UTC()
	if definite {
		p.remember(key, v)
		if b, err := json.MarshalIndent(v, "", "  "); err == nil {
			_ = writeOnce(file, b) // a verdict not kept is checked again next time
		}
	}
	return v
}

func (p Python) remember(key string, v injectVerdict) {
	if p.cache != nil {
		p.cache.mu.Lock()
		p.cache.verdicts[key] = v
		p.cache.mu.Unlock()
	}
}

// gdbPath is the gdb debugpy's injector runs: GDB when set, else PATH's;
// "" when there is none.
func (p Python) gdbPath() string {
	if p.GDB != "" {
		if !isExec(p.GDB) {
			return ""
		}
		return p.GDB
	}
	g, err := exec.LookPath("gdb")
	if err != nil {
		return ""
	}
	return g
}

// stateDir is where the verdicts are kept: StateDir, else dbg's state
// directory ($DBG_STATE_DIR, $XDG_STATE_HOME/dbg, ~/.local/state/dbg).
func (p Python) stateDir() string {
	if p.StateDir != "" {
		return p.StateDir
	}
	if d := os.Getenv("DBG_STATE_DIR"); d != "" {
		return d
	}
	if d := os.Getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "dbg")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".local", "state", "dbg")
	}
	return filepath.Join(os.TempDir(), "dbg-state")
}

// injectKey names a verdict: the debugger's build (its --version), the
// kernel (uname -r), the interpreter (its file and version), the user it
// runs as, and for lldb the calls dbg makes.
func injectKey(ctx context.Context, j pyInjector, py pyInfo, u *pyUser) string {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	out, _ := exec.CommandContext(ctx, j.Path, "--version").Output()
	first, _, _ := strings.Cut(string(out), "\n")
	exe := py.path
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	key := strings.Join([]string{j.Kind + "=" + j.Path + " " + strings.TrimSpace(first), "kernel=" + kernelRelease(), "python=" + exe + " " + py.version}, "\n")
	if j.Kind == "lldb" {
		key += "\ncalls=" + shortHash(lldbLater) // dbg's own way of injecting: checked again when it changes
	}
	if k := u.key(); k != "" {
		key += "\nuser=" + k
	}
	return key
}

func kernelRelease() string {
	var u syscall.Utsname
	if syscall.Uname(&u) != nil {
		return "unknown"
	}
	var b []byte
	for _, c := range u.Release {
		if c == 0 {
			break
		}
		b = append(b, byte(c))
	}
	return string(b)
}

func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:8])
}

// attachLibrary is debugpy's attach library for this machine's CPU.
func attachLibrary(debugpyDir string) (string, error) {
	arch := map[string]string{"amd64": "amd64", "386": "x86", "arm64": "arm64"}[runtime.GOARCH]
	dir := filepath.Join(debugpyDir, "_vendored", "pydevd", "pydevd_attach_to_process")
	so := filepath.Join(dir, "attach_linux_"+arch+".so")
	if arch == "" || !isFile(so) {
		return "", fmt.Errorf("debugpy has no attach library for %s/%s in %s", runtime.GOOS, runtime.GOARCH, dir)
	}
	return so, nil
}

// injectArgv is the command line of j that runs code in process pid
// through the attach library so: debugpy's own gdb command, or dbg's
// lldb one (the hook runs the same).
func injectArgv(j pyInjector, so string, pid int, code string) []string {
	if j.Kind == "lldb" {
		return lldbInjectArgv(j.Path, so, strconv.Itoa(pid), byteList(code))
	}
	name := strings.TrimSuffix(filepath.Base(so), ".so")
	return []string{j.Path, "--nw", "--nh", "--nx", "--pid", strconv.Itoa(pid), "--batch",
		"--eval-command=set scheduler-locking off", "--eval-command=set architecture auto",
		fmt.Sprintf("--eval-command=call (void*)dlopen(%q, 2)", so), "--eval-command=call (char*)dlerror()",
		"--eval-command=sharedlibrary " + name, fmt.Sprintf("--eval-command=call (int)DoAttach(0, %q, 0)", code)}
}

// runInjectCheck makes debugpy's inferior calls with j in a throwaway
// process of py, both run as u. The throwaway runs isolated (-I -S): it
// needs no site-packages, and runs nobody's code. definite is false when
// the check could not decide (a deadline, a throwaway that did not
// start): such a verdict is not kept.
func runInjectCheck(ctx context.Context, j pyInjector, py pyInfo, u *pyUser) (v injectVerdict, definite bool) {
	so, err := attachLibrary(py.debugpy)
	if err != nil {
		return injectVerdict{Reason: err.Error()}, true
	}
	ctx, cancel := context.WithTimeout(ctx, injectCheckTimeout)
	defer cancel()
	var stdout bytes.Buffer
	var outMu sync.Mutex
	victim := exec.Command(py.path, "-I", "-S", "-c", "import time\nwhile True:\n    time.sleep(0.02)\n")
	victim.Stdout = lockedWriter{&stdout, &outMu}
	victim.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	u.apply(victim)
	if err := victim.Start(); err != nil {
		return injectVerdict{Reason: "start a throwaway " + py.path + ": " + err.Error()}, false
	}
	exited := make(chan struct{})
	go func() { _ = victim.Wait(); close(exited) }()
	defer func() {
		_ = proc.KillGroup(victim.Process.Pid)
		<-exited
	}()
	time.Sleep(100 * time.Millisecond) // let the interpreter reach its loop
	argv := injectArgv(j, so, victim.Process.Pid, injectCheckCode)
	g := exec.CommandContext(ctx, argv[0], argv[1:]...)
	g.Env = withoutEnv(os.Environ(), "PYTHONPATH", "PYTHONIOENCODING")
	g.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	g.Cancel = func() error { return proc.KillGroup(g.Process.Pid) }
	u.apply(g)
	out, gerr := g.CombinedOutput()
	if ctx.Err() != nil {
		return injectVerdict{Reason: fmt.Sprintf("%s did not finish its calls within %s", j.Kind, injectCheckTimeout)}, false
	}
	seen := func() bool {
		outMu.Lock()
		defer outMu.Unlock()
		return strings.Contains(stdout.String(), injectCheckMarker)
	}
	// The code runs at the throwaway's next eval-loop turn; through lldb,
	// once lldb has detached and a new thread is scheduled, which a busy
	// machine delays.
	wait := injectCodeWait
	if gerr != nil {
		wait = 200 * time.Millisecond // the debugger failed: only a late marker would change the verdict
	}
	for deadline := time.Now().Add(wait); !seen() && time.Now().Before(deadline); {
		select {
		case <-exited:
			deadline = time.Now()
		case <-time.After(20 * time.Millisecond):
		}
	}
	select {
	case <-exited:
		return injectVerdict{Reason: j.Kind + "'s calls killed the throwaway process: " + injectFailure(j, out, gerr)}, true
	default:
	}
	if !seen() {
		// A debugger that failed decided; one that finished its calls
		// and whose code has not run yet did not: ask again next time.
		return injectVerdict{Reason: j.Kind + "'s calls did not run code in the throwaway process: " + injectFailure(j, out, gerr)}, gerr != nil
	}
	return injectVerdict{OK: true}, true
}

// injectFailure is the telling line of the debugger's output.
func injectFailure(j pyInjector, out []byte, err error) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	for _, want := range []string{"Couldn't", "Cannot", "cannot", "error", "Error", "failed", "not permitted"} {
		for _, l := range lines {
			if strings.Contains(l, want) {
				return strings.TrimSpace(l)
			}
		}
	}
	if err != nil {
		return j.Kind + ": " + err.Error()
	}
	if len(lines) > 0 && lines[len(lines)-1] != "" {
		return strings.TrimSpace(lines[len(lines)-1])
	}
	return j.Kind + " printed nothing"
}

type lockedWriter struct {
	b  *bytes.Buffer
	mu *sync.Mutex
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}
