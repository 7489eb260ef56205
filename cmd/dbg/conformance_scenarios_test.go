package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// exceptionCase is a program that throws.
type exceptionCase struct {
	program, src string
	args         []string
	mode         string   // breakOnExceptions (default the language's)
	mark         string   // the line that throws
	deep         bool     // the stop is inside the runtime: the line is on the stack, not at the stop
	message      []string // texts of the stop's text or description; "a|b" is either
	eval, want   string   // evaluated in the frame of the throw
	before       string   // printed before the stop
	ends         bool     // continuing ends the program
	after        string   // printed after continuing (implies ends)
}

// spin is a program that runs until it is stopped.
type spin struct {
	program, src string
	args         []string
}

// attachWay is one way a language attaches: by "processId" or "port", to
// a target start starts; or, when refused is set, the refusal it answers.
// unless, when set, asks the server whether this machine can attach this
// way: when it cannot, it returns the refusal the attach to a started
// target must answer, the target left running. flow, when set, is the
// way's own attach flow.
type attachWay struct {
	by      string
	name    string // the subtest's name (default by)
	start   func(t *testing.T) target
	refused *refusal
	unless  func(t *testing.T, c *client) *refusal
	flow    func(t *testing.T, c *client, tg target) // the attach flow (default mcpAttach)
}

// features walks the breakpoint kinds and run controls on the loop: a
// conditional breakpoint true on one pass, restart_debugging (breakpoints
// kept, the old debuggee gone), a log point and run_to_line.
type features struct {
	cond      string // true on pass n only
	n         string // the loop variable at that pass
	logNext   string // the log point's message on the pass after it ("lp <n+1>")
	runTo     string // a line after the loop
	totalExpr string // evaluated at runTo
	total     string
}

// td returns the path of a testdata file.
func td(rel string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", rel)
}

func (f loopFixture) srcPath() string {
	if f.src != "" {
		return td(f.src)
	}
	return td(f.program)
}

// debuggee returns the pids of the session's debuggee (none when the
// adapter runs the program in process).
func (l *lang) debuggee(t *testing.T, c *client, program string) []int {
	t.Helper()
	if l.noPID {
		return nil
	}
	return mcpDebuggee(t, c, program)
}

func (l *lang) hitFixture() loopFixture {
	if l.hit != nil {
		return *l.hit
	}
	return l.loop
}

