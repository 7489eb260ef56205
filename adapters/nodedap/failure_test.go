package nodedap

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestScriptExitsBeforeBreakpoint(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	script := fixture(t, "exits_early.js")
	c.launch(map[string]any{"program": script})
	bps := c.setBreakpoints(script, map[string]any{"line": lineOf(t, script, "BP:never")})
	if !bps[0].Verified {
		t.Fatalf("%+v", bps[0])
	}
	c.req("configurationDone", nil)
	want(t, "exit code", body[struct{ ExitCode int }](t, c.event("exited")).ExitCode, 0)
	c.event("terminated")
	if c.maybeEvent("stopped", 0) != nil {
		t.Fatal("stopped although the breakpoint is never reached")
	}
	if !strings.Contains(c.outputText(), "bye") {
		t.Errorf("output %q", c.outputText())
	}
	if _, err := c.try("stackTrace", map[string]any{"threadId": 1}); err == nil {
		t.Error("stackTrace after exit succeeded")
	}
}

func TestSyntaxError(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	err := c.start("launch", map[string]any{"program": fixture(t, "syntax_error.js")})
	if err == nil {
		t.Fatal("launch of a script with a syntax error succeeded")
	}
	if !strings.Contains(err.Error(), "SyntaxError") || !strings.Contains(err.Error(), "syntax_error.js:3") {
		t.Fatalf("error %q lacks the syntax error", err)
	}
}

func TestLaunchErrors(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	if err := c.start("launch", map[string]any{"program": "/nonexistent/x.js"}); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Fatalf("missing program: %v", err)
	}
	c2 := newClient(t)
	if err := c2.start("launch", map[string]any{"program": fixture(t, "loop.js"), "runtimeExecutable": "/nonexistent/node"}); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Fatalf("missing runtime: %v", err)
	}
	c3 := newClient(t)
	if _, err := c3.try("stackTrace", map[string]any{"threadId": 1}); err == nil {
		t.Fatal("stackTrace before launch succeeded")
	}
}

func TestDisconnectKillsLaunchedProgram(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	s := fixture(t, "server.js")
	c.launch(map[string]any{"program": s, "args": []string{"0"}})
	c.req("configurationDone", nil)
	c.waitOutput("listening ")
	h := c // keep the client for the disconnect
	m := h.req("evaluate", map[string]any{"expression": "process.pid", "context": "repl"})
	pid := body[struct{ Result string }](t, m).Result
	h.req("disconnect", map[string]any{})
	waitGone(t, pid)
}

// TestUnhandledRejection stops on an error thrown in an async function
// that nobody awaits, with its message.
func TestUnhandledRejection(t *testing.T) {
	t.Parallel()
	script := filepath.Join(t.TempDir(), "reject.js")
	src := "async function load(name) {\n  throw new TypeError(`no such user: ${name}`);\n}\nload('zed');\n"
	if err := os.WriteFile(script, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	c := newClient(t)
	c.launch(map[string]any{"program": script})
	c.req("setExceptionBreakpoints", map[string]any{"filters": []string{"uncaught"}})
	c.req("configurationDone", nil)
	st := c.stopped()
	want(t, "reason", st.Reason, "exception")
	want(t, "text", st.Text, "TypeError: no such user: zed")
	want(t, "line", c.frames()[0].Line, 2)
	c.req("continue", map[string]any{"threadId": 1})
	want(t, "exit code", body[struct{ ExitCode int }](t, c.event("exited")).ExitCode, 1)
}
