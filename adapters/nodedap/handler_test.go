package nodedap

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLaunchLoop(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	script := fixture(t, "loop.js")
	line := lineOf(t, script, "BP:loop")
	c.launch(map[string]any{"program": script})
	proc := body[struct {
		SystemProcessID int `json:"systemProcessId"`
		StartMethod     string
	}](t, c.seen("process"))
	if cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", proc.SystemProcessID)); !strings.Contains(string(cmdline), script) || proc.StartMethod != "launch" {
		t.Fatalf("process event %+v: cmdline %q", proc, cmdline)
	}
	bps := c.setBreakpoints(script, map[string]any{"line": line})
	if len(bps) != 1 || !bps[0].Verified || bps[0].Line != line {
		t.Fatalf("breakpoints %+v", bps)
	}
	c.req("setExceptionBreakpoints", map[string]any{"filters": []string{"uncaught"}})
	c.req("configurationDone", nil)

	st := c.stopped()
	want(t, "reason", st.Reason, "breakpoint")
	if len(st.HitBreakpointIDs) != 1 || st.HitBreakpointIDs[0] != bps[0].ID {
		t.Fatalf("hitBreakpointIds %v, want [%d]", st.HitBreakpointIDs, bps[0].ID)
	}
	f := c.frames()[0]
	want(t, "path", f.Source.Path, script)
	want(t, "line", f.Line, line)
	loc := c.locals()
	want(t, "i", loc["i"].Value, "0")
	want(t, "total", loc["total"].Value, "0")

	c.req("continue", map[string]any{"threadId": 1})
	want(t, "reason", c.stopped().Reason, "breakpoint")
	f = c.frames()[0]
	want(t, "i", c.locals()["i"].Value, "1")
	want(t, "i*10", c.eval("i * 10", f.ID).Value, "10")
	want(t, "string", c.eval("`t=${total}`", f.ID).Value, `"t=0"`)

	// setVariable changes what the program computes next.
	ref := c.scopes(f.ID)["Local"]
	m := c.req("setVariable", map[string]any{"variablesReference": ref, "name": "i", "value": "3"})
	want(t, "setVariable", body[struct{ Value string }](t, m).Value, "3")
	// The locals read afterwards are the program's values, not the pause's
	// snapshot: after setVariable and after an assignment evaluated.
	want(t, "i after setVariable", c.locals()["i"].Value, "3")
	want(t, "assignment", c.eval("total = 0", f.ID).Value, "0")
	want(t, "total after assignment", c.locals()["total"].Value, "0")

	// Step over: the next line of the loop body.
	c.req("next", map[string]any{"threadId": 1})
	want(t, "reason", c.stopped().Reason, "step")
	want(t, "line after next", c.frames()[0].Line, line+1)

	c.setBreakpoints(script)
	c.req("continue", map[string]any{"threadId": 1})
	ex := body[struct{ ExitCode int }](t, c.event("exited"))
	want(t, "exit code", ex.ExitCode, 0)
	c.event("terminated")
	out := c.outputText()
	for _, s := range []string{"i=3 total=3", "i=4 total=7", "done 7"} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q: %q", s, out)
		}
	}
	if strings.Contains(out, "Debugger") {
		t.Errorf("inspector noise in output: %q", out)
	}
}

func TestClosureScopes(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	script := fixture(t, "closure.js")
	c.breakAt(script, "BP:closure")
	f := c.frames()[0]
	want(t, "function", f.Name, "increment")
	scopes := c.scopes(f.ID)
	want(t, "step", c.vars(scopes["Local"])["step"].Value, "1")
	var closure map[string]variable
	for name, ref := range scopes {
		if strings.HasPrefix(name, "Closure") {
			closure = c.vars(ref)
		}
	}
	if closure == nil {
		t.Fatalf("no closure scope in %v", scopes)
	}
	want(t, "count", closure["count"].Value, "10")
	want(t, "label", closure["label"].Value, `"counter"`)
	// Closure variables read back as the program has them after an
	// assignment evaluated and after setVariable.
	closureRef := 0
	for name, ref := range scopes {
		if strings.HasPrefix(name, "Closure") {
			closureRef = ref
		}
	}
	c.eval("count = 42", f.ID)
	want(t, "count after assignment", c.vars(closureRef)["count"].Value, "42")
	c.req("setVariable", map[string]any{"variablesReference": closureRef, "name": "label", "value": `"renamed"`})
	want(t, "label after setVariable", c.vars(closureRef)["label"].Value, `"renamed"`)
	want(t, "label evaluated", c.eval("label", f.ID).Value, `"renamed"`)
	if _, ok := scopes["Global"]; !ok {
		t.Errorf("no Global scope in %v", scopes)
	}
	// The caller's frame is the module's top level.
	fs := c.frames()
	if len(fs) < 2 || fs[1].Line != lineOf(t, script, "console.log(inc(1))") {
		t.Errorf("caller frame %+v", fs)
	}
	for _, fr := range fs {
		if strings.HasPrefix(fr.Source.Path, "node:") || fr.Source.Path == "" {
			t.Errorf("internal frame shown: %+v", fr)
		}
	}
}