// scenarioLaunch runs to a breakpoint on the loop body, reads the stack,
// scopes and locals by value, steps over, evaluates (with and without
// side effects, and the live edits the status names), and runs to the
// end.
func scenarioLaunch(t *testing.T, c *client, l *lang) {
	lp := l.loop
	src := lp.srcPath()
	line := mcpLine(t, src, lp.mark)
	s := c.ok("create_debug_session", map[string]any{"language": l.name, "name": "conformance"})
	id := s.str("sessionId")
	if id == "" || s.str("state") != "created" {
		t.Fatalf("create: %v", s)
	}
	bp := c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": line})
	if bp.num("line") != line || bp.str("lineText") == "" {
		t.Fatalf("set_breakpoint: %v", bp)
	}
	st := mcpPaused(t, c, id, c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": td(lp.program)}))
	if st.str("lastStop.reason") != "breakpoint" || st.num("lastStop.location.line") != line {
		t.Fatalf("first stop %v, want a breakpoint at line %d", st.get("lastStop"), line)
	}
	top := mcpTop(t, c, id, src, line)
	scopes := c.ok("get_scopes", map[string]any{"sessionId": id, "frameId": top.num("id")})
	if len(scopes.list("scopes")) == 0 || scopes.num("scopes.0.variablesReference") == 0 {
		t.Fatalf("scopes: %v", scopes)
	}
	if vars := c.ok("get_variables", map[string]any{"sessionId": id, "scope": scopes.num("scopes.0.variablesReference")}); len(vars.list("variables")) == 0 {
		t.Fatalf("no variables in the first scope: %v", vars)
	}
	mcpCheckLocals(t, mcpLocals(t, c, id), lp.locals)
	step := c.ok("step_over", map[string]any{"sessionId": id})
	if step.str("state") != "paused" || step.num("lastStop.location.line") != line+lp.step {
		t.Fatalf("step_over: %v, want line %d", step.get("lastStop"), line+lp.step)
	}
	if !sourceFits(step, 5) {
		t.Errorf("step_over answered no source context: %v", step)
	}
	unknown := lp.unknown
	if unknown == "" {
		unknown = "nosuch"
	}
	mcpEvalFails(t, c, id, unknown)
	if got := mcpEval(t, c, id, lp.eval); got != lp.evalWant {
		t.Errorf("evaluate %s = %q, want %q", lp.eval, got, lp.evalWant)
	}
	checkLiveEdits(t, c, id, l)
	mcpFinish(t, c, id, lp.output)
}

// scenarioEntry starts with stopOnEntry: the program stops before running
// any of its code (no output yet), then runs to its end.
func scenarioEntry(t *testing.T, c *client, l *lang) {
	id := c.ok("create_debug_session", map[string]any{"language": l.name}).str("sessionId")
	st := mcpPaused(t, c, id, c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": td(l.loop.program), "stopOnEntry": true}))
	if st.str("lastStop.reason") != "entry" {
		t.Errorf("stop reason %q, want entry (%v)", st.str("lastStop.reason"), st.get("lastStop"))
	}
	if out := c.ok("get_output", map[string]any{"sessionId": id, "category": "stdout"}).str("text"); strings.Contains(out, l.loop.output) {
		t.Errorf("the program ran before its entry stop: %q", out)
	}
	if r := l.loop.entryStack; r != nil {
		checkRefusal(t, c.fail("get_stack_trace", map[string]any{"sessionId": id}, r.code), *r)
	} else if len(c.ok("get_stack_trace", map[string]any{"sessionId": id}).list("stackFrames")) == 0 {
		t.Errorf("no stack at the entry stop")
	}
	mcpFinish(t, c, id, l.loop.output)
}

// scenarioPause launches a program that runs until stopped, pauses it
// twice (a frame in its source each time), restarts it while it runs (a
// new debuggee, the old one gone), pauses again and closes.
func scenarioPause(t *testing.T, c *client, l *lang) {
	program, src := td(l.spin.program), td(l.spin.program)
	if l.spin.src != "" {
		src = td(l.spin.src)
	}
	id := c.ok("create_debug_session", map[string]any{"language": l.name}).str("sessionId")
	st := c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": program, "args": l.spin.args})
	if st.str("state") != "running" {
		t.Fatalf("start: %v, want running", st)
	}
	// Pause once the program prints: a pause during the interpreter's or
	// runtime's start-up on a loaded machine stops in no frame of src.
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if c.ok("get_output", map[string]any{"sessionId": id}).str("text") != "" {
			break
		}
	}
	for round := 0; round < 2; round++ {
		time.Sleep(500 * time.Millisecond)
		p := mcpPaused(t, c, id, c.ok("pause_execution", map[string]any{"sessionId": id}))
		if p.str("lastStop.reason") != "pause" {
			t.Errorf("round %d: pause stop reason %q", round, p.str("lastStop.reason"))
		}
		if mcpFrameIn(t, c, id, p.num("lastStop.threadId"), src, 0) == nil {
			t.Fatalf("round %d: no frame in %s after pause: %v", round, src,
				c.ok("get_stack_trace", map[string]any{"sessionId": id, "threadId": p.num("lastStop.threadId"), "levels": 50}).get("stackFrames"))
		}
		if r := c.ok("continue_execution", map[string]any{"sessionId": id}); r.str("state") != "running" {
			t.Fatalf("continue: %v", r)
		}
		if round == 0 {
			// A running program runs on: continuing it again is no
			// error, and a step names what would do.
			if r := c.ok("continue_execution", map[string]any{"sessionId": id}); r.str("state") != "running" || r.get("pending") != true {
				t.Errorf("continue of a running program: %v", r)
			}
			if r := c.fail("step_over", map[string]any{"sessionId": id}, "INVALID_STATE"); r.Error.NextAction == "CONTINUE" || !strings.Contains(r.Error.Hint, "pause_execution") {
				t.Errorf("step of a running program: %+v", r.Error)
			}
		}
	}
	old := l.debuggee(t, c, program)
	if r := c.ok("restart_debugging", map[string]any{"sessionId": id}); r.str("state") != "running" {
		t.Errorf("restart of a running program answered %v", r)
	}
	waitGone(t, 10*time.Second, old...)
	pids := l.debuggee(t, c, program)
	if !l.noPID && pids[0] == old[0] {
		t.Errorf("the same debuggee %d after restart", pids[0])
	}
	p := mcpPaused(t, c, id, c.ok("pause_execution", map[string]any{"sessionId": id}))
	if p.str("lastStop.reason") != "pause" {
		t.Errorf("pause after restart: %v", p.get("lastStop"))
	}
	mcpClose(t, c, id, pids)
}

// scenarioAttach attaches to a running target each way the language
// allows, and checks each refusal it declares.
func scenarioAttach(t *testing.T, c *client, l *lang) {
	if len(l.attach) == 0 {
		t.Fatalf("%s declares no way to attach and no refusal", l.name)
	}
	for _, w := range l.attach {
		name := w.name
		if name == "" {
			name = w.by
		}
		t.Run(name, func(t *testing.T) {
			c := scenarioClient(t, c)
			if w.refused != nil {
				args := map[string]any{"language": l.name, "processId": 1}
				if w.by == "port" {
					args = map[string]any{"language": l.name, "port": freePort(t)}
				}
				checkRefusal(t, c.fail("create_debug_session", args, w.refused.code), *w.refused)
				return
			}
			tg := w.start(t)
			if w.unless != nil {
				if r := w.unless(t, c); r != nil {
					checkRefusal(t, c.fail("create_debug_session", tg.attachArgs(l.name, w.by), r.code), *r)
					mcpStillRunning(t, tg)
					return
				}
			}
			if w.flow != nil {
				w.flow(t, c, tg)
				return
			}
			mcpAttach(t, c, tg.attachArgs(l.name, w.by), tg)
		})
	}
}

func checkRefusal(t *testing.T, r result, want refusal) {
	t.Helper()
	if !strings.Contains(r.Error.Message+" "+r.Error.Hint, want.says) {
		t.Errorf("refusal %s: %q (hint %q) does not say %q", r.Error.Code, r.Error.Message, r.Error.Hint, want.says)
	}
}

// scenarioSetVariable changes a local at a stop, reads it back and sees
// the program print its effect.
func scenarioSetVariable(t *testing.T, c *client, l *lang) {
	sv := l.setVar
	mark := sv.mark
	if mark == "" {
		mark = l.loop.mark
	}
	src := l.loop.srcPath()
	line := mcpLine(t, src, mark)
	id, st := mcpLaunch(t, c, l.name, src, []int{line}, td(l.loop.program), nil)
	if st.num("lastStop.location.line") != line {
		t.Fatalf("first stop %v, want line %d", st.get("lastStop"), line)
	}
	r := c.ok("set_variable", map[string]any{"sessionId": id, "name": sv.name, "value": sv.value})
	if r.str("result") != sv.value {
		t.Errorf("set_variable %s = %s answered %v", sv.name, sv.value, r)
	}
	if got := mcpLocals(t, c, id)[sv.name].str("value"); got != sv.value {
		t.Errorf("local %s = %q after set_variable, want %q", sv.name, got, sv.value)
	}
	if got := mcpEval(t, c, id, sv.name); got != sv.value {
		t.Errorf("%s evaluates to %q after set_variable, want %q", sv.name, got, sv.value)
	}
	mcpFinish(t, c, id, sv.output)
}

// scenarioHitCondition: hitCondition "3" stops on the third pass of the
// loop body only, never on the fourth; ">= 3" stops on the third and the
// fourth.
func scenarioHitCondition(t *testing.T, c *client, l *lang) {
	h := l.hitFixture()
	src := h.srcPath()
	line := mcpLine(t, src, h.mark)
	start := func(t *testing.T, c *client, cond string) string {
		t.Helper()
		id := c.ok("create_debug_session", map[string]any{"language": l.name}).str("sessionId")
		c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": line, "hitCondition": cond})
		return id
	}
	pass := func(t *testing.T, c *client, id, cond string, st obj, n int) {
		t.Helper()
		st = mcpPaused(t, c, id, st)
		if st.num("lastStop.location.line") != line {
			t.Fatalf("hitCondition %q: stop %v, want line %d", cond, st.get("lastStop"), line)
		}
		if got := mcpEval(t, c, id, h.loopVar); got != h.passes[n-1] {
			t.Fatalf("hitCondition %q stopped with %s = %q, want %q (pass %d)", cond, h.loopVar, got, h.passes[n-1], n)
		}
	}
	t.Run("exact", func(t *testing.T) {
		c := scenarioClient(t, c)
		id := start(t, c, "3")
		pass(t, c, id, "3", c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": td(h.program)}), 3)
		pids := mcpPIDs(t, c)
		end := c.ok("continue_execution", map[string]any{"sessionId": id})
		if end.str("state") != "terminated" {
			end = c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 60000})
		}
		if end.str("state") != "terminated" {
			t.Fatalf("hitCondition \"3\" stopped again after the third hit, with %s = %q: a bare N must stop on the Nth hit only (%v)",
				h.loopVar, mcpEval(t, c, id, h.loopVar), end.get("lastStop"))
		}
		mcpOutputHas(t, c, id, h.output)
		mcpClose(t, c, id, pids)
	})
	t.Run("from", func(t *testing.T) {
		c := scenarioClient(t, c)
		id := start(t, c, ">= 3")
		pass(t, c, id, ">= 3", c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": td(h.program)}), 3)
		pass(t, c, id, ">= 3", c.ok("continue_execution", map[string]any{"sessionId": id}), 4)
		mcpFinish(t, c, id, h.output)
	})
}

func (f funcBreakpoint) paths(l *lang) (program, src string) {
	program, src = td(l.loop.program), l.loop.srcPath()
	if f.program != "" {
		program, src = td(f.program), td(f.program)
	}
	if f.src != "" {
		src = td(f.src)
	}
	return program, src
}

// scenarioFunction stops at a function breakpoint: on the first line of
// the function's body, with its argument readable, listed verified.
func scenarioFunction(t *testing.T, c *client, l *lang) {
	f := l.fn
	program, src := f.paths(l)
	id := c.ok("create_debug_session", map[string]any{"language": l.name}).str("sessionId")
	c.ok("set_breakpoint", map[string]any{"sessionId": id, "function": f.name})
	args := map[string]any{"sessionId": id, "scriptPath": program}
	for k, v := range f.start {
		args[k] = v
	}
	st := mcpPaused(t, c, id, c.ok("start_debugging", args))
	if r := st.str("lastStop.reason"); r != "function breakpoint" && r != "breakpoint" {
		t.Errorf("stop reason %q", r)
	}
	line := mcpLine(t, src, f.mark)
	if st.num("lastStop.location.line") != line || st.str("lastStop.location.file") != src {
		t.Fatalf("stop %v, want %s:%d", st.get("lastStop"), src, line)
	}
	if got := mcpEval(t, c, id, f.arg); got != f.want {
		t.Errorf("%s = %q in %s, want %q", f.arg, got, f.name, f.want)
	}
	bps := c.ok("list_breakpoints", map[string]any{"sessionId": id}).list("breakpoints")
	if len(bps) != 1 || bps[0].get("verified") != true {
		t.Errorf("function breakpoint listed as %v", bps)
	}
	mcpFinish(t, c, id, f.output)
}

// refusedFunction: the language has no function breakpoints. Setting one
// fails with the refusal's code, or is listed unverified with the reason;
// either way the program runs to its end without stopping.
func refusedFunction(t *testing.T, c *client, l *lang, r refusal) {
	program, _ := l.fn.paths(l)
	id := c.ok("create_debug_session", map[string]any{"language": l.name}).str("sessionId")
	if r.code != "" {
		checkRefusal(t, c.fail("set_breakpoint", map[string]any{"sessionId": id, "function": l.fn.name}, r.code), r)
	} else {
		c.ok("set_breakpoint", map[string]any{"sessionId": id, "function": l.fn.name})
	}
	pids := []int{}
	st := c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": program})
	if st.str("state") != "terminated" {
		pids = mcpPIDs(t, c)
		st = c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 60000})
	}
	if st.str("state") != "terminated" {
		t.Fatalf("the program stopped at an unsupported function breakpoint: %v", st.get("lastStop"))
	}
	if r.code == "" {
		bps := c.ok("list_breakpoints", map[string]any{"sessionId": id}).list("breakpoints")
		if len(bps) != 1 || bps[0].get("verified") != false || !strings.Contains(bps[0].str("message"), r.says) {
			t.Errorf("function breakpoint listed as %v, want unverified saying %q", bps, r.says)
		}
	}
	mcpOutputHas(t, c, id, l.fn.output)
	mcpClose(t, c, id, pids)
}

