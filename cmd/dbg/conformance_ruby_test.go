package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Ruby checks beyond the conformance table: stepping into methods,
// exception modes, attach without pause and continue after attach.

// TestMCPRubyInspect steps into a method, reads its locals, evaluates Ruby
// and changes a variable the program then prints.
func TestMCPRubyInspect(t *testing.T) {
	t.Parallel()
	requireRdbg(t)
	c := startDbg(t)
	prog := fixture(t, "ruby/loop.rb")
	line := mcpLine(t, prog, "BREAK: loop body")
	id, st := mcpLaunch(t, c, "ruby", prog, []int{line}, prog, nil)
	if st.str("lastStop.reason") != "breakpoint" || st.num("lastStop.location.line") != line {
		t.Fatalf("first stop %v, want a breakpoint at line %d", st, line)
	}
	mcpTop(t, c, id, prog, line)
	if got := mcpEval(t, c, id, `label * 2 + i.to_s`); got != `"sumsum0"` {
		t.Errorf(`label * 2 + i.to_s = %q, want "sumsum0"`, got)
	}
	in := c.ok("step_into", map[string]any{"sessionId": id})
	body := mcpLine(t, prog, "result = x * x")
	if in.num("lastStop.location.line") != body {
		t.Fatalf("step_into: %v, want line %d", in, body)
	}
	frames := c.ok("get_stack_trace", map[string]any{"sessionId": id}).list("stackFrames")
	if len(frames) < 2 || frames[1].num("line") != line {
		t.Errorf("caller frame of square: %v, want line %d", frames, line)
	}
	mcpCheckLocals(t, mcpLocals(t, c, id), map[string]string{"x": "0"})
	c.ok("step_out", map[string]any{"sessionId": id})
	c.ok("clear_breakpoints", map[string]any{"sessionId": id})
	// Stop at the next pass and change the label the program prints.
	c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": line + 1})
	st = mcpPaused(t, c, id, c.ok("continue_execution", map[string]any{"sessionId": id}))
	if st.num("lastStop.location.line") != line+1 {
		t.Fatalf("stop %v, want line %d", st, line+1)
	}
	c.ok("set_variable", map[string]any{"sessionId": id, "name": "label", "value": `"changed"`})
	if got := mcpEval(t, c, id, "label"); got != `"changed"` {
		t.Fatalf("label after set_variable = %q", got)
	}
	mcpFinish(t, c, id, "changed i=0 total=0")
}

// TestMCPRubyExceptions stops on a raise with its message: breakOnExceptions
// uncaught only on the RuntimeError, all on the rescued one too.
func TestMCPRubyExceptions(t *testing.T) {
	t.Parallel()
	requireRdbg(t)
	prog := fixture(t, "ruby/uncaught.rb")
	boom, arg := mcpLine(t, prog, "# BOOM"), mcpLine(t, prog, "# ARG")
	c := startDbg(t)
	id, st := mcpLaunch(t, c, "ruby", prog, nil, prog, map[string]any{"breakOnExceptions": "uncaught"})
	if st.str("lastStop.reason") != "exception" || st.num("lastStop.location.line") != boom {
		t.Fatalf("stop %v, want an exception at line %d", st, boom)
	}
	if text := st.str("lastStop.text") + " " + st.str("lastStop.description"); !strings.Contains(text, "boom at the end") {
		t.Errorf("exception text %q lacks the message", text)
	}
	mcpOutputHas(t, c, id, "rescued value 5 is too large")
	pids := mcpPIDs(t, c)
	mcpRunToEnd(t, c, id)
	mcpClose(t, c, id, pids)

	id, st = mcpLaunch(t, c, "ruby", prog, nil, prog, map[string]any{"breakOnExceptions": "all"})
	if st.str("lastStop.reason") != "exception" || st.num("lastStop.location.line") != arg {
		t.Fatalf("stop %v, want the rescued exception at line %d", st, arg)
	}
	if got := mcpEval(t, c, id, "v * 2"); got != "10" {
		t.Errorf("v * 2 = %q, want 10", got)
	}
	st = mcpPaused(t, c, id, c.ok("continue_execution", map[string]any{"sessionId": id}))
	if st.str("lastStop.reason") != "exception" || st.num("lastStop.location.line") != boom {
		t.Fatalf("stop %v, want the RuntimeError at line %d", st, boom)
	}
	pids = mcpPIDs(t, c)
	mcpRunToEnd(t, c, id)
	mcpOutputHas(t, c, id, "rescued value 5 is too large")
	mcpClose(t, c, id, pids)
}

