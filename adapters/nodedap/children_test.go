package nodedap

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/dap"
)

// startDebuggingArgs are the arguments of a startDebugging reverse request.
type startDebuggingArgs struct {
	Request       string         `json:"request"`
	Configuration map[string]any `json:"configuration"`
}

// childAnswerer answers startDebugging like dbg's session manager (at
// once, the child connection is opened afterwards) and hands the arguments
// to the test (got should have room for more than one, so that a second
// request shows).
func childAnswerer(got chan<- startDebuggingArgs) func(context.Context, *dap.Message) (any, error) {
	return func(_ context.Context, req *dap.Message) (any, error) {
		if req.Command != "startDebugging" {
			return nil, fmt.Errorf("reverse request %q is not supported", req.Command)
		}
		var a startDebuggingArgs
		if err := json.Unmarshal(req.Arguments, &a); err != nil {
			return nil, err
		}
		select {
		case got <- a:
		default:
			return nil, errors.New("one child only")
		}
		return map[string]any{}, nil
	}
}

func receive(t *testing.T, got <-chan startDebuggingArgs) startDebuggingArgs {
	t.Helper()
	select {
	case a := <-got:
		return a
	case <-time.After(clientWait):
		t.Fatal("no startDebugging request")
	}
	return startDebuggingArgs{}
}

// TestForkedChildSession checks that a forked child becomes a child
// session: startDebugging with an attach configuration, which a second
// connection attaches with; the child waits at its start until that
// session's breakpoints are set (its breakpoint is on its first
// statement), stops there, and is let go when its program ends.
func TestForkedChildSession(t *testing.T) {
	t.Parallel()
	got := make(chan startDebuggingArgs, 2)
	const wait = 2 * time.Second
	p := newClientWith(t, clientOptions{onRequest: childAnswerer(got), setup: func(h *Handler) { h.childWait = wait }})
	script := fixture(t, "fork_early.js")
	line := lineOf(t, script, "BP:early")
	p.launch(map[string]any{"program": script})
	p.setBreakpoints(script, map[string]any{"line": line})
	p.req("configurationDone", nil)

	a := receive(t, got)
	asked := time.Now()
	want(t, "request", a.Request, "attach")
	cfg := a.Configuration
	if name, _ := cfg["name"].(string); !strings.HasPrefix(name, "child ") || cfg["__childProcess"] != true {
		t.Fatalf("configuration %v", cfg)
	}
	if port, _ := cfg["port"].(float64); port <= 0 {
		t.Fatalf("configuration without port: %v", cfg)
	}
	delete(cfg, "websocketAddress") // attach by port, as the configuration allows

	c := newClient(t)
	if err := c.start("attach", cfg); err != nil {
		t.Fatalf("child attach: %v", err)
	}
	proc := body[struct {
		SystemProcessID int `json:"systemProcessId"`
	}](t, c.seen("process"))
	if fmt.Sprint(cfg["name"]) != fmt.Sprintf("child %d", proc.SystemProcessID) {
		t.Fatalf("name %v, process %d", cfg["name"], proc.SystemProcessID)
	}
	c.setBreakpoints(script, map[string]any{"line": line})
	c.req("configurationDone", nil)
	st := c.stopped()
	want(t, "child reason", st.Reason, "breakpoint")
	want(t, "child thread", st.ThreadID, 1)
	f := c.frames()[0]
	want(t, "child path", f.Source.Path, script)
	want(t, "child line", f.Line, line)
	want(t, "argv", c.eval("process.argv[2]", f.ID).Value, `"child"`)

	// The parent's own session has no thread for the child.
	threads := body[struct{ Threads []struct{ ID int } }](t, p.req("threads", nil)).Threads
	if len(threads) != 1 {
		t.Fatalf("parent threads %+v", threads)
	}
	// Once the child's wait is over, the parent's check that it does not
	// wait forever leaves the stopped child alone.
	time.Sleep(time.Until(asked.Add(wait + 500*time.Millisecond)))
	if m := c.maybeEvent("continued", 0); m != nil {
		t.Fatalf("child continued by itself: %s", m.Body)
	}
	want(t, "still stopped", c.eval("greeting", c.frames()[0].ID).Value, "undefined")
	c.req("next", map[string]any{"threadId": 1})
	c.stopped()
	want(t, "greeting", c.eval("greeting", c.frames()[0].ID).Value, `"early from child"`)
	c.req("continue", map[string]any{"threadId": 1})
	c.event("terminated")
	waitGone(t, fmt.Sprint(proc.SystemProcessID))

	p.event("terminated")
	out := p.outputText()
	if !strings.Contains(out, "child says early from child") || !strings.Contains(out, "child exit 0") {
		t.Fatalf("output %q", out)
	}
	if p.maybeEvent("thread", 0) != nil {
		t.Fatal("the child was also reported as a thread")
	}
	if len(got) != 0 {
		t.Fatalf("startDebugging sent again: %+v", <-got)
	}
}