// scenarioException runs a program that throws: it stops at the throw
// with the exception's message, its frame readable; continuing ends it.
func scenarioException(t *testing.T, c *client, l *lang) {
	e := l.exc
	program, src := td(e.program), td(e.program)
	if e.src != "" {
		src = td(e.src)
	}
	id := c.ok("create_debug_session", map[string]any{"language": l.name}).str("sessionId")
	args := map[string]any{"sessionId": id, "scriptPath": program, "args": e.args}
	if e.mode != "" {
		args["breakOnExceptions"] = e.mode
	}
	st := mcpPaused(t, c, id, c.ok("start_debugging", args))
	line := mcpLine(t, src, e.mark)
	if st.str("lastStop.reason") != "exception" {
		t.Fatalf("stop %v, want an exception", st.get("lastStop"))
	}
	if !e.deep && (st.num("lastStop.location.line") != line || st.str("lastStop.location.file") != src) {
		t.Fatalf("stop %v, want the exception at %s:%d", st.get("lastStop"), src, line)
	}
	text := strings.ToLower(st.str("lastStop.text") + " " + st.str("lastStop.description"))
	for _, m := range e.message {
		if !slices.ContainsFunc(strings.Split(m, "|"), func(alt string) bool { return strings.Contains(text, strings.ToLower(alt)) }) {
			t.Errorf("exception stop text %q lacks %q", text, m)
		}
	}
	frame := mcpFrameIn(t, c, id, st.num("lastStop.threadId"), src, line)
	if frame == nil {
		t.Fatalf("no frame at the throw (%s:%d)", src, line)
	}
	if e.eval != "" {
		r := c.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": e.eval, "frameId": frame.num("id")})
		if r.str("result") != e.want {
			t.Errorf("%s = %q at the throw, want %q", e.eval, r.str("result"), e.want)
		}
	}
	if e.before != "" {
		mcpOutputHas(t, c, id, e.before)
	}
	pids := mcpPIDs(t, c)
	if e.ends || e.after != "" {
		mcpRunToEnd(t, c, id)
		if e.after != "" {
			mcpOutputHas(t, c, id, e.after)
		}
	}
	mcpClose(t, c, id, pids)
}

