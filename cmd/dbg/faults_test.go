package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/cmd/internal/httpguard"
)

// Fault tests (docs/contract.md, "Non-functional targets"): each fault is met on real adapters, and each
// test checks three things: the tool answers within a deadline with a
// structured error (or the right state), the other sessions of the same
// server keep working, and no process of the faulted session is left
// after it closes.

// timedCall calls a tool and returns its envelope and how long it took.
// A protocol error (no envelope) fails the test.
func timedCall(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any, limit time.Duration) (obj, time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit+30*time.Second)
	defer cancel()
	start := time.Now()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	took := time.Since(start)
	t.Logf("%s answered in %s", name, took.Round(time.Millisecond))
	if err != nil {
		t.Fatalf("%s: protocol error after %s: %v", name, took, err)
	}
	if took > limit {
		t.Errorf("%s answered after %s, over its %s deadline", name, took, limit)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var env obj
	if err := json.Unmarshal(b, &env); err != nil {
		t.Fatalf("%s: bad envelope %s", name, b)
	}
	return env, took
}

// wantError checks that env is a structured error with code and, when
// retry is set, marked retryable.
func wantError(t *testing.T, what string, env obj, code string, retry bool) {
	t.Helper()
	if env.get("success") != false || env.str("error.code") != code || env.str("error.message") == "" {
		t.Fatalf("%s: want error %s, got %v", what, code, env)
	}
	if retry && env.get("error.retryable") != true {
		t.Fatalf("%s: error %s is not retryable: %v", what, code, env)
	}
}

// mockPaused creates a mock session paused at line 10 of loop.mock: the
// bystander whose health every fault test checks.
func mockPaused(t *testing.T, c *client) string {
	t.Helper()
	prog := fixture(t, "mock/loop.mock")
	id := c.ok("create_debug_session", map[string]any{"language": "mock"}).str("sessionId")
	c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 10})
	if st := c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog}); st.str("state") != "paused" {
		t.Fatalf("mock start: %v", st)
	}
	return id
}

// bystanderWorks steps the mock session and checks it answers at once.
func bystanderWorks(t *testing.T, c *client, id string) {
	t.Helper()
	env, _ := timedCall(t, c.cs, "step_over", map[string]any{"sessionId": id}, 5*time.Second)
	if env.get("success") != true || env.str("data.state") != "paused" {
		t.Errorf("the other session stopped working: %v", env) // not Fatal: also runs on other goroutines
	}
}

// pausedAt creates a session of lang paused at the BREAK line of prog.
func pausedAt(t *testing.T, c *client, lang, prog string) (string, obj) {
	t.Helper()
	id := c.ok("create_debug_session", map[string]any{"language": lang}).str("sessionId")
	c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": markedLineT(t, prog, "BREAK")})
	if st := c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog, "waitMs": 60000}); st.str("state") != "paused" {
		t.Fatalf("%s start: %v", lang, st)
	}
	return id, sessionInfo(t, c, id)
}

// sessionInfo is the list_debug_sessions entry of id.
func sessionInfo(t *testing.T, c *client, id string) obj {
	t.Helper()
	for _, s := range c.ok("list_debug_sessions", nil).list("sessions") {
		if s.str("sessionId") == id {
			return s
		}
	}
	t.Fatalf("session %s is not listed", id)
	return nil
}

// pidsOf is every process of a session that a test must see gone: the
// debuggee, the adapter and the adapter's descendants.
func pidsOf(info obj) []int {
	pids := []int{info.num("pid"), info.num("adapterPid")}
	if a := info.num("adapterPid"); a > 0 {
		pids = append(pids, childrenOf(a)...)
	}
	return pids
}

