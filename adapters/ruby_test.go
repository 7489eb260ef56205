package adapters

import (
	"context"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/dap"
)

func TestRubyLaunch(t *testing.T) {
	t.Parallel()
	a := NewRuby()
	natNeed(t, a)
	src := natRepoFile(t, "testdata/ruby/loop.rb")
	line := natLineOf(t, src, "BREAK")
	c, st, f := natBreakAt(t, a, Target{Mode: Launch, Program: src}, src, line)
	l := c.locals(f.ID)
	if l["total"].Value != "0" || l["i"].Value != "0" || l["label"].Value != `"sum"` {
		t.Errorf("locals %+v, want total=0 i=0 label=\"sum\"", l)
	}
	if got := c.evaluate("total + 1", f.ID); got != "1" {
		t.Errorf("evaluate total + 1 = %q", got)
	}
	// The breakpoint stops again in the next iteration.
	c.req("continue", map[string]any{"threadId": st.ThreadID})
	st = c.stopped(30 * time.Second)
	f = c.topFrame(st.ThreadID)
	if v := c.locals(f.ID)["i"].Value; v != "1" {
		t.Errorf("second stop i=%q, want 1", v)
	}
	c.req("next", map[string]any{"threadId": st.ThreadID})
	st2 := c.stopped(30 * time.Second)
	if f2 := c.topFrame(st2.ThreadID); f2.Line == line || st2.Reason != "step" {
		t.Errorf("step: reason %q (%s) line %d", st2.Reason, st2.Description, f2.Line)
	}
	// An empty setBreakpoints clears: the program runs to its end.
	code := c.runToEnd(st.ThreadID, src)
	if code != 0 {
		t.Errorf("exit code %d", code)
	}
	c.waitEvent("terminated", 10*time.Second, nil)
	out := c.Output()
	if !strings.Contains(out, "sum i=4 total=30") || !strings.Contains(out, "done total=30") {
		t.Errorf("output %q lacks the program's lines", out)
	}
}