// TestForkedChildNeverAttached checks that a child whose session never
// comes is let run after the wait.
func TestForkedChildNeverAttached(t *testing.T) {
	t.Parallel()
	got := make(chan startDebuggingArgs, 1)
	p := newClientWith(t, clientOptions{onRequest: childAnswerer(got), setup: func(h *Handler) { h.childWait = 300 * time.Millisecond }})
	script := fixture(t, "fork_early.js")
	p.launch(map[string]any{"program": script})
	p.setBreakpoints(script, map[string]any{"line": lineOf(t, script, "BP:early")})
	p.req("configurationDone", nil)
	receive(t, got)
	p.event("terminated")
	if out := p.outputText(); !strings.Contains(out, "child says early from child") || !strings.Contains(out, "child exit 0") {
		t.Fatalf("output %q", out)
	}
}

// TestForkedChildNotFollowedRuns checks that with
// autoAttachChildProcesses false a forked child (which inherits
// --inspect-brk) runs at once, undebugged, and the program ends: node may
// take the request to run that comes just before it starts to wait, so
// the launch is repeated to give that race its chances.
func TestForkedChildNotFollowedRuns(t *testing.T) {
	t.Parallel()
	script := fixture(t, "fork_early.js")
	for i := 0; i < 4; i++ {
		asked := make(chan struct{}, 1)
		p := newClientWith(t, clientOptions{onRequest: func(context.Context, *dap.Message) (any, error) {
			asked <- struct{}{}
			return nil, nil
		}})
		start := time.Now()
		p.launch(map[string]any{"program": script, "autoAttachChildProcesses": false})
		p.setBreakpoints(script, map[string]any{"line": lineOf(t, script, "BP:early")})
		p.req("configurationDone", nil)
		p.event("terminated")
		if out := p.outputText(); !strings.Contains(out, "child says early from child") || !strings.Contains(out, "child exit 0") {
			t.Fatalf("run %d: output %q", i, out)
		}
		if d := time.Since(start); d > defaultChildWait {
			t.Errorf("run %d took %s: the child waited for a debugger", i, d)
		}
		if len(asked) != 0 {
			t.Fatalf("run %d: a child session was asked for", i)
		}
	}
}

// TestForkedChildThreadWithoutChildSessions checks the fallback: a client
// that did not announce startDebugging gets the child as a thread, which
// waited for its breakpoints too.
func TestForkedChildThreadWithoutChildSessions(t *testing.T) {
	t.Parallel()
	p := newClientWith(t, clientOptions{noChildren: true, onRequest: func(context.Context, *dap.Message) (any, error) {
		return nil, errors.New("startDebugging sent to a client that did not announce it")
	}})
	script := fixture(t, "fork_early.js")
	line := lineOf(t, script, "BP:early")
	p.launch(map[string]any{"program": script})
	p.setBreakpoints(script, map[string]any{"line": line})
	p.req("configurationDone", nil)
	started := body[struct {
		Reason   string
		ThreadID int
	}](t, p.event("thread"))
	want(t, "thread", started.Reason, "started")
	st := p.stopped()
	want(t, "child stop thread", st.ThreadID, started.ThreadID)
	m := p.req("stackTrace", map[string]any{"threadId": started.ThreadID})
	want(t, "child line", body[struct{ StackFrames []frame }](t, m).StackFrames[0].Line, line)
	p.req("continue", map[string]any{"threadId": started.ThreadID})
	p.event("terminated")
	if out := p.outputText(); !strings.Contains(out, "child exit 0") {
		t.Fatalf("output %q", out)
	}
}

