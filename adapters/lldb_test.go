package adapters

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/dap"
)

// natClient drives one adapter the way the session manager does
// (DAPFLOW.md). Events are queued without blocking the read goroutine.
type natClient struct {
	t    *testing.T
	ep   *Endpoint
	conn *dap.Conn

	mu     sync.Mutex
	events []*dap.Message // not yet consumed by waitEvent
	all    []*dap.Message // every event
	notify chan struct{}
	output strings.Builder
}

// natRepoFile returns an absolute path under the repository root.
func natRepoFile(t *testing.T, rel string) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	p := filepath.Join(filepath.Dir(file), "..", rel)
	abs, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// natLineOf returns the 1-based line of the first line containing marker.
func natLineOf(t *testing.T, path, marker string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, marker) {
			return i + 1
		}
	}
	t.Fatalf("%s: no line contains %q", path, marker)
	return 0
}

// natStart starts a and connects a client; everything stops at cleanup,
// and the adapter's process group must be gone afterwards.
func natStart(t *testing.T, a Adapter, target Target) *natClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ep, err := a.Start(ctx, target)
	if err != nil {
		t.Fatalf("start %s: %v", a.Language(), err)
	}
	c := &natClient{t: t, ep: ep, notify: make(chan struct{}, 1)}
	c.conn = dap.NewConn(ep.Conn, dap.Options{OnEvent: c.onEvent, Timeout: 30 * time.Second})
	t.Cleanup(func() { c.close() })
	return c
}

// natLaunch builds a's launch arguments for target (a build may take up
// to 5 minutes), then starts a as natStart does.
func natLaunch(t *testing.T, a Adapter, target Target) (*natClient, map[string]any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	args, err := a.LaunchArgs(ctx, target)
	if err != nil {
		t.Fatalf("launch args: %v", err)
	}
	return natStart(t, a, target), args
}

// natBreakAt launches target under a with a breakpoint at line of src
// and returns the client with the first stop and its top frame, which
// must be that breakpoint.
func natBreakAt(t *testing.T, a Adapter, target Target, src string, line int) (*natClient, natStopped, natFrame) {
	t.Helper()
	c, args := natLaunch(t, a, target)
	c.begin("launch", args, map[string][]int{src: {line}})
	st := c.stopped(30 * time.Second)
	f := c.topFrame(st.ThreadID)
	if st.Reason != "breakpoint" || f.Line != line || f.Source.Path != src {
		t.Fatalf("stopped (%s) at %s:%d, want a breakpoint at %s:%d", st.Reason, f.Source.Path, f.Line, src, line)
	}
	return c, st, f
}

// natAttach starts a as natStart does and attaches to target: the
// initialize, attach and configuration handshake of begin, without
// breakpoints.
func natAttach(t *testing.T, a Adapter, target Target) *natClient {
	t.Helper()
	args, err := a.AttachArgs(context.Background(), target)
	if err != nil {
		t.Fatal(err)
	}
	c := natStart(t, a, target)
	c.begin("attach", args, nil)
	return c
}

// close disconnects, closes the endpoint, and checks that the adapter's
// process group is gone.
func (c *natClient) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	pgid := 0
	if c.ep.Process != nil {
		pgid = c.ep.Process.Pid()
	}
	_ = c.conn.Close()
	c.ep.Close(ctx)
	if pgid != 0 {
		natWaitGone(c.t, -pgid)
	}
}

// natWaitGone fails the test unless pid (negative: a process group) is
// gone within five seconds.
func natWaitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		err := syscall.Kill(pid, 0)
		if errors.Is(err, syscall.ESRCH) {
			return
		}
		if pid > 0 && natIsZombie(pid) {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("process (group) %d still alive after close", pid)
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func natIsZombie(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return true
	}
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] == 'Z'
	}
	return false
}