func TestAsyncStepInto(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	script := fixture(t, "async.js")
	c.breakAt(script, "BP:async-call")
	c.req("stepIn", map[string]any{"threadId": 1})
	want(t, "reason", c.stopped().Reason, "step")
	f := c.frames()[0]
	want(t, "function", f.Name, "fetchValue")
	want(t, "line", f.Line, lineOf(t, script, "BP:async-enter"))
	want(t, "x", c.locals()["x"].Value, "20")
	c.req("next", map[string]any{"threadId": 1})
	c.stopped()
	c.req("next", map[string]any{"threadId": 1}) // over the await
	c.stopped()
	f = c.frames()[0]
	want(t, "line after await", f.Line, lineOf(t, script, "BP:after-await"))
	want(t, "doubled", c.locals()["doubled"].Value, "40")
	c.req("stepOut", map[string]any{"threadId": 1})
	want(t, "reason", c.stopped().Reason, "step")
	want(t, "after stepOut", c.frames()[0].Name, "main")
	c.finish("value 41")
}

func TestClassVariables(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	script := fixture(t, "class.js")
	c.breakAt(script, "BP:deposit")
	loc := c.locals()
	want(t, "amount", loc["amount"].Value, "50")
	this := loc["this"]
	if this.VariablesReference == 0 {
		t.Fatalf("this not expandable: %+v", this)
	}
	fields := c.vars(this.VariablesReference)
	want(t, "owner", fields["owner"].Value, `"ada"`)
	want(t, "balance", fields["balance"].Value, "100")
	want(t, "history", fields["history"].Value, "[100]")
	hist := c.vars(fields["history"].VariablesReference)
	want(t, "history[0]", hist["0"].Value, "100")
	named := body[struct{ Variables []variable }](t, c.req("variables", map[string]any{"variablesReference": fields["history"].VariablesReference, "filter": "named"})).Variables
	if len(named) != 1 || named[0].Name != "length" {
		t.Fatalf("named children of history: %+v", named)
	}
	indexed := body[struct{ Variables []variable }](t, c.req("variables", map[string]any{"variablesReference": fields["history"].VariablesReference, "filter": "indexed", "start": 0, "count": 1})).Variables
	if len(indexed) != 1 || indexed[0].Name != "0" {
		t.Fatalf("indexed children of history: %+v", indexed)
	}

	tags := c.vars(fields["tags"].VariablesReference)
	want(t, "tags.tier", tags["tier"].Value, `"gold"`)
	want(t, "tags.region", tags["region"].Value, `"eu"`)
	if !strings.Contains(fields["tags"].Value, "tier") {
		t.Errorf("map preview %q", fields["tags"].Value)
	}
	flags := c.vars(fields["flags"].VariablesReference)
	want(t, "flags[0]", flags["0"].Value, `"active"`)
	want(t, "flags[1]", flags["1"].Value, `"verified"`)

	// A getter is shown, never run.
	top := c.frames()[1]
	view := c.eval("view", top.ID)
	vv := c.vars(view.VariablesReference)
	want(t, "getter", vv["expensive"].Value, "(getter)")
	want(t, "plain", vv["plain"].Value, "1")
	want(t, "getterCalls", c.eval("getterCalls", top.ID).Value, "0")

	// setVariable on an object property.
	c.req("setVariable", map[string]any{"variablesReference": this.VariablesReference, "name": "balance", "value": "1000"})
	c.finish("balance 1050 getterCalls 0 1")
}

