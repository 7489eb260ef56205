package remote

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/proc"
	"github.com/dbg-dev/dbg/toolkit"
)

// localTarget runs the remote scripts on this machine, as a target
// whose files and processes are this machine's. path, when set, is the
// PATH the scripts get.
type localTarget struct {
	path string
}

func (l localTarget) tool() string { return "sh" }

func (l localTarget) exec(ctx context.Context, script string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "/bin/sh", append([]string{"-s", "--"}, args...)...)
	cmd.Stdin = strings.NewReader(script)
	if l.path != "" {
		cmd.Env = append(os.Environ(), "PATH="+l.path)
	}
	out, err := cmd.Output()
	return string(out), err
}

func (localTarget) forward(context.Context, string, int) (string, error) { return "", nil }
func (localTarget) fix(ptrace bool, install string) string               { return "fix: " + install }
func (localTarget) close(context.Context)                                {}

func TestParseScript(t *testing.T) {
	t.Parallel()
	out := "noise\ndbg-dir /tmp/dbg-Ab12Cd34\ndbg-dir relative/dbg-x\ndbg-helper 42 9001\ndbg-helper 43 notatime\ndbg-helper -1 5\n" +
		"dbg-port 7001\ndbg-port 99999\ndbg-command dlv dap --listen 127.0.0.1:0\ndbg-warn a warning\ndbg-exe /srv/app/bin\n" +
		"dbg-argv /srv/app/bin\x1f--flag\x1fa b\x1f\ndbg-env RUBY_DEBUG_PORT=12345\ndbg-uid 1000\r\n"
	r := parseScript(out)
	if r.port != 7001 || len(r.helpers) != 1 || r.helpers[0] != "42:9001" || len(r.dirs) != 1 || r.dirs[0] != "/tmp/dbg-Ab12Cd34" {
		t.Errorf("port %d, helpers %q, dirs %q", r.port, r.helpers, r.dirs)
	}
	if r.command != "dlv dap --listen 127.0.0.1:0" || r.exe != "/srv/app/bin" || r.uid != 1000 || r.env["RUBY_DEBUG_PORT"] != "12345" {
		t.Errorf("%+v", r)
	}
	if strings.Join(r.argv, "|") != "/srv/app/bin|--flag|a b" || len(r.warnings) != 1 {
		t.Errorf("argv %q warnings %q", r.argv, r.warnings)
	}
}

// FuzzParseScript: whatever a target writes, no panic, and what is kept
// is what teardown may act on: helpers as pid:starttime, folders made
// by mktemp's dbg- template.
func FuzzParseScript(f *testing.F) {
	f.Add("dbg-port 1\ndbg-helper 2 3\ndbg-dir /tmp/dbg-x\n")
	f.Add("dbg-argv a\x1fb\ndbg-env A=b=c\ndbg-missing gdb|apt-get install gdb\n")
	f.Fuzz(func(t *testing.T, out string) {
		r := parseScript(out)
		for _, h := range r.helpers {
			pid, st, ok := strings.Cut(h, ":")
			if n, err := strconv.Atoi(pid); !ok || err != nil || n <= 0 || !isDigits(st) {
				t.Fatalf("helper %q", h)
			}
		}
		for _, d := range r.dirs {
			if !strings.HasPrefix(d, "/") || !strings.Contains(d, "/dbg-") || strings.ContainsAny(d, "\n") {
				t.Fatalf("dir %q", d)
			}
		}
		if r.port < 0 || r.port > 65535 {
			t.Fatalf("port %d", r.port)
		}
	})
}

