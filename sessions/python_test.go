package sessions

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/internal/dbgtest"
	"github.com/dbg-dev/dbg/proc"
	"github.com/dbg-dev/dbg/toolkit"
)

// pythonManager is a manager whose Python adapter keeps its gdb verdicts
// and hooks in the test's own directories and uses gdb (nil: PATH's).
func pythonManager(t *testing.T, py adapters.Python) *Manager {
	t.Helper()
	if py.StateDir == "" {
		py.StateDir = t.TempDir()
	}
	if py.HookDir == "" {
		py.HookDir = t.TempDir()
	}
	reg := adapters.Default()
	reg.Register(py, "py")
	m := NewManager(Config{Adapters: reg, StateDir: t.TempDir()})
	t.Cleanup(func() { m.Shutdown(context.Background()) })
	return m
}

type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// ticker starts testdata/python/attach/ticker.py under py and returns it
// with its growing output.
func ticker(t *testing.T, py string) (*exec.Cmd, *syncBuffer) {
	t.Helper()
	return startTicker(t, exec.Command(py, testdata(t, "python/attach/ticker.py")))
}

// startTicker starts cmd, a ticker, and waits for its third tick.
func startTicker(t *testing.T, cmd *exec.Cmd) (*exec.Cmd, *syncBuffer) {
	t.Helper()
	out := &syncBuffer{}
	cmd.Stdout = out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	waitUntil(t, 10*time.Second, func() bool { return strings.Contains(out.String(), "tick 3\n") })
	return cmd, out
}