// The adapter stops answering (SIGSTOP on debugpy's adapter while
// paused): step and evaluate answer TIMEOUT, retryable, within their
// deadline (--request-timeout); closing the session while the adapter is
// still stopped ends every process of it.
func TestFaultAdapterStopped(t *testing.T) {
	requireDebugpy(t)
	c := startDbgWith(t, nil, []string{"--request-timeout", "5s"})
	other := mockPaused(t, c)
	id, info := pausedAt(t, c, "python", fixture(t, "python/loop.py"))
	adapter := info.num("adapterPid")
	if adapter == 0 {
		t.Fatalf("no adapter pid: %v", info)
	}
	pids := pidsOf(info)
	if err := syscall.Kill(adapter, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	defer syscall.Kill(adapter, syscall.SIGCONT)
	for _, call := range []struct {
		tool string
		args map[string]any
	}{
		{"step_over", map[string]any{"sessionId": id}},
		{"evaluate_expression", map[string]any{"sessionId": id, "expression": "total"}},
	} {
		// The other session answers while the call waits on the adapter.
		answered := make(chan struct{})
		go func() {
			defer close(answered)
			time.Sleep(time.Second)
			bystanderWorks(t, c, other)
		}()
		env, took := timedCall(t, c.cs, call.tool, call.args, 25*time.Second)
		wantError(t, call.tool+" on a stopped adapter", env, "TIMEOUT", true)
		if took < 5*time.Second {
			t.Errorf("%s answered TIMEOUT after %v, before the 5 s --request-timeout", call.tool, took)
		}
		<-answered
	}
	env, _ := timedCall(t, c.cs, "close_debug_session", map[string]any{"sessionId": id}, 15*time.Second)
	if env.get("success") != true {
		t.Fatalf("close with a stopped adapter: %v", env)
	}
	waitGone(t, 5*time.Second, pids...)
	bystanderWorks(t, c, other)
}

// The debuggee dies while paused at a breakpoint (SIGKILL of the Go
// program under delve, which then reports a stop and never the end): the
// session turns terminated with the reason, and list_debug_sessions says
// so.
func TestFaultDebuggeeKilledUnderDelve(t *testing.T) {
	requireDelve(t)
	c := startDbg(t)
	other := mockPaused(t, c)
	id, info := pausedAt(t, c, "go", fixture(t, "go/loop/main.go"))
	pids := pidsOf(info)
	if err := syscall.Kill(info.num("pid"), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	env, _ := timedCall(t, c.cs, "step_over", map[string]any{"sessionId": id}, 10*time.Second)
	if env.get("success") == true && env.str("data.state") != "terminated" {
		t.Fatalf("step_over on a dead debuggee: %v", env)
	}
	if env.get("success") != true {
		wantError(t, "step_over on a dead debuggee", env, "INVALID_STATE", false)
	}
	s := sessionInfo(t, c, id)
	if s.str("state") != "terminated" || !strings.Contains(s.str("reason"), "killed by SIGKILL") {
		t.Fatalf("list_debug_sessions after the debuggee died: %v", s)
	}
	env, _ = timedCall(t, c.cs, "evaluate_expression", map[string]any{"sessionId": id, "expression": "total"}, 5*time.Second)
	wantError(t, "evaluate_expression on a dead debuggee", env, "INVALID_STATE", false)
	env, _ = timedCall(t, c.cs, "continue_execution", map[string]any{"sessionId": id}, 5*time.Second)
	wantError(t, "continue_execution on a dead debuggee", env, "INVALID_STATE", false)
	bystanderWorks(t, c, other)
	c.ok("close_debug_session", map[string]any{"sessionId": id})
	waitGone(t, 5*time.Second, pids...)
}

// adapterOf waits for the debug adapter among the server's descendants:
// a process whose command line holds marker.
func adapterOf(t *testing.T, server int, marker string) int {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		for _, p := range childrenOf(server) {
			b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p))
			if strings.Contains(strings.ReplaceAll(string(b), "\x00", " "), marker) {
				return p
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no process with %q under the server", marker)
	return 0
}

// The adapter dies during launch (SIGKILL of debugpy's adapter once it
// has had dbg start its launcher, or once the program runs, while
// start_debugging waits for its breakpoint): the launch failed,
// ADAPTER_FAILED at once, the session ended, nothing of it left.
func TestFaultAdapterKilledDuringLaunch(t *testing.T) {
	requireDebugpy(t)
	c := startDbg(t)
	other := mockPaused(t, c)
	prog := fixture(t, "python/slow.py")
	for _, when := range []string{"launcher", "running"} {
		t.Run(when, func(t *testing.T) {
			id := c.ok("create_debug_session", map[string]any{"language": "python"}).str("sessionId")
			// A breakpoint after the long sleep: start_debugging waits for it.
			c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": markedLineT(t, prog, "SLOW") + 1})
			type answer struct {
				env obj
				at  time.Time
			}
			done := make(chan answer, 1)
			go func() {
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				defer cancel()
				res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "start_debugging", Arguments: map[string]any{"sessionId": id, "scriptPath": prog, "waitMs": 60000}})
				var env obj
				if err == nil {
					b, _ := json.Marshal(res.StructuredContent)
					_ = json.Unmarshal(b, &env)
				}
				done <- answer{env, time.Now()}
			}()
			adapter := adapterOf(t, c.cmd.Process.Pid, "-m debugpy.adapter")
			adapterOf(t, c.cmd.Process.Pid, "debugpy/launcher")
			if when == "running" {
				for deadline := time.Now().Add(30 * time.Second); sessionInfo(t, c, id).str("state") != "running"; time.Sleep(10 * time.Millisecond) {
					if time.Now().After(deadline) {
						t.Fatalf("the session never ran: %v", sessionInfo(t, c, id))
					}
				}
			}
			pids := append(childrenOf(adapter), adapter)
			killed := time.Now()
			if err := syscall.Kill(adapter, syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			var a answer
			select {
			case a = <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("start_debugging never answered after its adapter died")
			}
			if d := a.at.Sub(killed); d > 5*time.Second {
				t.Errorf("start_debugging answered %s after the adapter died", d)
			}
			switch {
			case a.env == nil:
				t.Fatal("start_debugging: no envelope")
			case a.env.get("success") != false || a.env.str("error.code") != "ADAPTER_FAILED" || !strings.Contains(a.env.str("error.message"), "adapter exited"):
				t.Fatalf("start_debugging after the adapter died: %v, want ADAPTER_FAILED", a.env)
			}
			if st := sessionInfo(t, c, id).str("state"); st != "terminated" && st != "error" {
				t.Fatalf("session after its adapter died in launch: %s", st)
			}
			bystanderWorks(t, c, other)
			c.ok("close_debug_session", map[string]any{"sessionId": id})
			waitGone(t, 5*time.Second, pids...)
		})
	}
}

// stdioServer is a `dbg mcp` whose pipes the test holds, so that it can
// drop them the way a crashed client does.
type stdioServer struct {
	cmd    *exec.Cmd
	cs     *mcp.ClientSession
	stdin  interface{ Close() error }
	stdout interface{ Close() error }
	exited chan struct{}
	stderr *lineBuffer
}

func startStdio(t *testing.T, env ...string) (*client, *stdioServer) {
	t.Helper()
	cmd := exec.Command(dbgBinary, "mcp")
	cmd.Env = append(append(os.Environ(), "DBG_STATE_DIR="+t.TempDir()), env...)
	errBuf := &lineBuffer{}
	cmd.Stderr = errBuf
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sv := &stdioServer{cmd: cmd, stdin: in, stdout: out, exited: make(chan struct{}), stderr: errBuf}
	go func() { _ = cmd.Wait(); close(sv.exited) }()
	t.Cleanup(func() {
		_ = in.Close()
		select {
		case <-sv.exited:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "faults", Version: "1"}, nil).Connect(ctx, &mcp.IOTransport{Reader: out, Writer: in}, nil)
	if err != nil {
		t.Fatalf("connect: %v; stderr: %s", err, errBuf.String())
	}
	sv.cs = cs
	return &client{t: t, cs: cs, cmd: cmd}, sv
}

// ticking waits until the target's output shows it runs again (two more
// ticks), and checks that no debugger holds it.
func ticking(t *testing.T, pid int, out *lineBuffer) {
	t.Helper()
	before := strings.Count(out.String(), "tick")
	deadline := time.Now().Add(10 * time.Second)
	for strings.Count(out.String(), "tick") <= before+1 {
		if time.Now().After(deadline) {
			t.Fatalf("the target %d is frozen; output: %s", pid, out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !processAlive(pid) {
		t.Fatalf("the target %d died", pid)
	}
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "TracerPid:"); ok && strings.TrimSpace(v) != "0" {
			t.Fatalf("the target %d is still traced by %s", pid, strings.TrimSpace(v))
		}
	}
}

// attachPaused attaches a session to a running target and checks it is
// paused.
func attachPaused(t *testing.T, c *client, lang string, pid int) string {
	t.Helper()
	s := c.ok("create_debug_session", map[string]any{"language": lang, "processId": pid})
	id := s.str("sessionId")
	if s.str("state") != "paused" {
		s = c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 20000})
	}
	if s.str("state") != "paused" {
		t.Fatalf("attach did not pause %d: %v", pid, s)
	}
	return id
}

// The MCP client of `dbg mcp` drops in the middle of a long
// wait_for_stop: the server ends the call, exits, and leaves nothing
// behind; the paused attach target is resumed and detached.
func TestFaultClientDropsStdio(t *testing.T) {
	requireDelve(t)
	requireDebugpy(t)
	tg := goServerTarget(t)
	target, out := tg.cmd, tg.out
	c, sv := startStdio(t)
	attachPaused(t, c, "go", target.Process.Pid)
	prog := fixture(t, "python/slow.py")
	running := c.ok("create_debug_session", map[string]any{"language": "python"}).str("sessionId")
	c.ok("start_debugging", map[string]any{"sessionId": running, "scriptPath": prog})
	pids := ownedPIDs(c, sv.cmd.Process.Pid, target.Process.Pid)
	go func() {
		_, _ = c.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "wait_for_stop", Arguments: map[string]any{"sessionId": running, "timeoutMs": 600000}})
	}()
	time.Sleep(500 * time.Millisecond) // the call is under way
	_ = sv.stdin.Close()
	_ = sv.stdout.Close()
	select {
	case <-sv.exited:
	case <-time.After(15 * time.Second):
		t.Fatalf("dbg mcp did not exit after its client dropped; stderr: %s", sv.stderr.String())
	}
	waitGone(t, 5*time.Second, pids...)
	ticking(t, target.Process.Pid, out)
}