// TestSilentForkedChildSession checks that a child whose inspector is not
// announced on the program's stderr (fork with silent: true) is found
// among the program's processes and gets its child session too.
func TestSilentForkedChildSession(t *testing.T) {
	t.Parallel()
	got := make(chan startDebuggingArgs, 2)
	p := newClientWith(t, clientOptions{onRequest: childAnswerer(got)})
	script := fixture(t, "fork_silent.js")
	line := lineOf(t, script, "BP:silent")
	p.launch(map[string]any{"program": script})
	p.req("configurationDone", nil)
	a := receive(t, got)
	c := newClient(t)
	if err := c.start("attach", a.Configuration); err != nil {
		t.Fatalf("child attach: %v", err)
	}
	c.setBreakpoints(script, map[string]any{"line": line})
	c.req("configurationDone", nil)
	want(t, "child reason", c.stopped().Reason, "breakpoint")
	f := c.frames()[0]
	want(t, "child line", f.Line, line)
	want(t, "argv", c.eval("process.argv[2]", f.ID).Value, `"child"`)
	c.req("continue", map[string]any{"threadId": 1})
	c.event("terminated")
	p.event("terminated")
	if out := p.outputText(); !strings.Contains(out, "child says quiet child") || !strings.Contains(out, "child exit 0") {
		t.Fatalf("output %q", out)
	}
	if len(got) != 0 {
		t.Fatalf("startDebugging sent again: %+v", <-got)
	}
}

// TestForkAfterDisconnectRuns checks that a program left running by
// disconnect (terminateDebuggee false) forks children that do not wait for
// a debugger nobody will bring.
func TestForkAfterDisconnectRuns(t *testing.T) {
	t.Parallel()
	p := newClient(t)
	script := fixture(t, "fork_later.js")
	out := filepath.Join(t.TempDir(), "child.txt")
	p.launch(map[string]any{"program": script, "args": []string{out}})
	pid := body[struct {
		SystemProcessID int `json:"systemProcessId"`
	}](t, p.seen("process")).SystemProcessID
	t.Cleanup(func() { _ = syscall.Kill(-pid, syscall.SIGKILL) })
	p.req("configurationDone", nil)
	p.req("disconnect", map[string]any{"terminateDebuggee": false})
	for deadline := time.Now().Add(clientWait); ; time.Sleep(25 * time.Millisecond) {
		b, err := os.ReadFile(out)
		if err == nil && len(b) > 0 {
			if s := string(b); !strings.Contains(s, "--inspect=") || strings.Contains(s, "--inspect-brk") {
				t.Fatalf("child's node options %q", s)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the child forked after disconnect never ran")
		}
	}
	waitGone(t, fmt.Sprint(pid))
}

// TestNextChildPoll checks the watch's back-off: it doubles while nothing
// changes, up to childPollIdle, and starts over on a change or while a
// new process's grace runs.
func TestNextChildPoll(t *testing.T) {
	cases := []struct {
		wait             time.Duration
		changed, pending bool
		want             time.Duration
	}{
		{childPoll, false, false, 2 * childPoll},
		{2 * time.Second, false, false, childPollIdle},
		{childPollIdle, false, false, childPollIdle},
		{childPollIdle, true, false, childPoll},
		{childPollIdle, false, true, childPoll},
	}
	for _, c := range cases {
		if got := nextChildPoll(c.wait, c.changed, c.pending); got != c.want {
			t.Errorf("nextChildPoll(%v, changed %v, pending %v) = %v, want %v", c.wait, c.changed, c.pending, got, c.want)
		}
	}
}