func waitUntil(t *testing.T, d time.Duration, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(d); !ok(); {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s", d)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// assertProgressing checks that the target is alive, untraced, and that
// its output still grows.
func assertProgressing(t *testing.T, cmd *exec.Cmd, out *syncBuffer) {
	t.Helper()
	if !proc.Alive(cmd.Process.Pid) {
		t.Fatalf("target %d died", cmd.Process.Pid)
	}
	n := strings.Count(out.String(), "tick ")
	waitUntil(t, 10*time.Second, func() bool { return strings.Count(out.String(), "tick ") >= n+5 })
	if b, err := os.ReadFile(proc.Path(cmd.Process.Pid, "status")); err == nil && !strings.Contains(string(b), "TracerPid:\t0\n") {
		t.Errorf("target is still traced:\n%s", b)
	}
}

// machinePythons are the machine's Pythons: pyenv's and Debian's.
func machinePythons(t *testing.T) map[string]string {
	out := map[string]string{}
	for name, p := range map[string]string{"pyenv": "/root/.pyenv/versions/3.11.7/bin/python3.11", "debian": "/usr/bin/python3.11"} {
		if _, err := os.Stat(p); err == nil {
			out[name] = p
		}
	}
	if len(out) == 0 {
		t.Fatal("neither pyenv's nor Debian's Python is installed")
	}
	return out
}

// onePython is one of the machine's Pythons: pyenv's, else Debian's.
func onePython(t *testing.T) string {
	ps := machinePythons(t)
	if p := ps["pyenv"]; p != "" {
		return p
	}
	return ps["debian"]
}

// attachPaused attaches m to the Python process of cmd. Where the machine
// cannot inject into it, the answer must be the clean refusal, the
// target untouched and still running: it returns nil. Otherwise it
// returns the session, paused.
func attachPaused(t *testing.T, ctx context.Context, m *Manager, cmd *exec.Cmd, out *syncBuffer) *Session {
	t.Helper()
	s, res, err := m.Create(ctx, CreateRequest{Language: "python", ProcessID: cmd.Process.Pid})
	var te *toolkit.ToolError
	if errors.As(err, &te) && te.Code == toolkit.CodeAttachFailed && strings.Contains(te.Message, "untouched") {
		t.Logf("refused: %s (%s)", te.Message, te.Hint)
		assertProgressing(t, cmd, out)
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	if res.State != StatePaused {
		t.Fatalf("attach: %+v", res)
	}
	return s
}

func evalString(t *testing.T, s *Session, expr string) string {
	t.Helper()
	r, err := s.Evaluate(context.Background(), expr, 0, EvalREPL)
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return strings.Trim(r.Result, "'\"")
}

// nodelayExpr reads TCP_NODELAY back from pydevd's own socket.
const nodelayExpr = `__import__("pydevd").get_global_debugger().writer.sock.getsockopt(6, 1)`

// Attach by pid to a loop under each of the machine's Pythons. On this
// machine gdb's inferior calls work, so attach must work: with the
// target's own interpreter's debugpy, TCP_NODELAY on pydevd's socket, and
// the target alive and progressing afterwards. On a machine where they do
// not, the clean refusal is the answer, and the target survives it.
func TestPythonAttachByPIDEachInterpreter(t *testing.T) {
	t.Parallel()
	pythons := machinePythons(t)
	if debian := pythons["debian"]; debian != "" {
		// A venv without debugpy, of an interpreter with one: the
		// interpreter's own debugpy serves it.
		venv := filepath.Join(t.TempDir(), "venv")
		if out, err := exec.Command(debian, "-m", "venv", "--without-pip", venv).CombinedOutput(); err != nil {
			t.Fatalf("venv: %v\n%s", err, out)
		}
		pythons["debian-venv"] = filepath.Join(venv, "bin", "python")
	}
	for name, py := range pythons {
		t.Run(name, func(t *testing.T) {
			m := pythonManager(t, adapters.NewPython())
			cmd, out := ticker(t, py)
			ctx := context.Background()
			var lines []string
			var linesMu sync.Mutex
			pctx := adapters.WithProgress(ctx, func(l string) { linesMu.Lock(); lines = append(lines, l); linesMu.Unlock() })
			s := attachPaused(t, pctx, m, cmd, out)
			if s == nil {
				return // neither gdb nor lldb can call into a process on this machine
			}
			in := s.Info().Interpreter
			if in == nil || in.Source != "process" || !sameExe(in.Path, py) || in.Debugpy != adapters.DebugpyVersion || in.Injector == "" {
				t.Fatalf("interpreter: %+v, want %s and the injector", in, py)
			}
			t.Logf("injected through %s", in.Injector)
			linesMu.Lock()
			joined := strings.Join(lines, "\n")
			linesMu.Unlock()
			if !strings.Contains(joined, "attaching to "+strconv.Itoa(cmd.Process.Pid)+" (python 3.11") {
				t.Errorf("progress lines: %q", joined)
			}
			site := evalString(t, s, `__import__("debugpy").__file__`)
			wantSite := evalString(t, s, `__import__("sysconfig").get_paths()["purelib"]`)
			if !strings.HasPrefix(site, wantSite) && !strings.HasPrefix(site, "/usr/local/lib/python3") {
				t.Errorf("the target runs debugpy from %s, not its own interpreter's (%s)", site, wantSite)
			}
			if py == "/usr/bin/python3.11" && strings.Contains(site, ".pyenv") {
				t.Errorf("pyenv's debugpy injected into Debian's python: %s", site)
			}
			assertNoDelay(t, s)
			if _, err := s.Continue(ctx, 0, 0); err != nil {
				t.Fatal(err)
			}
			if err := m.CloseSession(ctx, s.ID()); err != nil {
				t.Fatal(err)
			}
			assertProgressing(t, cmd, out)
		})
	}
}

func sameExe(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

// fakeDebugger writes a gdb or lldb that fails every call into a process
// as gdb 13.1 does on some CPUs, and logs its arguments to log.
func fakeDebugger(t *testing.T, name, log string) string {
	t.Helper()
	fake := filepath.Join(t.TempDir(), name)
	script := "#!/bin/sh\necho \"$@\" >> " + log + "\n" +
		"case \"$1\" in --version) echo '" + name + " (fake) 13.1'; exit 0;; esac\n" +
		"echo \"Couldn't write extended state status: Bad address.\" >&2\nexit 1\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return fake
}

// ranOn reports whether a fake debugger's log shows it attached to pid.
func ranOn(log string, pid int) (on, any bool) {
	b, _ := os.ReadFile(log)
	p := strconv.Itoa(pid)
	return strings.Contains(string(b), "--pid "+p+" ") || strings.Contains(string(b), "-p "+p+" "), strings.Contains(string(b), "--pid ") || strings.Contains(string(b), "-p ")
}

// Where gdb's inferior calls fail, dbg tries lldb on a throwaway process,
// and attaches through it when it works here; the failing gdb only ever
// saw the throwaway process. Where lldb fails too, the answer is the
// refusal of TestPythonAttachRefusedWhenNoDebuggerWorks.
func TestPythonAttachThroughLLDBWhereGDBCallsFail(t *testing.T) {
	t.Parallel()
	for name, py := range machinePythons(t) {
		t.Run(name, func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "gdb.log")
			m := pythonManager(t, adapters.Python{GDB: fakeDebugger(t, "gdb", log)})
			cmd, out := ticker(t, py)
			ctx := context.Background()
			s := attachPaused(t, ctx, m, cmd, out)
			if on, any := ranOn(log, cmd.Process.Pid); on || !any {
				b, _ := os.ReadFile(log)
				t.Errorf("the failing gdb ran on the target, or the check never ran it on a throwaway process:\n%s", b)
			}
			if s == nil {
				return // lldb cannot call into a process on this machine either
			}
			in := s.Info().Interpreter
			if in == nil || !strings.HasPrefix(in.Injector, "lldb") || !sameExe(in.Path, py) {
				t.Fatalf("interpreter: %+v, want %s, injected through lldb", in, py)
			}
			if got := evalString(t, s, "tick(41)"); got != "42" {
				t.Errorf("tick(41) in the target = %s", got)
			}
			// The injection's own thread is not the program's main thread.
			if got := evalString(t, s, `__import__("threading").main_thread().native_id == __import__("os").getpid() and __import__("threading").main_thread().name`); got != "MainThread" {
				t.Errorf("the target's main thread after the injection: %s", got)
			}
			assertNoDelay(t, s)
			if err := m.CloseSession(ctx, s.ID()); err != nil {
				t.Fatal(err)
			}
			assertProgressing(t, cmd, out)
		})
	}
}

// Where neither gdb's nor lldb's calls work, the attach is refused at
// once, naming both reasons, and the target is never touched: each
// failing debugger only ever saw the throwaway process. The verdicts are
// kept: a second attach runs neither again.
func TestPythonAttachRefusedWhenNoDebuggerWorks(t *testing.T) {
	py := onePython(t)
	dir := t.TempDir()
	gdbLog, lldbLog := filepath.Join(dir, "gdb.log"), filepath.Join(dir, "lldb.log")
	m := pythonManager(t, adapters.Python{GDB: fakeDebugger(t, "gdb", gdbLog), LLDB: fakeDebugger(t, "lldb", lldbLog)})
	cmd, out := ticker(t, py)
	start := time.Now()
	_, _, err := m.Create(context.Background(), CreateRequest{Language: "python", ProcessID: cmd.Process.Pid})
	elapsed := time.Since(start)
	var te *toolkit.ToolError
	if !errors.As(err, &te) || te.Code != toolkit.CodeAttachFailed {
		t.Fatalf("want ATTACH_FAILED, got %v", err)
	}
	if !strings.Contains(te.Message, "gdb: ") || !strings.Contains(te.Message, "lldb: ") || !strings.Contains(te.Message, "Couldn't write extended state status") ||
		!strings.Contains(te.Hint, "--listen") || !strings.Contains(te.Hint, "dbg launch") {
		t.Errorf("refusal: %s (hint: %s)", te.Message, te.Hint)
	}
	if elapsed > 5*time.Second {
		t.Errorf("refusal took %s", elapsed)
	}
	for _, log := range []string{gdbLog, lldbLog} {
		if on, any := ranOn(log, cmd.Process.Pid); on || !any {
			b, _ := os.ReadFile(log)
			t.Errorf("%s: the failing debugger ran on the target, or never on a throwaway process:\n%s", filepath.Base(log), b)
		}
	}
	before := map[string]string{}
	for _, log := range []string{gdbLog, lldbLog} {
		b, _ := os.ReadFile(log)
		before[log] = string(b)
	}
	if _, _, err := m.Create(context.Background(), CreateRequest{Language: "python", ProcessID: cmd.Process.Pid}); err == nil {
		t.Fatal("second attach succeeded")
	}
	for _, log := range []string{gdbLog, lldbLog} {
		b, _ := os.ReadFile(log)
		if strings.Count(string(b), "-p") != strings.Count(before[log], "-p") {
			t.Errorf("%s: the kept verdict was not used:\n%s", filepath.Base(log), b)
		}
	}
	assertProgressing(t, cmd, out)
}

// A venv project whose program imports a package installed only in that
// venv: the session runs the venv's interpreter (debugpy's adapter comes
// from an interpreter that has it), stops at a breakpoint, and the
// answer names the venv.
func TestPythonVenvProject(t *testing.T) {
	t.Parallel()
	base := onePython(t)
	proj := t.TempDir()
	os.WriteFile(filepath.Join(proj, "pyproject.toml"), []byte("[project]\nname = \"venvproj\"\n"), 0o644)
	src, err := os.ReadFile(testdata(t, "python/venvproj/app.py"))
	if err != nil {
		t.Fatal(err)
	}
	prog := filepath.Join(proj, "app.py")
	os.WriteFile(prog, src, 0o644)
	if out, err := exec.Command(base, "-m", "venv", "--without-pip", filepath.Join(proj, ".venv")).CombinedOutput(); err != nil {
		t.Fatalf("venv: %v\n%s", err, out)
	}
	venvPy := filepath.Join(proj, ".venv", "bin", "python")
	purelib, err := exec.Command(venvPy, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").Output()
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(strings.TrimSpace(string(purelib)), "onlyinvenv.py"), []byte("def answer():\n    return 42\n"), 0o644)
	if err := exec.Command(base, "-c", "import onlyinvenv").Run(); err == nil {
		t.Fatal("onlyinvenv is importable outside the venv")
	}

	m := pythonManager(t, adapters.NewPython())
	ctx := context.Background()
	s, _, err := m.Create(ctx, CreateRequest{Language: "python"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetBreakpoint(ctx, BreakpointSpec{File: prog, Line: lineOf(t, prog, "# BREAK")}); err != nil {
		t.Fatal(err)
	}
	res, err := s.Launch(ctx, StartRequest{ScriptPath: prog, Wait: 60 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if res.State != StatePaused || res.LastStop.Reason != "breakpoint" {
		t.Fatalf("launch: %+v; output: %s", res, s.output.Text("stderr"))
	}
	in := s.Info().Interpreter
	if in == nil || in.Source != "venv" || in.Path != venvPy || in.Version == "" {
		t.Fatalf("interpreter: %+v, want the venv's %s", in, venvPy)
	}
	if in.Adapter == "" {
		t.Errorf("the venv has no debugpy, so the adapter runs elsewhere: %+v", in)
	}
	if got := evalString(t, s, "__import__('sys').prefix"); got != filepath.Join(proj, ".venv") {
		t.Errorf("sys.prefix = %s", got)
	}
	if got := evalString(t, s, "onlyinvenv.answer()"); got != "42" {
		t.Errorf("onlyinvenv.answer() = %s", got)
	}
}

func lineOf(t *testing.T, file, marker string) int {
	t.Helper()
	return dbgtest.LineOf(t, file, marker)
}

// TCP_NODELAY is set on pydevd's socket in a launched debuggee (read back
// with getsockopt through evaluate), and the hook that sets it leaves the
// program's world as it is without dbg: its own sitecustomize runs, and
// sys.path and the environment are the same as in a plain run.
func TestPythonNoDelayKeepsTheProgramsSitecustomize(t *testing.T) {
	t.Parallel()
	py := onePython(t)
	prog := testdata(t, "python/hooks/show.py")
	usersite := testdata(t, "python/hooks/usersite")
	plain := exec.Command(py, prog)
	plain.Env = append(os.Environ(), "PYTHONPATH="+usersite)
	want, err := plain.Output()
	if err != nil {
		t.Fatal(err)
	}
	m := pythonManager(t, adapters.NewPython())
	ctx := context.Background()
	s, _, err := m.Create(ctx, CreateRequest{Language: "python", ExecutablePath: py})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetBreakpoint(ctx, BreakpointSpec{File: prog, Line: lineOf(t, prog, "# BREAK")}); err != nil {
		t.Fatal(err)
	}
	res, err := s.Launch(ctx, StartRequest{ScriptPath: prog, Env: map[string]string{"PYTHONPATH": usersite}, Wait: 60 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if res.State != StatePaused {
		t.Fatalf("launch: %+v", res)
	}
	assertNoDelay(t, s)
	got := evalString(t, s, "world()")
	// evaluate shows the JSON as a Python string repr: compare the parsed worlds.
	got = strings.ReplaceAll(got, `\\`, `\`)
	if strings.TrimSpace(got) != strings.TrimSpace(string(want)) {
		t.Errorf("the program's world under dbg:\n%s\nwithout dbg:\n%s", got, want)
	}
	if !strings.Contains(got, "user sitecustomize ran") {
		t.Errorf("the program's own sitecustomize did not run: %s", got)
	}
}

// assertNoDelay checks TCP_NODELAY on both ends of the connection
// between debugpy's adapter and pydevd in the stopped debuggee s: the
// debuggee's read back with getsockopt through evaluate, the adapter's
// from its own socket table.
func assertNoDelay(t *testing.T, s *Session) {
	t.Helper()
	if v := evalString(t, s, nodelayExpr); v != "1" {
		t.Errorf("TCP_NODELAY on pydevd's socket: %s", v)
	}
	port, _ := strconv.Atoi(evalString(t, s, `__import__("pydevd").get_global_debugger().writer.sock.getsockname()[1]`))
	if v := adapterNoDelay(t, s.Info().AdapterPID, port); v != 1 {
		t.Errorf("TCP_NODELAY on the adapter's end: %d", v)
	}
}

// adapterNoDelay reads TCP_NODELAY of the adapter's end of the socket
// whose other end is the debuggee's local port: it finds the socket in
// the adapter's /proc tables and takes a copy of it with pidfd_getfd.
func adapterNoDelay(t *testing.T, adapterPID, debuggeePort int) int {
	t.Helper()
	inode := ""
	for _, table := range []string{"net/tcp", "net/tcp6"} {
		b, _ := os.ReadFile(proc.Path(adapterPID, table))
		for _, l := range strings.Split(string(b), "\n")[1:] {
			f := strings.Fields(l)
			if len(f) < 10 {
				continue
			}
			_, rem, _ := strings.Cut(f[2], ":")
			if p, err := strconv.ParseInt(rem, 16, 32); err == nil && int(p) == debuggeePort {
				inode = f[9]
			}
		}
	}
	if inode == "" {
		t.Fatalf("no socket to port %d in the adapter's tables", debuggeePort)
	}
	fds, _ := os.ReadDir(proc.Path(adapterPID, "fd"))
	for _, e := range fds {
		if l, _ := os.Readlink(filepath.Join(proc.Path(adapterPID, "fd"), e.Name())); l == "socket:["+inode+"]" {
			fd, _ := strconv.Atoi(e.Name())
			pidfd, _, errno := syscall.Syscall(434, uintptr(adapterPID), 0, 0) // pidfd_open
			if errno != 0 {
				t.Fatalf("pidfd_open: %v", errno)
			}
			defer syscall.Close(int(pidfd))
			sock, _, errno := syscall.Syscall(438, pidfd, uintptr(fd), 0) // pidfd_getfd
			if errno != 0 {
				t.Fatalf("pidfd_getfd: %v", errno)
			}
			defer syscall.Close(int(sock))
			v, err := syscall.GetsockoptInt(int(sock), syscall.IPPROTO_TCP, syscall.TCP_NODELAY)
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
	}
	t.Fatalf("the adapter holds no socket:[%s]", inode)
	return -1
}

// A target whose interpreter has no debugpy is refused with the pip
// command for that very interpreter; no other interpreter's debugpy is
// injected, gdb never runs, and the target keeps going.
func TestPythonAttachRefusedWithoutTheTargetsDebugpy(t *testing.T) {
	t.Parallel()
	var py string
	for _, v := range []string{"3.12.1", "3.13.0", "3.10.13"} {
		p := "/root/.pyenv/versions/" + v + "/bin/python3"
		if exec.Command(p, "-c", "import debugpy").Run() != nil && exec.Command(p, "-c", "pass").Run() == nil {
			py = p
			break
		}
	}
	if py == "" {
		// Without such an interpreter, make one: a venv of a Python with
		// debugpy is not one (its base has debugpy); fail loudly instead.
		t.Fatal("no Python without debugpy on this machine to attach to")
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "gdb.log")
	fake := filepath.Join(dir, "gdb")
	os.WriteFile(fake, []byte("#!/bin/sh\necho \"$@\" >> "+log+"\nexit 1\n"), 0o755)
	m := pythonManager(t, adapters.Python{GDB: fake})
	cmd, out := ticker(t, py)
	_, _, err := m.Create(context.Background(), CreateRequest{Language: "python", ProcessID: cmd.Process.Pid})
	var te *toolkit.ToolError
	if !errors.As(err, &te) || te.Code != toolkit.CodeAttachFailed {
		t.Fatalf("want ATTACH_FAILED, got %v", err)
	}
	if !strings.Contains(te.Hint, py+" -m pip install debugpy=="+adapters.DebugpyVersion) || !strings.Contains(te.Message, "has no debugpy") {
		t.Errorf("refusal: %s (hint: %s)", te.Message, te.Hint)
	}
	if b, _ := os.ReadFile(log); len(b) > 0 {
		t.Errorf("gdb ran:\n%s", b)
	}
	assertProgressing(t, cmd, out)
}

// otherUser is a second local user, made with useradd when the machine
// has none yet; the test is skipped, saying why, where none can be made.
func otherUser(t *testing.T) (uid, gid int) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skipf("a second user is needed, and only root can make one and act as it (running as uid %d)", os.Geteuid())
	}
	for _, tool := range []string{"useradd", "setpriv"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: no second user can be made or acted as", tool)
		}
	}
	const name = "dbg-attacker"
	for deadline := time.Now().Add(20 * time.Second); ; {
		if u, err := user.Lookup(name); err == nil {
			uid, _ = strconv.Atoi(u.Uid)
			gid, _ = strconv.Atoi(u.Gid)
			return uid, gid
		}
		// Packages tested at once may add the user together: one useradd
		// then fails, and the lookup above finds the user.
		out, err := exec.Command("useradd", "--system", "--no-create-home", "--user-group", "--shell", "/usr/sbin/nologin", name).CombinedOutput()
		if err != nil && time.Now().After(deadline) {
			t.Skipf("useradd %s: %v: %s", name, err, out)
		}
		if err != nil {
			time.Sleep(100 * time.Millisecond)
		}
	}
}

// asUser is the command line that runs argv as uid and gid, no other groups.
func asUser(uid, gid int, argv ...string) *exec.Cmd {
	cmd := exec.Command("setpriv", append([]string{"--reuid=" + strconv.Itoa(uid), "--regid=" + strconv.Itoa(gid), "--clear-groups", "--"}, argv...)...)
	cmd.Dir = "/"
	cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/nonexistent", "LANG=C"}
	return cmd
}

// Attaching as root to another user's Python process started from her
// venv never runs that venv's code as root: its .pth file, which writes a
// marker named for the uid that runs it, runs for her (when her program
// starts, and in what dbg runs as her), never for root, whether the
// attach then works or is refused.
func TestPythonAttachAsRootRunsNoCodeOfTheTargetAsRoot(t *testing.T) {
	t.Parallel()
	uid, gid := otherUser(t)
	base := "/usr/bin/python3.11" // root's, readable by her; its debugpy is in the system site
	if _, err := os.Stat(base); err != nil {
		t.Fatalf("Debian's Python: %v", err)
	}
	dir := t.TempDir()
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	home, marks := filepath.Join(dir, "home"), filepath.Join(dir, "marks")
	for _, d := range []string{home, marks} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(d, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	venv := filepath.Join(home, "venv")
	if out, err := asUser(uid, gid, base, "-m", "venv", "--without-pip", "--system-site-packages", venv).CombinedOutput(); err != nil {
		t.Fatalf("venv as uid %d: %v\n%s", uid, err, out)
	}
	site, err := filepath.Glob(filepath.Join(venv, "lib", "python3*", "site-packages"))
	if err != nil || len(site) != 1 {
		t.Fatalf("the venv's site-packages: %v %v", site, err)
	}
	pth := "import os; open(os.path.join(" + strconv.Quote(marks) + ", \"ran-as-%d\" % os.getuid()), \"a\").close()\n"
	if out, err := asUser(uid, gid, "sh", "-c", "cat > "+filepath.Join(site[0], "dbgmark.pth")).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if err := os.WriteFile(filepath.Join(site[0], "dbgmark.pth"), []byte(pth), 0o644); err != nil {
		t.Fatal(err)
	}
	prog := filepath.Join(home, "ticker.py")
	src, _ := os.ReadFile(testdata(t, "python/attach/ticker.py"))
	if err := os.WriteFile(prog, src, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd, out := startTicker(t, asUser(uid, gid, filepath.Join(venv, "bin", "python"), prog))
	mine := filepath.Join(marks, "ran-as-"+strconv.Itoa(uid))
	if _, err := os.Stat(mine); err != nil {
		t.Fatalf("the venv's .pth did not run when her program started: %v", err)
	}
	rootMark := filepath.Join(marks, "ran-as-0")

	m := pythonManager(t, adapters.NewPython())
	ctx := context.Background()
	s := attachPaused(t, ctx, m, cmd, out)
	if _, serr := os.Stat(rootMark); serr == nil {
		t.Errorf("the venv's .pth ran as root during the attach")
	}
	if s == nil {
		return
	}
	if got := evalString(t, s, "tick(41)"); got != "42" {
		t.Errorf("tick(41) in the target = %s", got)
	}
	if st, err := proc.ReadStatus(s.Info().AdapterPID); err != nil || st.UID != uid {
		t.Errorf("debugpy's adapter runs as uid %d (%v), want %d", st.UID, err, uid)
	}
	t.Logf("attached as uid %d through %s", uid, s.Info().Interpreter.Injector)
	if err := m.CloseSession(ctx, s.ID()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(rootMark); err == nil {
		t.Errorf("the venv's .pth ran as root")
	}
	assertProgressing(t, cmd, out)
}

// A program started under `python -m debugpy --listen` runs debugpy's
// adapter without dbg's hook. Attached by port, dbg sets TCP_NODELAY on
// both ends of the adapter's connection to pydevd (read back from the
// adapter's table and, through evaluate, from pydevd's own socket), and
// on no other socket of the program.
func TestPythonAttachByPortSetsNoDelay(t *testing.T) {
	t.Parallel()
	py := onePython(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd, out := startTicker(t, exec.Command(py, "-m", "debugpy", "--listen", fmt.Sprintf("127.0.0.1:%d", port), testdata(t, "python/attach/listener.py")))
	m := pythonManager(t, adapters.NewPython())
	ctx := context.Background()
	s, res, err := m.Create(ctx, CreateRequest{Language: "python", Port: port})
	if err != nil {
		t.Fatal(err)
	}
	if res.State != StatePaused {
		t.Fatalf("attach: %+v", res)
	}
	adapter := listenerOwner(t, port)
	pydevdPort, _ := strconv.Atoi(evalString(t, s, `__import__("pydevd").get_global_debugger().writer.sock.getsockname()[1]`))
	waitUntil(t, 10*time.Second, func() bool { return evalString(t, s, nodelayExpr) == "1" })
	if v := adapterNoDelay(t, adapter, pydevdPort); v != 1 {
		t.Errorf("TCP_NODELAY on the adapter's end of its connection to pydevd: %d", v)
	}
	if v := evalString(t, s, `__import__("__main__").own_nodelay()`); v != "0" {
		t.Errorf("TCP_NODELAY on the program's own socket: %s, want it untouched", v)
	}
	if err := m.CloseSession(ctx, s.ID()); err != nil {
		t.Fatal(err)
	}
	assertProgressing(t, cmd, out)
}

// listenerOwner is the process that listens on the local port.
func listenerOwner(t *testing.T, port int) int {
	t.Helper()
	for _, sk := range proc.TCPSockets() {
		if sk.State == proc.TCPListen && int(sk.Local.Port()) == port {
			if o, ok := proc.SocketOwners(map[uint64]bool{sk.Inode: true})[sk.Inode]; ok {
				return o.PID
			}
		}
	}
	t.Fatalf("no process listens on port %d", port)
	return 0
}