// The MCP client of `dbg serve` drops in the middle of a long
// wait_for_stop: the server ends the call and goes on serving other
// clients; at SIGTERM the paused attach target is resumed and detached.
// Where no debugger can inject into a Python process here, the attach is
// the clean refusal, and the rest holds the same.
func TestFaultClientDropsHTTP(t *testing.T) {
	requireDebugpy(t)
	target, out := startTarget(t, "ready", "python3", fixture(t, "python/server.py"))
	state := t.TempDir()
	sv := runServe(t, state, t.TempDir())
	connect := func(ctx context.Context) *mcp.ClientSession {
		hc := httpClient(sv.token)
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "faults", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: sv.base + "/mcp", HTTPClient: hc, MaxRetries: -1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return cs
	}
	ctx, drop := context.WithCancel(context.Background())
	cs := connect(ctx)
	c := &client{t: t, cs: cs}
	if via, why := pythonPIDAttach(t, c); via != "" {
		attachPaused(t, c, "python", target.Process.Pid)
	} else {
		t.Logf("no injector works here: %s", why)
		r := c.fail("create_debug_session", map[string]any{"language": "python", "processId": target.Process.Pid}, "ATTACH_FAILED")
		if !strings.Contains(r.Error.Message, "untouched") {
			t.Errorf("refusal: %s", r.Error.Message)
		}
	}
	prog := fixture(t, "python/slow.py")
	running := c.ok("create_debug_session", map[string]any{"language": "python"}).str("sessionId")
	c.ok("start_debugging", map[string]any{"sessionId": running, "scriptPath": prog})
	ended := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "wait_for_stop", Arguments: map[string]any{"sessionId": running, "timeoutMs": 600000}})
		ended <- err
	}()
	time.Sleep(500 * time.Millisecond)
	drop() // the client's connection goes away mid-call
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		t.Fatal("the dropped call never ended on the client side")
	}
	// The server ends the call: it closes its side of the dropped
	// connections (none stays half-closed in CLOSE_WAIT).
	port := sv.base[strings.LastIndexByte(sv.base, ':')+1:]
	deadline := time.Now().Add(5 * time.Second)
	for n := halfClosed(t, port); n > 0; n = halfClosed(t, port) {
		if time.Now().After(deadline) {
			t.Fatalf("%d connections of dropped clients are still open on the server", n)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The server goes on: another client sees the sessions and the
	// running one still answers.
	cs2 := connect(context.Background())
	defer cs2.Close()
	c2 := &client{t: t, cs: cs2}
	env, _ := timedCall(t, cs2, "wait_for_stop", map[string]any{"sessionId": running, "timeoutMs": 100}, 5*time.Second)
	if env.get("success") != true {
		t.Fatalf("the session after its client dropped: %v", env)
	}
	pids := ownedPIDs(c2, sv.cmd.Process.Pid, target.Process.Pid)
	stopServer(t, sv.cmd)
	waitGone(t, 3*time.Second, pids...)
	ticking(t, target.Process.Pid, out)
}

// halfClosed counts the TCP connections on the local port (decimal) that
// the peer closed and the server did not (CLOSE_WAIT).
func halfClosed(t *testing.T, port string) int {
	t.Helper()
	var p int
	fmt.Sscan(port, &p)
	want := fmt.Sprintf(":%04X", p)
	n := 0
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		b, _ := os.ReadFile(f)
		for _, line := range strings.Split(string(b), "\n")[1:] {
			fs := strings.Fields(line)
			if len(fs) > 3 && strings.HasSuffix(fs[1], want) && fs[3] == "08" {
				n++
			}
		}
	}
	return n
}