func (c *natClient) onEvent(m *dap.Message) {
	c.mu.Lock()
	c.events = append(c.events, m)
	c.all = append(c.all, m)
	if m.Event == "output" {
		var body struct {
			Category string `json:"category"`
			Output   string `json:"output"`
		}
		_ = m.DecodeBody(&body)
		if body.Category == "stdout" || body.Category == "" {
			c.output.WriteString(body.Output)
		}
	}
	c.mu.Unlock()
	select {
	case c.notify <- struct{}{}:
	default:
	}
}

// debuggeePID returns the systemProcessId of the "process" event, or 0.
func (c *natClient) debuggeePID() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, m := range c.all {
		if m.Event == "process" {
			var body struct {
				PID int `json:"systemProcessId"`
			}
			_ = m.DecodeBody(&body)
			return body.PID
		}
	}
	return 0
}

// outputLines returns the output events seen so far whose text holds
// substr, trimmed of surrounding space.
func (c *natClient) outputLines(substr string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var lines []string
	for _, m := range c.all {
		if m.Event == "output" && strings.Contains(string(m.Body), substr) {
			var body struct {
				Output string `json:"output"`
			}
			_ = m.DecodeBody(&body)
			lines = append(lines, strings.TrimSpace(body.Output))
		}
	}
	return lines
}

// Output returns the debuggee stdout seen so far.
func (c *natClient) Output() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.output.String()
}

// req sends a request and fails the test on error.
func (c *natClient) req(command string, args any) *dap.Message {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	m, err := c.conn.Request(ctx, command, args)
	if err != nil {
		c.t.Fatalf("%s: %v", command, err)
	}
	return m
}

// waitEvent consumes events until one named name arrives (and satisfies
// match, when given). Earlier events stay consumed.
func (c *natClient) waitEvent(name string, d time.Duration, match func(*dap.Message) bool) *dap.Message {
	c.t.Helper()
	m, err := c.tryEvent(name, d, match)
	if err != nil {
		c.t.Fatal(err)
	}
	return m
}

func (c *natClient) tryEvent(name string, d time.Duration, match func(*dap.Message) bool) (*dap.Message, error) {
	timer := time.NewTimer(d)
	defer timer.Stop()
	for {
		c.mu.Lock()
		for len(c.events) > 0 {
			m := c.events[0]
			c.events = c.events[1:]
			if m.Event == name && (match == nil || match(m)) {
				c.mu.Unlock()
				return m, nil
			}
		}
		c.mu.Unlock()
		select {
		case <-c.notify:
		case <-c.conn.Done():
			// drain what arrived before the close
			c.mu.Lock()
			n := len(c.events)
			c.mu.Unlock()
			if n == 0 {
				return nil, errors.New("connection closed while waiting for " + name)
			}
		case <-timer.C:
			return nil, errors.New("timed out waiting for event " + name)
		}
	}
}

// natStopped is the body of a stopped event.
type natStopped struct {
	Reason      string `json:"reason"`
	ThreadID    int    `json:"threadId"`
	Description string `json:"description"`
	Text        string `json:"text"`
}

// open runs initialize, starts command (launch or attach, not awaited)
// and waits for initialized. It returns the call and the initialize
// response, whose body holds the capabilities.
func (c *natClient) open(command string, args map[string]any) (*dap.Call, *dap.Message) {
	c.t.Helper()
	init := c.req("initialize", map[string]any{
		"clientID": "dbg", "adapterID": "dbg", "linesStartAt1": true, "columnsStartAt1": true,
		"pathFormat": "path", "supportsVariableType": true, "supportsRunInTerminalRequest": false,
		"supportsStartDebuggingRequest": true,
	})
	call, err := c.conn.Start(context.Background(), command, args)
	if err != nil {
		c.t.Fatal(err)
	}
	c.waitEvent("initialized", 30*time.Second, nil)
	return call, init
}

// configured sends configurationDone and waits up to d for call (the
// launch or attach) to be answered.
func (c *natClient) configured(call *dap.Call, d time.Duration) {
	c.t.Helper()
	c.req("configurationDone", nil)
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	if _, err := call.Wait(ctx, d); err != nil {
		c.t.Fatalf("%s: %v", call.Command, err)
	}
}

