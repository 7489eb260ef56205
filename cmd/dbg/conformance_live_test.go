package main

import (
	"strings"
	"testing"
)

// Live edits in the table (docs/contract.md, "Beyond the peers"):
// restart_frame and goto_line on the row's fixtures, what the status
// says a session can edit, and evaluation without side effects. The
// reload scenario, with the stopped flow of the live-edit fixture, is in
// conformance_reload_test.go.

// safeCase is evaluation without side effects: expressions the language
// refuses (a call, an assignment), with a text of the refusal. At the
// loop's stop the launch scenario also evaluates the loop's eval without
// side effects; a language declaring no safeCase must refuse that.
type safeCase struct {
	refused []string          // expressions refused without side effects
	says    string            // a text of those refusals
	evals   map[string]string // expressions and their results without side effects
	after   map[string]string // evaluated after the refusals, with side effects: unchanged by them
}

// checkLiveEdits, at the launch scenario's stop: the status's liveEdit
// section for the session says what the table says the language can do
// (restart_frame, reload, goto_line and safe evaluation), and the loop's
// eval without side effects answers its value, or is refused as
// unsupported where the language cannot.
func checkLiveEdits(t *testing.T, c *client, id string, l *lang) {
	t.Helper()
	can := func(sc string) bool { _, no := l.cannot[sc]; return !no }
	st := c.ok("get_debug_tools_status", map[string]any{"sessionId": id})
	want := map[string]bool{"restartFrame": can("restart_frame"), "hotReload": can("reload"), "gotoLine": can("goto_line"), "safeEvaluate": l.safe != nil}
	for k, v := range want {
		if got := st.get("sections.liveEdit." + id + "." + k); got != v {
			t.Errorf("status liveEdit.%s.%s = %v, want %v", id, k, got, v)
		}
	}
	args := map[string]any{"sessionId": id, "expression": l.loop.eval, "sideEffects": false}
	if l.safe == nil {
		checkRefusal(t, c.fail("evaluate_expression", args, "UNSUPPORTED"), refusal{says: "without side effects"})
		return
	}
	if got := c.ok("evaluate_expression", args).str("result"); got != l.loop.evalWant {
		t.Errorf("%s = %q without side effects, want %q", l.loop.eval, got, l.loop.evalWant)
	}
	checkSafe(t, c, id, *l.safe)
}

// checkSafe evaluates s's expressions without side effects, then its
// after ones with them.
func checkSafe(t *testing.T, c *client, id string, s safeCase) {
	t.Helper()
	for _, expr := range s.refused {
		r := c.fail("evaluate_expression", map[string]any{"sessionId": id, "expression": expr, "sideEffects": false}, "INVALID_ARGUMENT")
		if !strings.Contains(r.Error.Message, s.says) {
			t.Errorf("%s refused with %q, want it to say %q", expr, r.Error.Message, s.says)
		}
	}
	for expr, want := range s.evals {
		if got := c.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": expr, "sideEffects": false}).str("result"); got != want {
			t.Errorf("%s = %q without side effects, want %q", expr, got, want)
		}
	}
	for expr, want := range s.after {
		if got := mcpEval(t, c, id, expr); got != want {
			t.Errorf("%s = %q after the refusals, want %q: a refused expression ran", expr, got, want)
		}
	}
}

// scenarioRestartFrame stops on the first line of the function fixture,
// steps on, and restarts the frame: the stop is back at the function's
// start with its argument unchanged, and the program ends as usual.
func scenarioRestartFrame(t *testing.T, c *client, l *lang) {
	f := l.fn
	program, src := f.paths(l)
	line := mcpLine(t, src, f.mark)
	id, st := mcpLaunch(t, c, l.name, src, []int{line}, program, f.start)
	if st.num("lastStop.location.line") != line {
		t.Fatalf("first stop %v, want line %d", st.get("lastStop"), line)
	}
	c.ok("step_over", map[string]any{"sessionId": id})
	top := c.ok("get_stack_trace", map[string]any{"sessionId": id}).list("stackFrames")[0]
	r := c.ok("restart_frame", map[string]any{"sessionId": id, "frameId": top.num("id")})
	if at := r.num("lastStop.location.line"); r.str("state") != "paused" || r.str("lastStop.location.file") != src || at > line || at < line-2 {
		t.Fatalf("restart_frame answered %v, want a stop at the start of %s (line %d)", r, f.name, line)
	}
	if got := mcpEval(t, c, id, f.arg); got != f.want {
		t.Errorf("%s = %q after restart_frame, want %q", f.arg, got, f.want)
	}
	mcpFinish(t, c, id, f.output)
}

// launchLoop launches the loop fixture to its marked line.
func launchLoop(t *testing.T, c *client, l *lang) (id, src string, line int) {
	t.Helper()
	src = l.loop.srcPath()
	line = mcpLine(t, src, l.loop.mark)
	id, _ = mcpLaunch(t, c, l.name, src, []int{line}, td(l.loop.program), nil)
	return id, src, line
}

// refusedRestartFrame: the adapter cannot restart frames; the refusal
// says so and the stop is left as it was.
func refusedRestartFrame(t *testing.T, c *client, l *lang, r refusal) {
	lp := l.loop
	id, src, line := launchLoop(t, c, l)
	top := mcpTop(t, c, id, src, line)
	checkRefusal(t, c.fail("restart_frame", map[string]any{"sessionId": id, "frameId": top.num("id")}, r.code), r)
	mcpTop(t, c, id, src, line)
	mcpFinish(t, c, id, lp.output)
}