// ownedPIDs is every process the server started: adapters, launched
// debuggees and the server's descendants, but not the attach target.
func ownedPIDs(c *client, server, target int) []int {
	var pids []int
	for _, s := range c.ok("list_debug_sessions", nil).list("sessions") {
		pids = append(pids, s.num("adapterPid"))
		if s.str("mode") == "launch" {
			pids = append(pids, s.num("pid"))
		}
	}
	for _, p := range childrenOf(server) {
		if p != target {
			pids = append(pids, p)
		}
	}
	return pids
}

// stopServer sends SIGTERM and fails unless the server exits within 10 s.
func stopServer(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	start := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	for processAlive(cmd.Process.Pid) {
		if time.Since(start) > 10*time.Second {
			t.Fatalf("the server outlived SIGTERM by 10 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("the server exited %s after SIGTERM", time.Since(start).Round(time.Millisecond))
}

// fourSessions makes the four live sessions of the SIGTERM tests: python
// and go, each paused and running. It returns their processes.
func fourSessions(t *testing.T, c *client, server int) []int {
	t.Helper()
	pausedAt(t, c, "python", fixture(t, "python/loop.py"))
	pausedAt(t, c, "go", fixture(t, "go/loop/main.go"))
	for _, r := range []struct{ lang, prog string }{{"python", "python/slow.py"}, {"go", "go/server/main.go"}} {
		id := c.ok("create_debug_session", map[string]any{"language": r.lang}).str("sessionId")
		if st := c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": fixture(t, r.prog)}); st.str("state") != "running" {
			t.Fatalf("%s running: %v", r.lang, st)
		}
	}
	var pids []int
	for _, s := range c.ok("list_debug_sessions", nil).list("sessions") {
		if s.str("state") != "paused" && s.str("state") != "running" {
			t.Fatalf("session %v", s)
		}
		pids = append(pids, pidsOf(s)...)
	}
	time.Sleep(300 * time.Millisecond) // the adapters' process trees settle
	return append(pids, childrenOf(server)...)
}

// `dbg mcp` and `dbg serve` get SIGTERM with four live sessions: they
// exit within 10 s, and everything they started is gone without waiting
// for a next start.
func TestFaultSIGTERMWithFourSessions(t *testing.T) {
	requireDebugpy(t)
	requireDelve(t)
	t.Run("mcp", func(t *testing.T) {
		c, sv := startStdio(t)
		pids := fourSessions(t, c, sv.cmd.Process.Pid)
		stopServer(t, sv.cmd)
		waitGone(t, time.Second, pids...)
	})
	t.Run("serve", func(t *testing.T) {
		sv := runServe(t, t.TempDir(), t.TempDir())
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "faults", Version: "1"}, nil).Connect(context.Background(),
			&mcp.StreamableClientTransport{Endpoint: sv.base + "/mcp", HTTPClient: httpClient(sv.token), MaxRetries: -1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		pids := fourSessions(t, &client{t: t, cs: cs}, sv.cmd.Process.Pid)
		stopServer(t, sv.cmd)
		waitGone(t, time.Second, pids...)
	})
}

// httpClient sends token with every request.
func httpClient(token string) *http.Client {
	return &http.Client{Transport: httpguard.BearerTransport{Token: token}}
}

// stateDirWorks checks a server whose state directory is unusable: it
// serves mock and python sessions, names the directory in a warning, and
// leaves nothing of them after close.
func stateDirWorks(t *testing.T, state string) {
	t.Helper()
	c, sv := startStdio(t, "DBG_STATE_DIR="+state)
	other := mockPaused(t, c)
	id, info := pausedAt(t, c, "python", fixture(t, "python/loop.py"))
	pids := pidsOf(info)
	if st := c.ok("step_over", map[string]any{"sessionId": id}); st.str("state") != "paused" {
		t.Fatalf("step with an unusable state directory: %v", st)
	}
	bystanderWorks(t, c, other)
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(sv.stderr.String(), state) {
		if time.Now().After(deadline) {
			t.Fatalf("no warning names the state directory %s; stderr: %s", state, sv.stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	c.ok("close_debug_session", map[string]any{"sessionId": id})
	waitGone(t, 5*time.Second, pids...)
	select {
	case <-sv.exited:
		t.Fatalf("the server died: %s", sv.stderr.String())
	default:
	}
}

// The state directory cannot be created (its parent is a file) or
// written (a full disk, a 1 MiB tmpfs where mounting is allowed):
// sessions still work, a warning names the directory, the server does not
// crash, and a later start with a good directory still reaps what a
// crashed server left.
func TestFaultStateDirUnusable(t *testing.T) {
	requireDebugpy(t)
	t.Run("parent is a file", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "file")
		if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		stateDirWorks(t, filepath.Join(file, "state"))
	})
	t.Run("serve names the directory", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "file")
		_ = os.WriteFile(file, nil, 0o600)
		state := filepath.Join(file, "state")
		cmd := exec.Command(dbgBinary, "serve", "--addr", "127.0.0.1:0", "--project", t.TempDir())
		cmd.Env = append(os.Environ(), "DBG_STATE_DIR="+state)
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), state) {
			t.Fatalf("serve with an unusable state directory: %v %s", err, out)
		}
	})
	t.Run("disk full", func(t *testing.T) {
		mnt := t.TempDir()
		if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", mnt).CombinedOutput(); err != nil {
			t.Skipf("cannot mount a tmpfs (%v: %s); the parent-is-a-file case stands for it", err, out)
		}
		t.Cleanup(func() { _ = exec.Command("umount", "-l", mnt).Run() })
		state := filepath.Join(mnt, "state")
		if err := os.MkdirAll(filepath.Join(state, "sessions"), 0o700); err != nil {
			t.Fatal(err)
		}
		fill, _ := os.Create(filepath.Join(mnt, "fill"))
		chunk := make([]byte, 64<<10)
		for {
			if _, err := fill.Write(chunk); err != nil {
				break
			}
		}
		fill.Close()
		stateDirWorks(t, state)
	})
	t.Run("a later good start reaps", func(t *testing.T) {
		// What a crashed server left: a process and its true record.
		good := t.TempDir()
		left := startSleep(t)
		writeRecord(t, good, "s1", left.Process.Pid, procStart(t, left.Process.Pid))
		file := filepath.Join(t.TempDir(), "file")
		_ = os.WriteFile(file, nil, 0o600)
		bad := startDbg(t, "DBG_STATE_DIR="+filepath.Join(file, "state"))
		bystanderWorks(t, bad, mockPaused(t, bad))
		if !processAlive(left.Process.Pid) {
			t.Fatal("a server with another state directory reaped")
		}
		again := startDbg(t, "DBG_STATE_DIR="+good)
		again.ok("list_debug_sessions", nil)
		waitGone(t, 5*time.Second, left.Process.Pid)
	})
}