// begin runs open, setBreakpoints and configured, and returns the launch
// or attach call.
func (c *natClient) begin(command string, args map[string]any, bps map[string][]int) *dap.Call {
	c.t.Helper()
	call, _ := c.open(command, args)
	for file, lines := range bps {
		var list []map[string]any
		for _, l := range lines {
			list = append(list, map[string]any{"line": l})
		}
		resp := c.req("setBreakpoints", map[string]any{"source": map[string]any{"path": file}, "breakpoints": list})
		var body struct {
			Breakpoints []struct {
				Verified bool `json:"verified"`
				Line     int  `json:"line"`
			} `json:"breakpoints"`
		}
		_ = resp.DecodeBody(&body)
		if len(body.Breakpoints) != len(lines) {
			c.t.Fatalf("setBreakpoints answered %d breakpoints, want %d: %s", len(body.Breakpoints), len(lines), resp.Body)
		}
	}
	c.configured(call, 60*time.Second)
	return call
}

// stopped waits for a stopped event.
func (c *natClient) stopped(d time.Duration) natStopped {
	c.t.Helper()
	m := c.waitEvent("stopped", d, nil)
	var s natStopped
	_ = m.DecodeBody(&s)
	return s
}

// natFrame is a stack frame.
type natFrame struct {
	ID     int    `json:"id"`
	Name   string `json:"name"`
	Line   int    `json:"line"`
	Source struct {
		Path string `json:"path"`
	} `json:"source"`
}

func (c *natClient) topFrame(thread int) natFrame {
	c.t.Helper()
	resp := c.req("stackTrace", map[string]any{"threadId": thread, "startFrame": 0, "levels": 20})
	var body struct {
		StackFrames []natFrame `json:"stackFrames"`
	}
	_ = resp.DecodeBody(&body)
	if len(body.StackFrames) == 0 {
		c.t.Fatalf("empty stack: %s", resp.Body)
	}
	return body.StackFrames[0]
}

// natVar is a variable.
type natVar struct {
	Name               string `json:"name"`
	Value              string `json:"value"`
	Type               string `json:"type"`
	VariablesReference int    `json:"variablesReference"`
}

// locals returns the first scope's variables of frame.
func (c *natClient) locals(frame int) map[string]natVar {
	c.t.Helper()
	resp := c.req("scopes", map[string]any{"frameId": frame})
	var sc struct {
		Scopes []struct {
			Name               string `json:"name"`
			VariablesReference int    `json:"variablesReference"`
		} `json:"scopes"`
	}
	_ = resp.DecodeBody(&sc)
	if len(sc.Scopes) == 0 {
		c.t.Fatalf("no scopes: %s", resp.Body)
	}
	return c.vars(sc.Scopes[0].VariablesReference)
}

func (c *natClient) vars(ref int) map[string]natVar {
	c.t.Helper()
	resp := c.req("variables", map[string]any{"variablesReference": ref})
	var body struct {
		Variables []natVar `json:"variables"`
	}
	_ = resp.DecodeBody(&body)
	out := map[string]natVar{}
	for _, v := range body.Variables {
		out[v.Name] = v
	}
	return out
}

func (c *natClient) evaluate(expr string, frame int) string {
	c.t.Helper()
	resp := c.req("evaluate", map[string]any{"expression": expr, "frameId": frame, "context": "watch"})
	var body struct {
		Result string `json:"result"`
	}
	_ = resp.DecodeBody(&body)
	return body.Result
}

// runToEnd continues until the program exits and returns its exit code.
func (c *natClient) runToEnd(thread int, src string) int {
	c.t.Helper()
	c.req("setBreakpoints", map[string]any{"source": map[string]any{"path": src}, "breakpoints": []any{}})
	c.req("continue", map[string]any{"threadId": thread})
	m := c.waitEvent("exited", 30*time.Second, nil)
	var body struct {
		ExitCode int `json:"exitCode"`
	}
	_ = m.DecodeBody(&body)
	return body.ExitCode
}