// restartCountdown, stopped in the loop of the live-edit fixture's
// countdown(3) on its first pass, continues to the second pass and
// restarts the frame: the bottom frame cannot be restarted, the top one
// stops at the function's first line (marked first) with its argument
// back at its entry value and the loop's variable gone.
func restartCountdown(t *testing.T, c *client, id, src, first string) {
	t.Helper()
	if got := mcpEval(t, c, id, "i"); got != "3" {
		t.Fatalf("i = %q on the first pass, want 3", got)
	}
	st := mcpPaused(t, c, id, c.ok("continue_execution", map[string]any{"sessionId": id}))
	if got := mcpEval(t, c, id, "i"); got != "2" || mcpEval(t, c, id, "acc") != "3" {
		t.Fatalf("i = %q on the second pass, want 2 (%v)", got, st.get("lastStop"))
	}
	frames := c.ok("get_stack_trace", map[string]any{"sessionId": id, "includeInternals": true}).list("stackFrames")
	if len(frames) < 2 {
		t.Fatalf("stack %v", frames)
	}
	bottom := frames[len(frames)-1]
	r := c.fail("restart_frame", map[string]any{"sessionId": id, "frameId": bottom.num("id")}, "INVALID_ARGUMENT")
	if !strings.Contains(r.Error.Message, "bottom") {
		t.Errorf("restarting the bottom frame: %q, want it named the bottom frame", r.Error.Message)
	}
	rs := c.ok("restart_frame", map[string]any{"sessionId": id, "frameId": frames[0].num("id")})
	if rs.str("state") != "paused" || rs.num("lastStop.location.line") != mcpLine(t, src, first) {
		t.Fatalf("restart_frame answered %v, want a stop at line %d", rs, mcpLine(t, src, first))
	}
	locals := mcpLocals(t, c, id)
	if got := locals["n"].str("value"); got != "3" {
		t.Errorf("n = %q after restart_frame, want its entry value 3", got)
	}
	if v, ok := locals["i"]; ok {
		t.Errorf("the loop's i is still a local after restart_frame: %v", v)
	}
}

// jumpCase is goto_line's own fixture: from the stop at the line marked
// from, the next statement moves to the line marked to, over a line that
// would crash, and the program prints output.
type jumpCase struct {
	program  string
	from, to string
	says     string // a text of goto_line's answer's message: how it moved
	output   string
}

// scenarioGotoLine stops in the loop's first pass and moves the next
// statement past the loop (the features fixture's runTo line): the stop
// is there, and the program ends without having run the loop to its end.
// A row with a jump fixture jumps over its crashing line instead.
func scenarioGotoLine(t *testing.T, c *client, l *lang) {
	if l.jump != nil {
		gotoJump(t, c, l, *l.jump)
		return
	}
	lp := l.loop
	id, src, _ := launchLoop(t, c, l)
	to := mcpLine(t, src, l.feat.runTo)
	r := c.ok("goto_line", map[string]any{"sessionId": id, "file": src, "line": to})
	if r.str("state") != "paused" || r.num("lastStop.location.line") != to {
		t.Fatalf("goto_line answered %v, want a stop at line %d", r, to)
	}
	mcpTop(t, c, id, src, to)
	c.ok("clear_breakpoints", map[string]any{"sessionId": id})
	pids := mcpPIDs(t, c)
	mcpRunToEnd(t, c, id)
	if out := c.ok("get_output", map[string]any{"sessionId": id}).str("text"); strings.Contains(out, lp.output) {
		t.Errorf("output %q has the full loop's %q: the loop was not skipped", out, lp.output)
	}
	mcpClose(t, c, id, pids)
}

// gotoJump jumps over a line that would crash: the answer is a goto stop
// at the new line saying how it moved, and the program finishes without
// the crash.
func gotoJump(t *testing.T, c *client, l *lang, j jumpCase) {
	src := td(j.program)
	line := mcpLine(t, src, j.from)
	id, st := mcpLaunch(t, c, l.name, src, []int{line}, src, nil)
	if st.num("lastStop.location.line") != line {
		t.Fatalf("first stop %v, want line %d", st.get("lastStop"), line)
	}
	to := mcpLine(t, src, j.to)
	r := c.ok("goto_line", map[string]any{"sessionId": id, "file": src, "line": to})
	if r.str("state") != "paused" || r.num("lastStop.location.line") != to || r.str("lastStop.reason") != "goto" {
		t.Fatalf("goto_line answered %v, want a goto stop at line %d", r, to)
	}
	if !strings.Contains(r.str("message"), j.says) {
		t.Errorf("goto_line's answer %q does not say %q", r.str("message"), j.says)
	}
	mcpTop(t, c, id, src, to)
	mcpFinish(t, c, id, j.output)
}

// refusedGotoLine: the adapter cannot set the next statement; the
// refusal names the adapter and what to do instead, and the
// program ends as usual.
func refusedGotoLine(t *testing.T, c *client, l *lang, r refusal) {
	lp := l.loop
	id, src, line := launchLoop(t, c, l)
	got := c.fail("goto_line", map[string]any{"sessionId": id, "file": src, "line": mcpLine(t, src, l.feat.runTo)}, r.code)
	checkRefusal(t, got, r)
	if !strings.Contains(got.Error.Message, "debug adapter cannot") || got.Error.Hint == "" {
		t.Errorf("refusal %+v, want it to name the adapter and a hint", got.Error)
	}
	mcpTop(t, c, id, src, line)
	mcpFinish(t, c, id, lp.output)
}