// startSleep starts a `sleep` in a process group of its own, killed at
// the end of the test.
func startSleep(t *testing.T) *exec.Cmd {
	t.Helper()
	sleep := exec.Command("sleep", "300")
	sleep.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := sleep.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = sleep.Wait(); close(exited) }()
	t.Cleanup(func() { _ = sleep.Process.Kill(); <-exited })
	return sleep
}

// procStart is pid's start time as /proc/PID/stat gives it.
func procStart(t *testing.T, pid int) string {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	return strings.Fields(s[strings.LastIndexByte(s, ')')+1:])[19]
}

// writeRecord writes the process record a server that is gone would have
// left in state, naming pid with start time start, and returns its bytes.
func writeRecord(t *testing.T, state, key string, pid int, start string) []byte {
	t.Helper()
	dir := filepath.Join(state, "sessions")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	gone := exec.Command("true")
	_ = gone.Run() // a server pid that no longer runs
	boot, _ := os.ReadFile("/proc/sys/kernel/random/boot_id")
	rec := map[string]any{
		"boot":        strings.TrimSpace(string(boot)),
		"server":      map[string]any{"pid": gone.Process.Pid, "start": "1"},
		"session":     key,
		"processes":   []map[string]any{{"pid": pid, "start": start, "pgid": pid}},
		"killTargets": true,
	}
	b, _ := json.Marshal(rec)
	if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%d-%s.json", gone.Process.Pid, key)), b, 0o600); err != nil {
		t.Fatal(err)
	}
	return b
}

// A corrupted state file (truncated JSON; a record naming a reused pid,
// with another start time) is ignored with a warning and never kills an
// unrelated process.
func TestFaultCorruptedStateFile(t *testing.T) {
	state := t.TempDir()
	dir := filepath.Join(state, "sessions")
	sleep := startSleep(t)
	b := writeRecord(t, state, "s1", sleep.Process.Pid, "1")
	if err := os.WriteFile(filepath.Join(dir, "1-s2.json"), b[:len(b)/2], 0o600); err != nil {
		t.Fatal(err)
	}
	c, sv := startStdio(t, "DBG_STATE_DIR="+state)
	other := mockPaused(t, c)
	bystanderWorks(t, c, other)
	time.Sleep(200 * time.Millisecond)
	if !processAlive(sleep.Process.Pid) {
		t.Fatal("the server killed an unrelated process named by a record with another start time")
	}
	errs := sv.stderr.String()
	if !strings.Contains(errs, "corrupted process record") || !strings.Contains(errs, "pid was reused") {
		t.Fatalf("no warnings for the bad records; stderr: %s", errs)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("bad records left in %s: %v", dir, left)
	}
}