// restrictedPath is a PATH with the tools the scripts use and the given
// debug servers, and nothing else.
func restrictedPath(t *testing.T, servers ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range append([]string{"sh", "mktemp", "sed", "cut", "nohup", "tr", "grep", "tail", "sleep", "cat", "readlink", "head", "rm"}, servers...) {
		p, err := exec.LookPath(name)
		if err != nil {
			t.Skipf("no %s here", name)
		}
		if err := os.Symlink(p, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// sleeper is a process to attach to, killed at the test's end.
func sleeper(t *testing.T, env ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("sleep", "60")
	cmd.Env = append(os.Environ(), env...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return cmd
}

// TestNativeServerGdbserver: on a target without lldb-server, the
// native start runs gdbserver attached to the program on 127.0.0.1 and
// reads its port; the teardown stops it and removes its folder.
func TestNativeServerGdbserver(t *testing.T) {
	t.Parallel()
	tg := localTarget{path: restrictedPath(t, "gdbserver")}
	target := sleeper(t)
	a, _ := adapters.Default().Lookup("c")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st, _, err := startServer(ctx, tg, "c", a.Traits().Remote, target.Process.Pid, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(st.command, "gdbserver --attach 127.0.0.1:0 ") || len(st.helpers) != 1 || len(st.dirs) != 1 {
		t.Fatalf("%+v", st)
	}
	c, err := net.Dial("tcp", hostPort("127.0.0.1", st.port))
	if err != nil {
		t.Fatalf("gdbserver does not listen on 127.0.0.1:%d: %v", st.port, err)
	}
	c.Close() // gdbserver ends with its one connection, and lets the program go
	teardown(ctx, tg, st)
	pid, _ := strconv.Atoi(strings.Split(st.helpers[0], ":")[0])
	if proc.Alive(pid) {
		t.Error("gdbserver still runs after the teardown")
	}
	if _, err := os.Stat(st.dirs[0]); !os.IsNotExist(err) {
		t.Errorf("the script's folder is left: %v", err)
	}
	if err := syscall.Kill(target.Process.Pid, 0); err != nil {
		t.Error("the program did not survive")
	}
}

// TestServerMissing: a target with neither lldb-server nor gdbserver is
// told what to install, and nothing is left there.
func TestServerMissing(t *testing.T) {
	t.Parallel()
	tg := localTarget{path: restrictedPath(t)}
	target := sleeper(t)
	a, _ := adapters.Default().Lookup("c")
	st, _, err := startServer(context.Background(), tg, "c", a.Traits().Remote, target.Process.Pid, nil)
	if err == nil {
		t.Fatalf("a target without a debug server started %+v", st)
	}
	if te := toolkit.AsToolError(err); te == nil || !strings.Contains(te.Message, "the target has no lldb-server") || !strings.HasPrefix(te.Hint, "fix: install") {
		t.Errorf("without a debug server: %v", err)
	}
	if _, _, err := startServer(context.Background(), tg, "c", a.Traits().Remote, 1<<22, nil); err == nil || !strings.Contains(err.Error(), "no process") {
		t.Errorf("a pid that does not exist: %v", err)
	}
}

// TestDescribeScript reads a process's executable, folder, command line
// and the environment variables asked for.
func TestDescribeScript(t *testing.T) {
	t.Parallel()
	target := sleeper(t, "RUBY_DEBUG_PORT=4321", "OTHER=x")
	out, err := localTarget{}.exec(context.Background(), describeScript, strconv.Itoa(target.Process.Pid), "", "RUBY_DEBUG_PORT", "NODE_OPTIONS")
	if err != nil {
		t.Fatal(err)
	}
	r := parseScript(out)
	exe, _ := proc.Exe(target.Process.Pid)
	wd, _ := os.Getwd()
	if r.exe != exe || r.cwd != wd || strings.Join(r.argv, " ") != "sleep 60" || r.uid != os.Getuid() {
		t.Errorf("%+v", r)
	}
	if len(r.env) != 1 || r.env["RUBY_DEBUG_PORT"] != "4321" {
		t.Errorf("env %v", r.env)
	}
}

// TestListenScript waits for a port to listen, and gives up on one that
// does not within its time.
func TestListenScript(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	out, _ := localTarget{}.exec(context.Background(), listenScript, strconv.Itoa(port), "5", "0", "")
	if r := parseScript(out); r.port != port {
		t.Errorf("listening port %d: %q", port, out)
	}
	free, _ := freeLocalPort()
	start := time.Now()
	out, _ = localTarget{}.exec(context.Background(), listenScript, strconv.Itoa(free), "1", "0", "")
	if r := parseScript(out); r.fail == "" || time.Since(start) > 10*time.Second {
		t.Errorf("a port nobody listens on: %q after %s", out, time.Since(start))
	}
}

// TestTeardownScript stops a helper that is still the process started
// then, leaves one whose pid is now another process's, and removes only
// a folder the scripts made.
func TestTeardownScript(t *testing.T) {
	t.Parallel()
	helper, other := sleeper(t), sleeper(t)
	st, err := proc.ReadStat(helper.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp(t.TempDir(), "dbg-")
	if err != nil {
		t.Fatal(err)
	}
	keep := t.TempDir()
	h := strconv.Itoa(helper.Process.Pid) + ":" + strconv.FormatUint(st.StartTime, 10)
	o := strconv.Itoa(other.Process.Pid) + ":1" // not its start time
	for _, d := range []string{dir, keep} {
		out, err := localTarget{}.exec(context.Background(), teardownScript, d, h, o)
		if err != nil || !strings.Contains(out, "dbg-done") {
			t.Fatalf("%q %v", out, err)
		}
	}
	_ = helper.Wait()
	if syscall.Kill(other.Process.Pid, 0) != nil {
		t.Error("the teardown killed a process it did not start")
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Error("the script's folder is left")
	}
	if _, err := os.Stat(keep); err != nil {
		t.Error("the teardown removed a folder that is not dbg's")
	}
}

// TestPythonServerVerdict: the Python start checks once, with gdb on a
// throwaway process, that gdb can call into the target's interpreter,
// and says so as a verdict; given that verdict back, the next start on
// the same target trusts it and runs no gdb, while a verdict of another
// interpreter, boot or gdb is checked again. Each start has debugpy's
// adapter listening on the target's loopback.
func TestPythonServerVerdict(t *testing.T) {
	t.Parallel()
	// The interpreter itself, not a shim that runs it.
	out, err := exec.Command("python3", "-c", "import debugpy, sys; print(sys.executable)").Output()
	if err != nil {
		t.Fatalf("python3 has no debugpy (bash scripts/install-test-deps.sh installs it): %v", err)
	}
	py := strings.TrimSpace(string(out))
	path := restrictedPath(t, "stat", "mkdir")
	// gdb answers the probe's call as gdb does, and counts its runs.
	runs := filepath.Join(t.TempDir(), "runs")
	gdb := "#!/bin/sh\n[ \"$1\" = --version ] && { echo 'GNU gdb (test) 14.2'; exit 0; }\necho run >>" + runs + "\necho \"\\$1 = $4\"\n"
	if err := os.WriteFile(filepath.Join(path, "gdb"), []byte(gdb), 0o700); err != nil {
		t.Fatal(err)
	}
	tg := localTarget{path: path}
	target := exec.Command(py, "-c", "import time; time.sleep(60)")
	if err := target.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = target.Process.Kill(); _ = target.Wait() })
	a, _ := adapters.Default().Lookup("python")
	start := func(known []string) *started {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		st, desc, err := startServer(ctx, tg, "python", a.Traits().Remote, target.Process.Pid, known)
		if err != nil {
			t.Fatal(err)
		}
		defer teardown(ctx, tg, st)
		if desc.exe == "" || len(desc.argv) == 0 || desc.argv[0] != py {
			t.Errorf("the start described process %d as %+v", target.Process.Pid, desc)
		}
		c, err := net.Dial("tcp", hostPort("127.0.0.1", st.port))
		if err != nil {
			t.Fatalf("debugpy's adapter does not listen on 127.0.0.1:%d: %v", st.port, err)
		}
		c.Close()
		return st
	}
	count := func() int {
		b, _ := os.ReadFile(runs)
		return strings.Count(string(b), "run")
	}
	first := start(nil)
	if count() != 1 || len(first.verdicts) != 1 || !strings.HasPrefix(first.verdicts[0], "gdb-calls /") {
		t.Fatalf("the first start ran gdb %d times and said verdicts %q", count(), first.verdicts)
	}
	if again := start(first.verdicts); count() != 1 || len(again.verdicts) != 0 {
		t.Errorf("given its verdict, the start ran gdb %d times in all and said %q", count(), again.verdicts)
	}
	if other := start([]string{"gdb-calls /usr/bin/python0 1 boot GNU gdb 1"}); count() != 2 || len(other.verdicts) != 1 {
		t.Errorf("given another target's verdict, the start ran gdb %d times in all and said %q", count(), other.verdicts)
	}
}

// TestVerdictsPerTarget: the verdicts kept are per target, each once,
// the last 16.
func TestVerdictsPerTarget(t *testing.T) {
	t.Parallel()
	x := New(Config{})
	x.remember("ssh://a", []string{"v1", "v2", "v1", ""})
	if got := x.verdicts("ssh://a"); strings.Join(got, ",") != "v1,v2" || len(x.verdicts("ssh://b")) != 0 {
		t.Fatalf("verdicts %q, of another target %q", got, x.verdicts("ssh://b"))
	}
	for i := range 20 {
		x.remember("ssh://a", []string{strconv.Itoa(i)})
	}
	if got := x.verdicts("ssh://a"); len(got) != 16 || got[15] != "19" {
		t.Errorf("after 22 verdicts: %q", got)
	}
}
