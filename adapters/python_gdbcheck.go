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
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/dbg-dev/dbg/proc"
	"github.com/dbg-dev/dbg/safefs"
)

// debugpy attaches to a pid by making gdb call functions inside the
// target: dlopen of its attach library, then DoAttach, which runs Python
// code in the target. Whether gdb can make such inferior calls depends on
// the CPU and kernel: where gdb fails them ("Couldn't write extended state
// status: Bad address"), the target dies. So before the first injection
// on a machine, dbg makes the very same calls on a throwaway process of
// the same interpreter, and keeps the verdict per gdb build, kernel and
// interpreter.

// gdbCheckTimeout bounds the check. gdb reads every shared library's
// symbols before its first call, which takes a few seconds.
const gdbCheckTimeout = 45 * time.Second

// gdbVerdict is the outcome of the check on one gdb, kernel and interpreter.
type gdbVerdict struct {
	Key    string    `json:"key"`
	OK     bool      `json:"ok"`
	Reason string    `json:"reason,omitempty"` // why the calls do not work
	At     time.Time `json:"checkedAt"`
}

// gdbCheckMarker is what the check's injected code prints: 31*37*41.
const gdbCheckMarker = "47027"

// gdbCheckCode runs inside the throwaway process (no quotes: debugpy's
// injector passes it in a C string on gdb's command line).
const gdbCheckCode = "import sys;sys.stdout.write(str(31*37*41)+chr(10));sys.stdout.flush()"

// gdbCheck tells whether gdb's inferior calls work for interpreter py
// (whose debugpy is at debugpyDir), from the cache when it can. It never
// touches any process but the throwaway one it starts.
func (p Python) gdbCheck(ctx context.Context, py pyInfo) gdbVerdict {
	gdb := p.gdbPath()
	if gdb == "" {
		return gdbVerdict{Reason: "gdb is not installed (debugpy attaches by pid through gdb)"}
	}
	key := gdbKey(ctx, gdb, py)
	if p.cache != nil {
		p.cache.checkMu.Lock() // one check at a time: they are slow and alike
		defer p.cache.checkMu.Unlock()
		p.cache.mu.Lock()
		v, ok := p.cache.gdb[key]
		p.cache.mu.Unlock()
		if ok {
			return v
		}
	}
	file := filepath.Join(p.stateDir(), "python-attach", "gdb-"+shortHash(key)+".json")
	var v gdbVerdict
	if b, err := os.ReadFile(file); err == nil && json.Unmarshal(b, &v) == nil && v.Key == key {
		p.remember(key, v)
		return v
	}
	progress(ctx, "checking that gdb can call into a Python %s process on this machine (once per gdb and kernel)…", py.version)
	v, definite := runGDBCheck(ctx, gdb, py)
	v.Key, v.At = key, time.Now().UTC()
	if definite {
		p.remember(key, v)
		if b, err := json.MarshalIndent(v, "", "  "); err == nil {
			_ = writeOnce(file, b) // a verdict not kept is checked again next time
		}
	}
	return v
}

func (p Python) remember(key string, v gdbVerdict) {
	if p.cache != nil {
		p.cache.mu.Lock()
		p.cache.gdb[key] = v
		p.cache.mu.Unlock()
	}
}

// gdbPath is the gdb debugpy's injector runs: GDB when set, else PATH's.
func (p Python) gdbPath() string {
	if p.GDB != "" {
		return p.GDB
	}
	g, err := exec.LookPath("gdb")
	if err != nil {
		return ""
	}
	return g
}

// stateDir is where the verdicts are kept: StateDir, else dbg's state
// directory (see safefs.StateDir).
func (p Python) stateDir() string {
	if p.StateDir != "" {
		return p.StateDir
	}
	return safefs.StateDir(nil)
}