func natNeed(t *testing.T, a Adapter) {
	t.Helper()
	if info := a.Find(context.Background()); !info.Found {
		t.Skipf("%s adapter not installed (scripts/deps/native.sh installs it): %s", a.Language(), info.Note)
	}
}

// natLaunchScenario launches program, stops at the marked loop line,
// checks locals with check, steps, evaluates, and runs to the end.
func natLaunchScenario(t *testing.T, a Adapter, program, src, marker string, check func(c *natClient, frame natFrame)) {
	natNeed(t, a)
	line := natLineOf(t, src, marker)
	c, st, f := natBreakAt(t, a, Target{Mode: Launch, Program: program}, src, line)
	check(c, f)
	if got := c.evaluate("total + 1", f.ID); got != "1" {
		t.Errorf("evaluate total + 1 = %q, want 1", got)
	}
	c.req("next", map[string]any{"threadId": st.ThreadID})
	st2 := c.stopped(30 * time.Second)
	if st2.Reason != "step" {
		t.Errorf("step stop reason %q", st2.Reason)
	}
	f2 := c.topFrame(st2.ThreadID)
	if f2.Line == line {
		t.Errorf("step did not change the line (%d)", f2.Line)
	}
	if code := c.runToEnd(st.ThreadID, src); code != 0 {
		t.Errorf("exit code %d", code)
	}
	c.waitEvent("terminated", 15*time.Second, nil)
	if out := c.Output(); !strings.Contains(out, "done total=") {
		t.Errorf("program output %q lacks the final line", out)
	}
}

func TestNativeCLaunch(t *testing.T) {
	t.Parallel()
	src := natRepoFile(t, "testdata/c/loop.c")
	natLaunchScenario(t, NewC(), src, src, "BREAK", func(c *natClient, f natFrame) {
		l := c.locals(f.ID)
		if l["total"].Value != "0" || l["i"].Value != "0" {
			t.Errorf("locals total=%q i=%q, want 0 0", l["total"].Value, l["i"].Value)
		}
	})
}

// natSpin starts a fixture binary that runs until killed, in its own
// process group, killed at cleanup.
func natSpin(t *testing.T, bin string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(bin, "forever")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	})
	return cmd
}

// natAttachScenario attaches to a running fixture by pid, checks a
// thread, detaches, and checks the program keeps running.
func natAttachScenario(t *testing.T, a Adapter, program string) {
	natNeed(t, a)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	bin, _, err := BuildNative(ctx, a.Language(), program, "")
	if err != nil {
		t.Fatal(err)
	}
	natAttachBinary(t, a, bin, Target{Mode: Attach, Cwd: program})
}

// natAttachBinary runs bin until killed and attaches to it with target
// (its PID filled in).
func natAttachBinary(t *testing.T, a Adapter, bin string, target Target) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := natSpin(t, bin)
	time.Sleep(200 * time.Millisecond)
	target.PID = cmd.Process.Pid
	args, err := a.AttachArgs(ctx, target)
	if err != nil {
		t.Fatal(err)
	}
	if args["pid"] != cmd.Process.Pid {
		t.Fatalf("attach args %v lack pid", args)
	}
	c := natStart(t, a, target)
	c.begin("attach", args, nil)
	resp := c.req("threads", nil)
	var body struct {
		Threads []struct {
			ID int `json:"id"`
		} `json:"threads"`
	}
	_ = resp.DecodeBody(&body)
	if len(body.Threads) == 0 {
		t.Fatalf("no threads after attach: %s", resp.Body)
	}
	c.req("disconnect", map[string]any{"terminateDebuggee": false})
	c.close()
	// The program still runs: it is not stopped and its output grows.
	time.Sleep(300 * time.Millisecond)
	if err := syscall.Kill(cmd.Process.Pid, 0); err != nil || natIsZombie(cmd.Process.Pid) {
		t.Fatalf("program died after detach: %v", err)
	}
	f := cmd.Stdout.(*os.File)
	st1, _ := f.Stat()
	deadline := time.Now().Add(5 * time.Second)
	for {
		time.Sleep(100 * time.Millisecond)
		st2, _ := f.Stat()
		if st2.Size() > st1.Size() {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("program output did not grow in 5s after detach (%d bytes): stopped?", st2.Size())
		}
	}
}