// TestMCPRubyExceptionBreakpointsOff turns exception breakpoints off at a
// stop: the program then runs to its end.
func TestMCPRubyExceptionBreakpointsOff(t *testing.T) {
	t.Parallel()
	requireRdbg(t)
	prog := fixture(t, "ruby/uncaught.rb")
	c := startDbg(t)
	id, st := mcpLaunch(t, c, "ruby", prog, nil, prog, map[string]any{"breakOnExceptions": "all"})
	if st.str("lastStop.reason") != "exception" || st.num("lastStop.location.line") != mcpLine(t, prog, "# ARG") {
		t.Fatalf("stop %v, want the rescued exception", st)
	}
	c.ok("set_exception_breakpoints", map[string]any{"sessionId": id, "breakOnExceptions": "none"})
	mcpRunToEnd(t, c, id)
	mcpOutputHas(t, c, id, "rescued value 5 is too large")
	c.ok("close_debug_session", map[string]any{"sessionId": id})
}

// TestMCPRubyAttachBreakpoint attaches to a running rdbg, stops it at a
// breakpoint, changes a local and detaches.
func TestMCPRubyAttachBreakpoint(t *testing.T) {
	t.Parallel()
	rdbg := requireRdbg(t)
	port := freePort(t)
	prog := fixture(t, "ruby/loop.rb")
	cmd, out := startTarget(t, "tick", rdbg, "--open", "--nonstop", "--host", "127.0.0.1", "--port", fmt.Sprint(port), "--", prog, "forever")
	c := startDbg(t)
	id := c.ok("create_debug_session", map[string]any{"language": "ruby", "port": port}).str("sessionId")
	line := mcpLine(t, prog, "BREAK: loop body")
	c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": line})
	st := mcpPaused(t, c, id, c.ok("continue_execution", map[string]any{"sessionId": id}))
	if st.str("lastStop.reason") != "breakpoint" || st.num("lastStop.location.line") != line {
		t.Fatalf("stop %v, want the breakpoint at line %d", st, line)
	}
	mcpTop(t, c, id, prog, line)
	c.ok("set_variable", map[string]any{"sessionId": id, "name": "label", "value": `"attached"`})
	mcpDetachRuns(t, c, id, target{cmd: cmd, out: out}, "tick attached i=")
}

// TestMCPRubyAttachWithoutPause attaches with stopOnEntry false: the
// program keeps running.
func TestMCPRubyAttachWithoutPause(t *testing.T) {
	t.Parallel()
	rdbg := requireRdbg(t)
	port := freePort(t)
	_, out := startTarget(t, "tick", rdbg, "--open", "--nonstop", "--host", "127.0.0.1", "--port", fmt.Sprint(port), "--", fixture(t, "ruby/loop.rb"), "forever")
	c := startDbg(t)
	id := mcpAttachRunning(t, c, map[string]any{"language": "ruby", "port": port})
	waitCount(t, out, "tick", strings.Count(out.String(), "tick")+2, "the program stopped ticking after an attach without pause")
	c.ok("close_debug_session", map[string]any{"sessionId": id})
}

// TestMCPRubyAttachContinue attaches by port (the program pauses), then
// continues: the program must run on, not stop again.
func TestMCPRubyAttachContinue(t *testing.T) {
	t.Parallel()
	rdbg := requireRdbg(t)
	for round := 0; round < 3; round++ {
		port := freePort(t)
		_, out := startTarget(t, "tick", rdbg, "--open", "--nonstop", "--host", "127.0.0.1", "--port", fmt.Sprint(port), "--", fixture(t, "ruby/loop.rb"), "forever")
		c := startDbg(t)
		s := c.ok("create_debug_session", map[string]any{"language": "ruby", "port": port})
		id := s.str("sessionId")
		mcpPaused(t, c, id, s)
		c.ok("continue_execution", map[string]any{"sessionId": id})
		if st := c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 1500}); st.str("state") != "running" {
			t.Fatalf("round %d: stopped again after continue: %v", round, st.get("lastStop"))
		}
		before := strings.Count(out.String(), "tick")
		time.Sleep(500 * time.Millisecond)
		if strings.Count(out.String(), "tick") <= before {
			t.Fatalf("round %d: the program does not run after continue", round)
		}
		c.ok("close_debug_session", map[string]any{"sessionId": id})
		c.close()
	}
}

func TestMCPRubyArgsEnvCwd(t *testing.T) {
	t.Parallel()
	requireRdbg(t)
	prog := filepath.Join(t.TempDir(), "echo.rb")
	if err := os.WriteFile(prog, []byte("puts \"#{ARGV[0]} #{ENV['DBG_E2E']} #{Dir.pwd}\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mcpArgsEnvCwd(t, "ruby", prog)
}