// gdbKey names a verdict: the gdb build (its --version), the kernel
// (uname -r) and the interpreter (its file and version).
func gdbKey(ctx context.Context, gdb string, py pyInfo) string {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	out, _ := exec.CommandContext(ctx, gdb, "--version").Output()
	first, _, _ := strings.Cut(string(out), "\n")
	exe := py.path
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	return strings.Join([]string{"gdb=" + gdb + " " + strings.TrimSpace(first), "kernel=" + kernelRelease(), "python=" + exe + " " + py.version}, "\n")
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

// runGDBCheck makes debugpy's inferior calls in a throwaway process of
// py. definite is false when the check could not decide (a deadline, a
// throwaway that did not start): such a verdict is not kept.
func runGDBCheck(ctx context.Context, gdb string, py pyInfo) (v gdbVerdict, definite bool) {
	so, err := attachLibrary(py.debugpy)
	if err != nil {
		return gdbVerdict{Reason: err.Error()}, true
	}
	ctx, cancel := context.WithTimeout(ctx, gdbCheckTimeout)
	defer cancel()
	var stdout bytes.Buffer
	var outMu sync.Mutex
	victim := exec.Command(py.path, "-c", "import time\nwhile True:\n    time.sleep(0.02)\n")
	victim.Stdout = lockedWriter{&stdout, &outMu}
	victim.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := victim.Start(); err != nil {
		return gdbVerdict{Reason: "start a throwaway " + py.path + ": " + err.Error()}, false
	}
	exited := make(chan struct{})
	go func() { _ = victim.Wait(); close(exited) }()
	defer func() {
		_ = proc.KillGroup(victim.Process.Pid)
		<-exited
	}()
	time.Sleep(100 * time.Millisecond) // let the interpreter reach its loop
	name := strings.TrimSuffix(filepath.Base(so), ".so")
	args := []string{"--nw", "--nh", "--nx", "--pid", fmt.Sprint(victim.Process.Pid), "--batch",
		"--eval-command=set scheduler-locking off", "--eval-command=set architecture auto",
		fmt.Sprintf("--eval-command=call (void*)dlopen(%q, 2)", so), "--eval-command=call (char*)dlerror()",
		"--eval-command=sharedlibrary " + name, fmt.Sprintf("--eval-command=call (int)DoAttach(0, %q, 0)", gdbCheckCode)}
	g := exec.CommandContext(ctx, gdb, args...)
	g.Env = withoutEnv(os.Environ(), "PYTHONPATH", "PYTHONIOENCODING")
	g.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	g.Cancel = func() error { return proc.KillGroup(g.Process.Pid) }
	out, gerr := g.CombinedOutput()
	if ctx.Err() != nil {
		return gdbVerdict{Reason: fmt.Sprintf("gdb did not finish its calls within %s", gdbCheckTimeout)}, false
	}
	seen := func() bool {
		outMu.Lock()
		defer outMu.Unlock()
		return strings.Contains(stdout.String(), gdbCheckMarker)
	}
	wait := 3 * time.Second // the code runs at the throwaway's next eval-loop turn
	if gerr != nil {
		wait = 200 * time.Millisecond // gdb failed: only a late marker would change the verdict
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
		return gdbVerdict{Reason: "gdb's calls killed the throwaway process: " + gdbFailure(out, gerr)}, true
	default:
	}
	if !seen() {
		return gdbVerdict{Reason: "gdb's calls did not run code in the throwaway process: " + gdbFailure(out, gerr)}, true
	}
	return gdbVerdict{OK: true}, true
}

// gdbFailure is the telling line of gdb's output.
func gdbFailure(out []byte, err error) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	for _, want := range []string{"Couldn't", "Cannot", "cannot", "error", "Error", "failed", "not permitted"} {
		for _, l := range lines {
			if strings.Contains(l, want) {
				return strings.TrimSpace(l)
			}
		}
	}
	if err != nil {
		return "gdb: " + err.Error()
	}
	if len(lines) > 0 && lines[len(lines)-1] != "" {
		return strings.TrimSpace(lines[len(lines)-1])
	}
	return "gdb printed nothing"
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