func TestNativeCAttach(t *testing.T) {
	t.Parallel()
	natAttachScenario(t, NewC(), natRepoFile(t, "testdata/c/loop.c"))
}

func TestNativeBuildError(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("cc not installed")
	}
	src := natRepoFile(t, "testdata/c/broken.c")
	_, _, err := BuildNative(context.Background(), "c", src, "")
	var be *NativeBuildError
	if !errors.As(err, &be) {
		t.Fatalf("error %v, want a build error", err)
	}
	if !strings.Contains(err.Error(), "undeclared_name") || !strings.Contains(err.Error(), "broken.c:3") {
		t.Errorf("build error lacks the compiler message: %v", err)
	}
	natNeed(t, NewC())
	if _, err := NewC().LaunchArgs(context.Background(), Target{Mode: Launch, Program: src}); err == nil || !strings.Contains(err.Error(), "undeclared_name") {
		t.Errorf("LaunchArgs error %v lacks the compiler message", err)
	}
}

// natWantMissing checks an adapter whose outside tool is not on PATH:
// Find does not find it and names `dbg adapters install <language>`, and
// Start of target fails with a NotFoundError naming the same command.
func natWantMissing(t *testing.T, a Adapter, target Target) {
	t.Helper()
	info := a.Find(context.Background())
	if info.Found {
		t.Fatalf("%s found with its tool off PATH", a.Language())
	}
	want := "dbg adapters install " + a.Language()
	if !strings.Contains(info.Note, want) || info.InstallCommand != want {
		t.Errorf("info %+v does not name %q", info, want)
	}
	_, err := a.Start(context.Background(), target)
	var nf *NotFoundError
	if !errors.As(err, &nf) || nf.Install != want || !strings.Contains(err.Error(), want) {
		t.Errorf("Start error %v is not a NotFoundError naming %q", err, want)
	}
}

func TestNativeMissingAdapter(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	for _, a := range []*Native{NewC(), NewCPP(), NewRust()} {
		natWantMissing(t, a, Target{Mode: Launch, Program: "/bin/true"})
		// Arguments still build without an adapter: Start reports it.
		if _, err := a.LaunchArgs(context.Background(), Target{Mode: Launch, Program: "/bin/true"}); err != nil {
			t.Errorf("LaunchArgs without an adapter: %v", err)
		}
	}
}