func TestExceptions(t *testing.T) {
	t.Parallel()
	script := fixture(t, "throw.js")
	line := lineOf(t, script, "BP:throw")
	t.Run("uncaught", func(t *testing.T) {
		c := newClient(t)
		c.launch(map[string]any{"program": script})
		c.req("setExceptionBreakpoints", map[string]any{"filters": []string{"uncaught"}})
		c.req("configurationDone", nil)
		st := c.stopped()
		want(t, "reason", st.Reason, "exception")
		want(t, "text", st.Text, "RangeError: value 3 is too large")
		want(t, "line", c.frames()[0].Line, line)
		info := body[struct {
			ExceptionID string
			Description string
			BreakMode   string
		}](t, c.req("exceptionInfo", map[string]any{"threadId": 1}))
		want(t, "exceptionId", info.ExceptionID, "RangeError")
		want(t, "description", info.Description, "RangeError: value 3 is too large")
		want(t, "breakMode", info.BreakMode, "unhandled")
		c.req("continue", map[string]any{"threadId": 1})
		want(t, "exit code", body[struct{ ExitCode int }](t, c.event("exited")).ExitCode, 1)
		if !strings.Contains(c.outputText(), "caught value 5 is too large") {
			t.Errorf("output %q", c.outputText())
		}
	})
	t.Run("all", func(t *testing.T) {
		c := newClient(t)
		c.launch(map[string]any{"program": script})
		c.req("setExceptionBreakpoints", map[string]any{"filters": []string{"all"}})
		c.req("configurationDone", nil)
		st := c.stopped()
		want(t, "reason", st.Reason, "exception")
		want(t, "text", st.Text, "RangeError: value 5 is too large")
	})
}

func TestConditionsHitCountsLogpoints(t *testing.T) {
	t.Parallel()
	script := fixture(t, "loop.js")
	line := lineOf(t, script, "BP:loop")
	t.Run("condition", func(t *testing.T) {
		c := newClient(t)
		c.launch(map[string]any{"program": script})
		c.setBreakpoints(script, map[string]any{"line": line, "condition": "i === 3"})
		c.req("configurationDone", nil)
		c.stopped()
		want(t, "i", c.locals()["i"].Value, "3")
		c.req("continue", map[string]any{"threadId": 1})
		c.event("terminated")
	})
	t.Run("hitCondition", func(t *testing.T) {
		c := newClient(t)
		c.launch(map[string]any{"program": script})
		c.setBreakpoints(script, map[string]any{"line": line, "hitCondition": ">= 4"})
		c.req("configurationDone", nil)
		c.stopped()
		want(t, "i", c.locals()["i"].Value, "3")
		c.req("continue", map[string]any{"threadId": 1})
		c.stopped()
		want(t, "i", c.locals()["i"].Value, "4")
	})
	t.Run("bad hitCondition", func(t *testing.T) {
		c := newClient(t)
		c.launch(map[string]any{"program": script})
		bps := c.setBreakpoints(script, map[string]any{"line": line, "hitCondition": "often"})
		if bps[0].Verified || !strings.Contains(bps[0].Message, "hit condition") {
			t.Fatalf("%+v", bps[0])
		}
	})
	t.Run("logpoint", func(t *testing.T) {
		c := newClient(t)
		c.launch(map[string]any{"program": script})
		c.setBreakpoints(script, map[string]any{"line": line, "logMessage": "at {i} with {total}"})
		c.req("configurationDone", nil)
		c.event("terminated")
		if c.maybeEvent("stopped", 0) != nil {
			t.Fatal("a logpoint stopped the program")
		}
		for _, s := range []string{"at 0 with 0", "at 4 with 6"} {
			if !strings.Contains(c.outputText(), s) {
				t.Errorf("output lacks %q: %q", s, c.outputText())
			}
		}
	})
}

func TestFunctionBreakpoint(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	script := fixture(t, "class.js")
	c.launch(map[string]any{"program": script})
	m := c.req("setFunctionBreakpoints", map[string]any{"breakpoints": []map[string]any{{"name": "Account.deposit"}, {"name": "nosuch"}}})
	bps := body[struct{ Breakpoints []dapBreakpoint }](t, m).Breakpoints
	if !bps[0].Verified || bps[0].Line != lineOf(t, script, "BP:deposit") {
		t.Fatalf("deposit: %+v", bps[0])
	}
	if bps[1].Verified || !strings.Contains(bps[1].Message, "nosuch") {
		t.Fatalf("nosuch: %+v", bps[1])
	}
	c.req("configurationDone", nil)
	st := c.stopped()
	want(t, "reason", st.Reason, "function breakpoint")
	want(t, "function", c.frames()[0].Name, "deposit")
}