func TestRubyAttachByPort(t *testing.T) {
	t.Parallel()
	a := NewRuby()
	natNeed(t, a)
	rdbg, _ := a.findRdbg()
	src := natRepoFile(t, "testdata/ruby/loop.rb")
	port, err := natFreePort()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(rdbg, "--open", "--nonstop", "--host", "127.0.0.1", "--port", strconv.Itoa(port), "--", src, "forever")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	ticks := make(chan struct{}, 1)
	p, err := dap.StartProcess(cmd, dap.ProcessOptions{OnLine: func(stream, line string) {
		if strings.HasPrefix(line, "tick ") {
			select {
			case ticks <- struct{}{}:
			default:
			}
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	// Attach once the script runs: rdbg announces its port before its
	// session is ready, and old rdbg dies on a connection that early.
	select {
	case <-ticks:
	case <-time.After(20 * time.Second):
		t.Fatal("the program never printed")
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("rdbg stderr:\n%s", p.StderrTail())
		}
		p.Kill()
		natWaitGone(t, -p.Pid())
	})
	target := Target{Mode: Attach, Port: port}
	c := natAttach(t, a, target)
	// The session pauses right after attaching, as the manager does.
	c.req("pause", map[string]any{"threadId": 1})
	st := c.stopped(20 * time.Second)
	if st.Reason != "pause" {
		t.Fatalf("attach stop reason %q, want pause", st.Reason)
	}
	if _, err := c.tryEvent("stopped", 1500*time.Millisecond, nil); err == nil {
		t.Error("a second stopped event after attach")
	}
	// Continue: the program runs on and does not stop again.
	c.req("continue", map[string]any{"threadId": st.ThreadID})
	if m, err := c.tryEvent("stopped", 1500*time.Millisecond, nil); err == nil {
		t.Errorf("stopped again after continue: %s", m.Body)
	}
	c.req("pause", map[string]any{"threadId": st.ThreadID})
	if st = c.stopped(20 * time.Second); st.Reason != "pause" {
		t.Errorf("second pause: reason %q", st.Reason)
	}
	resp := c.req("threads", nil)
	if !strings.Contains(string(resp.Body), `"id"`) {
		t.Fatalf("no threads: %s", resp.Body)
	}
	c.req("disconnect", map[string]any{"terminateDebuggee": false})
	c.close()
	time.Sleep(300 * time.Millisecond)
	select {
	case <-p.Exited():
		t.Fatalf("program ended after detach: %v\n%s", p.ExitErr(), p.StderrTail())
	default:
	}
}

func TestRubyMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	a := NewRuby()
	natWantMissing(t, a, Target{Mode: Launch, Program: "/etc/passwd"})
	if _, err := a.AttachArgs(context.Background(), Target{Mode: Attach, PID: 1}); err == nil {
		t.Error("attach by pid accepted")
	}
}

func TestRubyStopOnEntry(t *testing.T) {
	t.Parallel()
	a := NewRuby()
	natNeed(t, a)
	src := natRepoFile(t, "testdata/ruby/loop.rb")
	target := Target{Mode: Launch, Program: src, StopOnEntry: true}
	c, args := natLaunch(t, a, target)
	c.begin("launch", args, nil)
	st := c.stopped(20 * time.Second)
	if st.Reason != "entry" {
		t.Fatalf("stop reason %q, want entry", st.Reason)
	}
	f := c.topFrame(st.ThreadID)
	if f.Source.Path != src || f.Line > natLineOf(t, src, "def square") {
		t.Errorf("entry stop at %s:%d, want the top of %s", f.Source.Path, f.Line, src)
	}
	if c.Output() != "" {
		t.Errorf("program ran before the entry stop: %q", c.Output())
	}
	c.req("continue", map[string]any{"threadId": st.ThreadID})
	c.waitEvent("terminated", 20*time.Second, nil)
	if !strings.Contains(c.Output(), "done total=30") {
		t.Errorf("output %q", c.Output())
	}
}

// rubyBreakAt runs loop.rb with the given breakpoint specs (line → spec)
// and returns the client stopped at the first reported stop.
func rubyBreakAt(t *testing.T, specs map[int]map[string]any) (*natClient, natStopped, string) {
	t.Helper()
	a := NewRuby()
	natNeed(t, a)
	src := natRepoFile(t, "testdata/ruby/loop.rb")
	target := Target{Mode: Launch, Program: src}
	c, args := natLaunch(t, a, target)
	call, init := c.open("launch", args)
	if !strings.Contains(string(init.Body), `"supportsLogPoints":true`) || !strings.Contains(string(init.Body), `"supportsHitConditionalBreakpoints":true`) {
		t.Errorf("capabilities lack log points / hit conditions: %s", init.Body)
	}
	c.setBPs(src, specs)
	c.configured(call, 20*time.Second)
	return c, c.stopped(20 * time.Second), src
}

func (c *natClient) setBPs(src string, specs map[int]map[string]any) {
	c.t.Helper()
	list := []map[string]any{}
	for line, spec := range specs {
		bp := map[string]any{"line": line}
		for k, v := range spec {
			bp[k] = v
		}
		list = append(list, bp)
	}
	c.req("setBreakpoints", map[string]any{"source": map[string]any{"path": src}, "breakpoints": list})
}

func TestRubyConditionsAndLogPoints(t *testing.T) {
	t.Parallel()
	src := natRepoFile(t, "testdata/ruby/loop.rb")
	brk := natLineOf(t, src, "BREAK")
	logLine := natLineOf(t, src, `puts "#{forever`)
	c, st, _ := rubyBreakAt(t, map[int]map[string]any{
		brk:     {"condition": "i == 3"},
		logLine: {"logMessage": "log i={i} total={total}"},
	})
	f := c.topFrame(st.ThreadID)
	if v := c.locals(f.ID)["i"].Value; f.Line != brk || v != "3" {
		t.Fatalf("stopped at line %d with i=%s, want line %d with i=3", f.Line, v, brk)
	}
	// A changed condition takes effect (rdbg alone keeps the first one).
	c.setBPs(src, map[int]map[string]any{brk: {"condition": "i == 4"}, logLine: {"logMessage": "log i={i} total={total}"}})
	c.req("continue", map[string]any{"threadId": st.ThreadID})
	st = c.stopped(20 * time.Second)
	f = c.topFrame(st.ThreadID)
	if v := c.locals(f.ID)["i"].Value; v != "4" {
		t.Errorf("second stop i=%s, want 4", v)
	}
	c.runToEnd(st.ThreadID, src)
	c.waitEvent("terminated", 10*time.Second, nil)
	logs := c.outputLines("log i=")
	if len(logs) != 4 || logs[0] != "log i=0 total=0" || logs[3] != "log i=3 total=14" {
		t.Errorf("log points printed %q, want i=0..3 (the last setBreakpoints dropped it for i=4)", logs)
	}
}

func TestRubyHitCondition(t *testing.T) {
	t.Parallel()
	src := natRepoFile(t, "testdata/ruby/loop.rb")
	brk := natLineOf(t, src, "BREAK")
	c, st, _ := rubyBreakAt(t, map[int]map[string]any{brk: {"hitCondition": "3"}})
	f := c.topFrame(st.ThreadID)
	if v := c.locals(f.ID)["i"].Value; v != "2" {
		t.Errorf("hitCondition 3 stopped with i=%s, want 2", v)
	}
	c.req("continue", map[string]any{"threadId": st.ThreadID})
	c.waitEvent("terminated", 10*time.Second, nil)
}

func TestRubySetVariable(t *testing.T) {
	t.Parallel()
	src := natRepoFile(t, "testdata/ruby/loop.rb")
	brk := natLineOf(t, src, "BREAK")
	c, st, _ := rubyBreakAt(t, map[int]map[string]any{brk: {}})
	f := c.topFrame(st.ThreadID)
	ref := c.scopeRef(f.ID)
	set := c.req("setVariable", map[string]any{"variablesReference": ref, "name": "total", "value": "1000"})
	if !strings.Contains(string(set.Body), `"value":"1000"`) {
		t.Errorf("setVariable answered %s", set.Body)
	}
	if _, err := c.conn.Request(context.Background(), "setVariable", map[string]any{"variablesReference": ref, "name": "total; exit", "value": "1"}); err == nil {
		t.Error("a bad variable name was accepted")
	}
	c.runToEnd(st.ThreadID, src)
	c.waitEvent("terminated", 10*time.Second, nil)
	if out := c.Output(); !strings.Contains(out, "done total=1030") {
		t.Errorf("output %q, want done total=1030 after setting total", out)
	}
}

func TestRubyExceptionFilters(t *testing.T) {
	t.Parallel()
	a := NewRuby()
	natNeed(t, a)
	src := natRepoFile(t, "testdata/ruby/raise.rb")
	target := Target{Mode: Launch, Program: src}
	c, args := natLaunch(t, a, target)
	call, _ := c.open("launch", args)
	c.req("setExceptionBreakpoints", map[string]any{"filters": a.ExceptionFilters("all")})
	c.configured(call, 20*time.Second)
	// The launched program's pid is announced.
	if pid := c.debuggeePID(); pid != c.ep.Process.Pid() {
		t.Errorf("process event pid %d, want rdbg's %d (it runs the script)", pid, c.ep.Process.Pid())
	}
	// "all": the rescued ArgumentError stops.
	st := c.stopped(20 * time.Second)
	if f := c.topFrame(st.ThreadID); st.Reason != "exception" || f.Line != natLineOf(t, src, "# ARG") {
		t.Fatalf("stop %+v at line %d, want the ArgumentError", st, f.Line)
	}
	info := c.req("exceptionInfo", map[string]any{"threadId": st.ThreadID})
	if !strings.Contains(string(info.Body), "too large 5") || !strings.Contains(string(info.Body), `"exceptionId":"ArgumentError"`) {
		t.Errorf("exceptionInfo %s", info.Body)
	}
	// A request old rdbg does not know answers an error; the session lives on.
	if _, err := c.conn.Request(context.Background(), "modules", map[string]any{}); err == nil {
		t.Error("modules answered success")
	}
	c.req("threads", nil)
	// "uncaught" (RuntimeError) from now on: the next stop is the RuntimeError.
	c.req("setExceptionBreakpoints", map[string]any{"filters": a.ExceptionFilters("uncaught")})
	c.req("continue", map[string]any{"threadId": st.ThreadID})
	st = c.stopped(20 * time.Second)
	if f := c.topFrame(st.ThreadID); st.Reason != "exception" || f.Line != natLineOf(t, src, "# BOOM") {
		t.Fatalf("stop %+v at line %d, want the RuntimeError", st, f.Line)
	}
	// No filters: the program runs to its end.
	c.req("setExceptionBreakpoints", map[string]any{"filters": []string{}})
	c.req("continue", map[string]any{"threadId": st.ThreadID})
	c.waitEvent("terminated", 20*time.Second, nil)
	if out := c.Output(); !strings.Contains(out, "rescued too large 5") || !strings.Contains(out, "rescued boom 2") {
		t.Errorf("output %q", out)
	}
}

func TestRubyEvaluateErrors(t *testing.T) {
	t.Parallel()
	src := natRepoFile(t, "testdata/ruby/loop.rb")
	c, st, _ := rubyBreakAt(t, map[int]map[string]any{natLineOf(t, src, "BREAK"): {}})
	f := c.topFrame(st.ThreadID)
	for _, expr := range []string{"nosuch", "nosuch + 1", "1 / 0"} {
		if r, err := c.conn.Request(context.Background(), "evaluate", map[string]any{"expression": expr, "frameId": f.ID, "context": "repl"}); err == nil {
			t.Errorf("evaluate %q succeeded: %s", expr, r.Body)
		}
	}
	if got := c.evaluate("total + 1", f.ID); got != "1" {
		t.Errorf("total + 1 = %q", got)
	}
}

// TestRubyExecutablePath launches with an explicit Ruby (rdbg -c).
func TestRubyExecutablePath(t *testing.T) {
	t.Parallel()
	a := NewRuby()
	natNeed(t, a)
	ruby, err := exec.LookPath("ruby")
	if err != nil {
		t.Skip("no ruby in PATH")
	}
	src := natRepoFile(t, "testdata/ruby/loop.rb")
	target := Target{Mode: Launch, Program: src, ExecutablePath: ruby, Env: map[string]string{"DBG_FIXTURE": "1"}}
	c, st, f := natBreakAt(t, a, target, src, natLineOf(t, src, "BREAK"))
	if got := c.evaluate(`ENV["DBG_FIXTURE"]`, f.ID); got != `"1"` {
		t.Errorf("ENV[DBG_FIXTURE] = %q, want \"1\"", got)
	}
	c.runToEnd(st.ThreadID, src)
	c.waitEvent("terminated", 10*time.Second, nil)
	if !strings.Contains(c.Output(), "done total=30") {
		t.Errorf("output %q", c.Output())
	}
}

// TestRubyAttachWithoutPause attaches and does not pause: rdbg's own
// pause of the new connection is undone, the program keeps running.
func TestRubyAttachWithoutPause(t *testing.T) {
	t.Parallel()
	a := NewRuby()
	natNeed(t, a)
	rdbg, _ := a.findRdbg()
	port, err := natFreePort()
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	ticks := 0
	cmd := exec.Command(rdbg, "--open", "--nonstop", "--host", "127.0.0.1", "--port", strconv.Itoa(port), "--", natRepoFile(t, "testdata/ruby/loop.rb"), "forever")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	p, err := dap.StartProcess(cmd, dap.ProcessOptions{OnLine: func(_, line string) {
		if strings.HasPrefix(line, "tick ") {
			mu.Lock()
			ticks++
			mu.Unlock()
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Kill(); natWaitGone(t, -p.Pid()) })
	count := func() int { mu.Lock(); defer mu.Unlock(); return ticks }
	deadline := time.Now().Add(20 * time.Second)
	for count() == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	target := Target{Mode: Attach, Port: port}
	c := natAttach(t, a, target)
	c.req("threads", nil)
	if m, err := c.tryEvent("stopped", 1500*time.Millisecond, nil); err == nil {
		t.Errorf("the session saw a stop it did not ask for: %s", m.Body)
	}
	before := count()
	deadline = time.Now().Add(5 * time.Second)
	for count() <= before+2 {
		if time.Now().After(deadline) {
			t.Fatal("the program does not run after an attach without pause")
		}
		time.Sleep(20 * time.Millisecond)
	}
	c.req("disconnect", map[string]any{"terminateDebuggee": false})
}