func TestNativeDiscoveryPrefersNewest(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"lldb-vscode-14", "lldb-vscode-16", "lldb-dap-15", "lldb-vscode", "gdb", "notlldb-dap"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir)
	t.Setenv(LLDBEnv, "")
	d, err := NewC().findDebugger(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	if d.name != "lldb-vscode-16" || d.kind != kindLLDBDAP {
		t.Errorf("found %+v, want lldb-vscode-16", d)
	}
	if err := os.WriteFile(filepath.Join(dir, "lldb-dap-16"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if d, _ := NewC().findDebugger(context.Background(), ""); d.name != "lldb-dap-16" {
		t.Errorf("found %s, want lldb-dap-16 (same version, newer name)", d.name)
	}
}

func TestNativeDiscoveryGDBFallback(t *testing.T) {
	dir := t.TempDir()
	write := func(version string) {
		script := "#!/bin/sh\necho 'GNU gdb (GDB) " + version + "'\n"
		if err := os.WriteFile(filepath.Join(dir, "gdb"), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir)
	write("13.1")
	if _, err := NewC().findDebugger(context.Background(), ""); err == nil {
		t.Error("gdb 13 accepted; DAP needs gdb 14")
	}
	write("14.2")
	d, err := NewC().findDebugger(context.Background(), "")
	if err != nil || d.kind != kindGDB {
		t.Fatalf("gdb 14 not used: %+v %v", d, err)
	}
	args, err := NewC().AttachArgs(context.Background(), Target{Mode: Attach, PID: 42})
	if err != nil || args["pid"] != 42 || args["type"] != "gdb" {
		t.Errorf("gdb attach args %v %v", args, err)
	}
}

func TestNativeLaunchArgs(t *testing.T) {
	t.Parallel()
	natNeed(t, NewC())
	args, err := NewC().LaunchArgs(context.Background(), Target{
		Mode: Launch, Program: "/bin/true", Args: []string{"a"}, Env: map[string]string{"B": "2", "A": "1"},
		Extra: map[string]any{"stopOnEntry": true},
	})
	if err != nil {
		t.Fatal(err)
	}
	if args["program"] != "/bin/true" || args["cwd"] != "/bin" || args["stopOnEntry"] != true {
		t.Errorf("args %v", args)
	}
	if env, _ := args["env"].([]string); len(env) != 2 || env[0] != "A=1" {
		t.Errorf("env %v, want sorted K=V list", args["env"])
	}
	if _, err := NewC().LaunchArgs(context.Background(), Target{Mode: Launch, Program: "/usr/lib/os-release"}); err == nil {
		t.Error("a non-executable, non-source file was accepted")
	}
	if _, err := NewC().AttachArgs(context.Background(), Target{Mode: Attach}); err == nil {
		t.Error("attach without pid accepted")
	}
}

// TestNativeCloseKillsDebuggee closes the endpoint while the debuggee is
// stopped at a breakpoint: the debuggee must not outlive the session.
func TestNativeCloseKillsDebuggee(t *testing.T) {
	t.Parallel()
	a := NewC()
	natNeed(t, a)
	src := natRepoFile(t, "testdata/c/loop.c")
	c, _, _ := natBreakAt(t, a, Target{Mode: Launch, Program: src, Args: []string{"forever"}}, src, natLineOf(t, src, "BREAK"))
	pid := c.debuggeePID()
	if pid <= 0 {
		t.Fatal("no process event with systemProcessId")
	}
	c.close()
	natWaitGone(t, pid)
}

func TestNativeCPPLaunch(t *testing.T) {
	t.Parallel()
	src := natRepoFile(t, "testdata/cpp/loop.cpp")
	natLaunchScenario(t, NewCPP(), src, src, "BREAK", func(c *natClient, f natFrame) {
		l := c.locals(f.ID)
		if l["total"].Value != "0" || l["i"].Value != "0" {
			t.Errorf("locals total=%q i=%q, want 0 0", l["total"].Value, l["i"].Value)
		}
		if !strings.Contains(l["label"].Value, `"sum"`) {
			t.Errorf("label = %q, want the string \"sum\"", l["label"].Value)
		}
		if !strings.Contains(l["seen"].Value, "size=0") {
			t.Errorf("seen = %q, want an empty vector", l["seen"].Value)
		}
	})
}

func TestNativeCPPAttach(t *testing.T) {
	t.Parallel()
	natAttachScenario(t, NewCPP(), natRepoFile(t, "testdata/cpp/loop.cpp"))
}

func TestNativeRustLaunch(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("cargo"); err != nil {
		t.Skip("cargo not installed")
	}
	dir := natRepoFile(t, "testdata/rust")
	src := filepath.Join(dir, "src", "main.rs")
	natLaunchScenario(t, NewRust(), dir, src, "BREAK", func(c *natClient, f natFrame) {
		l := c.locals(f.ID)
		t.Logf("rust locals: %+v", l)
		if l["total"].Value != "0" || l["i"].Value != "0" {
			t.Errorf("locals total=%q i=%q, want 0 0", l["total"].Value, l["i"].Value)
		}
		if l["name"].Value != `"hello"` {
			t.Errorf("name = %q, want \"hello\" (String pretty-printer)", l["name"].Value)
		}
		if !strings.Contains(l["items"].Value, "size=3") {
			t.Errorf("items = %q, want a Vec of size 3", l["items"].Value)
		}
		items := c.vars(l["items"].VariablesReference)
		if items["[0]"].Value != "10" || items["[2]"].Value != "30" {
			t.Errorf("items elements %+v, want [10 20 30]", items)
		}
		p := c.vars(l["p"].VariablesReference)
		if p["x"].Value != "3" || p["y"].Value != "4" {
			t.Errorf("p = %+v, want x=3 y=4", p)
		}
	})
}

func TestNativeRustAttach(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("cargo"); err != nil {
		t.Skip("cargo not installed")
	}
	natAttachScenario(t, NewRust(), natRepoFile(t, "testdata/rust"))
}

func TestNativeStopOnEntry(t *testing.T) {
	t.Parallel()
	a := NewC()
	natNeed(t, a)
	src := natRepoFile(t, "testdata/c/loop.c")
	target := Target{Mode: Launch, Program: src, StopOnEntry: true}
	c, args := natLaunch(t, a, target)
	c.begin("launch", args, nil)
	st := c.stopped(30 * time.Second)
	t.Logf("entry stop: %+v", st)
	if got := a.StopReason(st.Reason); got != "entry" {
		t.Fatalf("stop reason %q (mapped %q), want entry", st.Reason, got)
	}
	if c.Output() != "" {
		t.Errorf("program ran before the entry stop: %q", c.Output())
	}
	c.req("continue", map[string]any{"threadId": st.ThreadID})
	c.waitEvent("exited", 30*time.Second, nil)
	if !strings.Contains(c.Output(), "done total=30") {
		t.Errorf("output %q", c.Output())
	}
}

func TestNativeFindAndInstall(t *testing.T) {
	t.Parallel()
	for _, a := range []interface {
		Adapter
		Installer
	}{NewC(), NewCPP(), NewRust(), NewRuby(), NewCOBOL()} {
		cmds := a.InstallCommands()
		if len(cmds) == 0 {
			t.Errorf("%s: no install commands", a.Language())
		}
		for _, c := range cmds {
			if c[0] == "apt-get" && c[1] == "install" {
				for _, p := range c[2:] {
					if !strings.HasPrefix(p, "-") && !strings.Contains(p, "=") {
						t.Errorf("%s: package %s not pinned", a.Language(), p)
					}
				}
			}
		}
	}
	info := NewC().Find(context.Background())
	if !info.Found {
		t.Skipf("no lldb adapter: %s", info.Note)
	}
	if info.Path == "" || info.Version == "" || !info.Launch || !info.AttachPID || info.AttachPort {
		t.Errorf("info %+v", info)
	}
	t.Logf("c adapter: %s %s at %s", info.Adapter, info.Version, info.Path)
}

func TestNativeBuildRust(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("cargo"); err != nil {
		t.Skip("cargo not installed")
	}
	dir := t.TempDir()
	rs := filepath.Join(dir, "one.rs")
	if err := os.WriteFile(rs, []byte("fn main() { println!(\"one file\"); }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	bin, srcDir, err := BuildNative(ctx, "rust", rs, "")
	if err != nil || srcDir != dir {
		t.Fatalf("build %s: %v (dir %s)", rs, err, srcDir)
	}
	if out, err := exec.Command(bin).Output(); err != nil || string(out) != "one file\n" {
		t.Errorf("built program printed %q, %v", out, err)
	}
	// A Cargo project that does not compile: the error carries rustc's message.
	proj := filepath.Join(dir, "bad")
	if err := os.MkdirAll(filepath.Join(proj, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	_ = os.WriteFile(filepath.Join(proj, "Cargo.toml"), []byte("[package]\nname = \"bad\"\nversion = \"0.1.0\"\nedition = \"2021\"\n"), 0o644)
	_ = os.WriteFile(filepath.Join(proj, "src", "main.rs"), []byte("fn main() { let x: i32 = \"no\"; }\n"), 0o644)
	_, _, err = BuildNative(ctx, "rust", proj, "")
	var be *NativeBuildError
	if !errors.As(err, &be) || !strings.Contains(err.Error(), "mismatched types") {
		t.Errorf("cargo error %v lacks rustc's message", err)
	}
}

func TestNativeBuildRustFileOfCargoProject(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("cargo"); err != nil {
		t.Skip("cargo not installed")
	}
	dir := natRepoFile(t, "testdata/rust")
	bin, srcDir, err := BuildNative(context.Background(), "rust", filepath.Join(dir, "src", "main.rs"), "")
	if err != nil {
		t.Fatal(err)
	}
	if srcDir != dir || filepath.Base(bin) != "dbgfixture" || !strings.HasPrefix(bin, filepath.Join(dir, "target")) {
		t.Errorf("built %s (dir %s), want the Cargo project's target/…/dbgfixture", bin, srcDir)
	}
}

// TestNativeAttachThenPause pauses right after an attach, as the session
// manager does: lldb drops a pause that arrives before it has resumed
// the process, and the adapter must still deliver one stop, as "pause".
func TestNativeAttachThenPause(t *testing.T) {
	t.Parallel()
	a := NewC()
	natNeed(t, a)
	bin, _, err := BuildNative(context.Background(), "c", natRepoFile(t, "testdata/c/loop.c"), "")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		cmd := natSpin(t, bin)
		time.Sleep(100 * time.Millisecond)
		target := Target{Mode: Attach, PID: cmd.Process.Pid}
		c := natAttach(t, a, target)
		c.req("pause", map[string]any{"threadId": cmd.Process.Pid})
		st := c.stopped(10 * time.Second)
		if st.Reason != "pause" {
			t.Errorf("stop reason %q (%s), want pause", st.Reason, st.Description)
		}
		if _, err := c.tryEvent("stopped", time.Second, nil); err == nil {
			t.Error("a second stop after one pause")
		}
		c.req("disconnect", map[string]any{"terminateDebuggee": false})
		c.close()
	}
}

// natExceptionScenario launches target, turns on the adapter's filters of
// mode "uncaught", and expects an exception stop with a frame at
// src:line; then the program runs to its end with exit code wantExit.
func natExceptionScenario(t *testing.T, a Adapter, target Target, src string, line, wantExit int) {
	t.Helper()
	filters := a.ExceptionFilters("uncaught")
	if len(filters) == 0 {
		t.Fatalf("%s has no uncaught-exception filter", a.Language())
	}
	c, args := natLaunch(t, a, target)
	call, init := c.open("launch", args)
	if !strings.Contains(string(init.Body), `"filter":"`+filters[0]+`"`) {
		t.Errorf("capabilities lack the %s filter: %s", filters[0], init.Body)
	}
	c.req("setExceptionBreakpoints", map[string]any{"filters": filters})
	c.configured(call, 30*time.Second)
	st := c.stopped(30 * time.Second)
	if st.Reason != "exception" || st.Text == "" {
		t.Fatalf("stop %+v, want an exception with its text", st)
	}
	resp := c.req("stackTrace", map[string]any{"threadId": st.ThreadID, "startFrame": 0, "levels": 40})
	var body struct {
		StackFrames []natFrame `json:"stackFrames"`
	}
	_ = resp.DecodeBody(&body)
	found := false
	for _, f := range body.StackFrames {
		if f.Source.Path == src && f.Line == line {
			found = true
		}
	}
	if !found {
		t.Errorf("no frame at %s:%d in %+v", src, line, body.StackFrames)
	}
	c.req("continue", map[string]any{"threadId": st.ThreadID})
	m := c.waitEvent("exited", 30*time.Second, nil)
	var ex struct {
		ExitCode int `json:"exitCode"`
	}
	_ = m.DecodeBody(&ex)
	if ex.ExitCode != wantExit {
		t.Errorf("exit code %d, want %d", ex.ExitCode, wantExit)
	}
}

func TestNativeRustPanic(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("cargo"); err != nil {
		t.Skip("cargo not installed")
	}
	a := NewRust()
	natNeed(t, a)
	dir := natRepoFile(t, "testdata/rust")
	src := filepath.Join(dir, "src", "main.rs")
	natExceptionScenario(t, a, Target{Mode: Launch, Program: dir, Args: []string{"panic"}}, src, natLineOf(t, src, "panic!("), 101)
}