func TestStopOnEntry(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	script := fixture(t, "loop.js")
	c.launch(map[string]any{"program": script, "stopOnEntry": true})
	c.req("configurationDone", nil)
	want(t, "reason", c.stopped().Reason, "entry")
	want(t, "line", c.frames()[0].Line, lineOf(t, script, "let total = 0"))
	c.req("disconnect", map[string]any{"terminateDebuggee": true})
}

func TestPause(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	script := fixture(t, "spin.js")
	c.launch(map[string]any{"program": script})
	c.req("configurationDone", nil)
	c.req("pause", map[string]any{"threadId": 1})
	want(t, "reason", c.stopped().Reason, "pause")
	f := c.frames()[0]
	want(t, "path", f.Source.Path, script)
	if n := c.eval("n", f.ID).Value; n == "" || strings.Trim(n, "0123456789") != "" {
		t.Fatalf("n = %q", n)
	}
	// Stepping from the loop reaches tick.
	c.setBreakpoints(script, map[string]any{"line": lineOf(t, script, "BP:tick")})
	c.req("continue", map[string]any{"threadId": 1})
	want(t, "reason", c.stopped().Reason, "breakpoint")
	want(t, "function", c.frames()[0].Name, "tick")
	pid := c.eval("process.pid", 0).Value
	c.req("disconnect", map[string]any{"terminateDebuggee": true})
	waitGone(t, pid)
}

func TestBreakpointInModuleLoadedLater(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	main := fixture(t, "require_lazy.js")
	lib := fixture(t, "lib/shapes.js")
	line := lineOf(t, lib, "BP:area")
	c.launch(map[string]any{"program": main})
	bps := c.setBreakpoints(lib, map[string]any{"line": line})
	if bps[0].Verified {
		t.Fatalf("verified before the module loaded: %+v", bps[0])
	}
	c.req("configurationDone", nil)
	ev := body[struct {
		Reason     string
		Breakpoint dapBreakpoint
	}](t, c.event("breakpoint"))
	if ev.Reason != "changed" || !ev.Breakpoint.Verified || ev.Breakpoint.ID != bps[0].ID || ev.Breakpoint.Line != line {
		t.Fatalf("breakpoint event %+v", ev)
	}
	st := c.stopped()
	want(t, "reason", st.Reason, "breakpoint")
	f := c.frames()[0]
	want(t, "path", f.Source.Path, lib)
	want(t, "w", c.locals()["w"].Value, "3")
}

func TestWorkerThreads(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	script := fixture(t, "worker.js")
	c.launch(map[string]any{"program": script})
	c.setBreakpoints(script, map[string]any{"line": lineOf(t, script, "BP:message")}, map[string]any{"line": lineOf(t, script, "BP:worker")})
	c.req("configurationDone", nil)
	started := body[struct {
		Reason   string
		ThreadID int
	}](t, c.event("thread"))
	want(t, "thread event", started.Reason, "started")
	worker := started.ThreadID

	// The worker stops at its own breakpoint, on its own thread.
	st := c.stopped()
	want(t, "worker stop thread", st.ThreadID, worker)
	want(t, "reason", st.Reason, "breakpoint")
	m := c.req("stackTrace", map[string]any{"threadId": worker})
	wf := body[struct{ StackFrames []frame }](t, m).StackFrames[0]
	want(t, "worker line", wf.Line, lineOf(t, script, "BP:worker"))
	want(t, "worker path", wf.Source.Path, script)
	ref := c.scopes(wf.ID)["Local"]
	want(t, "isMainThread in worker", c.vars(ref)["isMainThread"].Value, "false")
	want(t, "evaluate in worker", c.eval("6 * 7", wf.ID).Value, "42")
	threads := body[struct {
		Threads []struct {
			ID   int
			Name string
		}
	}](t, c.req("threads", nil)).Threads
	if len(threads) != 2 || threads[1].ID != worker || !strings.HasPrefix(threads[1].Name, "worker ") {
		t.Fatalf("threads %+v", threads)
	}
	if _, err := c.try("stackTrace", map[string]any{"threadId": 1}); err == nil {
		t.Fatal("the main thread has a stack although it runs")
	}
	c.req("next", map[string]any{"threadId": worker})
	st = c.stopped()
	want(t, "step thread", st.ThreadID, worker)
	m = c.req("stackTrace", map[string]any{"threadId": worker})
	wf = body[struct{ StackFrames []frame }](t, m).StackFrames[0]
	want(t, "line after next", wf.Line, lineOf(t, script, "BP:worker")+1)
	want(t, "answer", c.eval("answer", wf.ID).Value, "42")
	c.req("continue", map[string]any{"threadId": worker})

	// Then the main thread stops in the message handler.
	st = c.stopped()
	want(t, "main stop thread", st.ThreadID, 1)
	want(t, "m", c.locals()["m"].Value, "42")
	c.req("continue", map[string]any{"threadId": 1})
	exited := body[struct {
		Reason   string
		ThreadID int
	}](t, c.event("thread"))
	want(t, "thread exit", exited.Reason, "exited")
	want(t, "thread id", exited.ThreadID, worker)
	c.event("terminated")
	c.waitOutput("worker done")
}