// scenarioFeatures: a conditional breakpoint, restart_debugging at it, a
// log point, and run_to_line past the loop.
func scenarioFeatures(t *testing.T, c *client, l *lang) {
	f, lp := l.feat, l.loop
	src, program := lp.srcPath(), td(lp.program)
	line := mcpLine(t, src, lp.mark)
	id := c.ok("create_debug_session", map[string]any{"language": l.name}).str("sessionId")
	bp := c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": line, "condition": f.cond})
	st := mcpPaused(t, c, id, c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": program}))
	if st.num("lastStop.location.line") != line {
		t.Fatalf("first stop %v, want line %d", st.get("lastStop"), line)
	}
	if got := mcpEval(t, c, id, lp.loopVar); got != f.n {
		t.Fatalf("conditional breakpoint %q stopped with %s = %q", f.cond, lp.loopVar, got)
	}
	old := l.debuggee(t, c, program)
	st = mcpPaused(t, c, id, c.ok("restart_debugging", map[string]any{"sessionId": id}))
	if st.num("lastStop.location.line") != line {
		t.Fatalf("stop after restart %v, want line %d", st.get("lastStop"), line)
	}
	if got := mcpEval(t, c, id, lp.loopVar); got != f.n {
		t.Fatalf("after restart the conditional breakpoint stopped with %s = %q", lp.loopVar, got)
	}
	waitGone(t, 10*time.Second, old...)
	if now := l.debuggee(t, c, program); !l.noPID && now[0] == old[0] {
		t.Errorf("debuggee pid %d after restart, was %d", now[0], old[0])
	}
	c.ok("remove_breakpoint", map[string]any{"sessionId": id, "breakpointId": bp.num("id")})
	c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": line, "logMessage": "lp {" + lp.loopVar + "}"})
	runTo := mcpLine(t, src, f.runTo)
	st = mcpPaused(t, c, id, c.ok("run_to_line", map[string]any{"sessionId": id, "file": src, "line": runTo, "waitMs": 30000}))
	if st.num("lastStop.location.line") != runTo {
		t.Fatalf("run_to_line: %v, want line %d", st.get("lastStop"), runTo)
	}
	// Its temporary breakpoint is no breakpoint of the caller's.
	if st.str("lastStop.reason") != "run to line" || st.get("lastStop.hitBreakpointIds") != nil {
		t.Errorf("run_to_line stopped with %v, want reason \"run to line\" and no breakpoint id", st.get("lastStop"))
	}
	if bps := c.ok("list_breakpoints", map[string]any{"sessionId": id}).list("breakpoints"); len(bps) != 1 || bps[0].str("logMessage") == "" {
		t.Errorf("breakpoints after run_to_line: %v, want the log point alone", bps)
	}
	if got := mcpEval(t, c, id, f.totalExpr); got != f.total {
		t.Errorf("%s at line %d = %q, want %q", f.totalExpr, runTo, got, f.total)
	}
	mcpOutputHas(t, c, id, f.logNext)
	mcpFinish(t, c, id, lp.output)
}

// scenarioOutput runs the program without breakpoints: get_output holds
// its printed line.
func scenarioOutput(t *testing.T, c *client, l *lang) {
	id := c.ok("create_debug_session", map[string]any{"language": l.name}).str("sessionId")
	mcpEnded(t, c, id, c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": td(l.loop.program)}))
	mcpOutputHas(t, c, id, l.loop.output)
	out := c.ok("get_output", map[string]any{"sessionId": id, "category": "stdout"}).str("text")
	if !strings.Contains(out, l.loop.output) {
		t.Errorf("stdout %q lacks %q", out, l.loop.output)
	}
	mcpClose(t, c, id, nil)
}

// scenarioLeftovers stops a program at a breakpoint and closes the
// session there: the debuggee (named by list_debug_sessions), the adapter
// and every other process the server started are gone.
func scenarioLeftovers(t *testing.T, c *client, l *lang) {
	src := l.loop.srcPath()
	id, _ := mcpLaunch(t, c, l.name, src, []int{mcpLine(t, src, l.loop.mark)}, td(l.loop.program), nil)
	pids := mcpPIDs(t, c)
	kids := childrenOf(c.cmd.Process.Pid)
	if !l.noPID && (pids[0] <= 0 || !slices.Contains(kids, pids[0])) {
		t.Errorf("list_debug_sessions pid = %d, want the debuggee among the server's processes %v", pids[0], kids)
	}
	if b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pids[0])); l.cmdline != "" && !strings.Contains(string(b), l.cmdline) {
		t.Errorf("list_debug_sessions pid %d runs %q, want the debuggee of %s", pids[0], strings.ReplaceAll(string(b), "\x00", " "), l.cmdline)
	}
	mcpClose(t, c, id, append(pids, kids...))
}