func TestESModule(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	script := fixture(t, "esm.mjs")
	line := lineOf(t, script, "BP:esm")
	c.launch(map[string]any{"program": script})
	bps := c.setBreakpoints(script, map[string]any{"line": line})
	if !bps[0].Verified {
		t.Logf("not verified yet: %+v", bps[0])
	}
	c.req("configurationDone", nil)
	want(t, "reason", c.stopped().Reason, "breakpoint")
	f := c.frames()[0]
	want(t, "path", f.Source.Path, script)
	want(t, "line", f.Line, line)
	want(t, "w", c.locals()["w"].Value, `"alpha"`)
	c.req("continue", map[string]any{"threadId": 1})
	c.stopped()
	want(t, "w", c.eval("w", 0).Value, `"beta"`)
	c.finish("ALPHA\nBETA")
}

// TestForkedChildRuns checks the fallback for a client that refuses
// startDebugging (this one answers no reverse request): the forked child is
// debugged as one more thread of the session, and runs to its end.
func TestForkedChildRuns(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	script := fixture(t, "fork.js")
	line := lineOf(t, script, "BP:child")
	c.launch(map[string]any{"program": script})
	c.setBreakpoints(script, map[string]any{"line": line})
	c.req("configurationDone", nil)
	started := body[struct {
		Reason   string
		ThreadID int
	}](t, c.event("thread"))
	want(t, "thread", started.Reason, "started")
	st := c.stopped()
	want(t, "child stop thread", st.ThreadID, started.ThreadID)
	m := c.req("stackTrace", map[string]any{"threadId": started.ThreadID})
	f := body[struct{ StackFrames []frame }](t, m).StackFrames[0]
	want(t, "child line", f.Line, line)
	want(t, "argv", c.eval("process.argv[2]", f.ID).Value, `"child"`)
	threads := body[struct {
		Threads []struct {
			ID   int
			Name string
		}
	}](t, c.req("threads", nil)).Threads
	if len(threads) != 2 || !strings.HasPrefix(threads[1].Name, "process ") {
		t.Fatalf("threads %+v", threads)
	}
	c.req("continue", map[string]any{"threadId": started.ThreadID})
	exited := body[struct {
		Reason   string
		ThreadID int
	}](t, c.event("thread"))
	want(t, "thread exit", exited.Reason, "exited")
	c.event("terminated")
	out := c.outputText()
	if !strings.Contains(out, "child says hi from child") || !strings.Contains(out, "child exit 0") {
		t.Fatalf("output %q", out)
	}
}

func TestBreakpointThroughSymlink(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	real := fixture(t, "loop.js")
	link := filepath.Join(t.TempDir(), "linked.js")
	if err := os.Symlink(real, link); err != nil {
		t.Skipf("no symlinks: %v", err)
	}
	c.launch(map[string]any{"program": link})
	bps := c.setBreakpoints(link, map[string]any{"line": lineOf(t, real, "BP:loop")})
	if !bps[0].Verified {
		t.Fatalf("%+v", bps[0])
	}
	c.req("configurationDone", nil)
	want(t, "reason", c.stopped().Reason, "breakpoint")
}

func TestInternalFramesShownWithoutSkipFiles(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	script := fixture(t, "loop.js")
	c.launch(map[string]any{"program": script, "skipFiles": []string{}})
	c.setBreakpoints(script, map[string]any{"line": lineOf(t, script, "BP:loop")})
	c.req("configurationDone", nil)
	c.stopped()
	m := c.req("stackTrace", map[string]any{"threadId": 1})
	fs := body[struct {
		StackFrames []struct {
			Source struct {
				Name            string
				SourceReference int
			}
		}
	}](t, m).StackFrames
	internal := false
	for _, f := range fs {
		if strings.HasPrefix(f.Source.Name, "node:internal/") && f.Source.SourceReference > 0 {
			internal = true
		}
	}
	if !internal {
		t.Fatalf("no node:internal frame with skipFiles []: %+v", fs)
	}
}
