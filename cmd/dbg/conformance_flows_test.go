package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// The flows every language runs around a launch or an attach: the
// program's arguments, environment and working directory; a breakpoint
// set in a target attached without pausing, the target living on after
// detach; exception breakpoints that stop on caught exceptions, at launch
// and on attach.

// echoCase is a program that prints "<first argument> <DBG_E2E> <cwd>".
type echoCase struct {
	program string
}

// attachBreak stops a target attached without pausing at a breakpoint,
// changes a variable there, detaches, and reads the change in what the
// target prints on.
type attachBreak struct {
	ways       []string // the attach ways (attachWay.by) to run it by
	src        string   // the target's source (default: its last command-line argument)
	mark       string   // a text on the line to break at
	eval, want string   // evaluated at the stop
	counter    string   // a local that holds a positive number at the stop
	// printed, with loopVar, says the target printed every pass before
	// the stop: fmt.Sprintf(printed, loopVar-1) is in its output.
	printed, loopVar string
	set, value       string // set_variable at the stop (none: nothing changed)
	after            string // printed once detached, of the changed value (none: the marker)
}

// caughtCase is a program that throws an exception it catches:
// breakOnExceptions all stops at the throw.
type caughtCase struct {
	program, src string
	mark         string // the line that throws
	deep         bool   // the stop is inside the runtime: the line is on the stack, not at the stop
	message      string // a text of the stop's text or description
	eval, want   string // evaluated in the frame of the throw
	next         string // when set, continuing stops again, at this line (with mode all)
	output       string // printed once exception breakpoints are off and the program ran to its end
}

// attachCatch is a target that throws and catches an exception over and
// over: attached without pausing and with breakOnExceptions all, the next
// throw stops it.
type attachCatch struct {
	start   func(t *testing.T) target
	by      string // processId or port
	src     string // the target's source
	mark    string // a text on the line that throws
	deep    bool   // the stop is inside the runtime
	message string // a text of the stop's text or description
	eval    string // evaluated in the frame of the throw
	want    string
	extra   map[string]any // more create_debug_session arguments
	// detachHangs names the adapter's defect that stops the target once
	// detached: then the scenario checks it runs on while attached only.
	detachHangs string
}

// scenarioArgsEnvCwd launches the echo program with an argument, an
// environment variable and a working directory: it prints all three.
func scenarioArgsEnvCwd(t *testing.T, c *client, l *lang) {
	if l.echo.program == "" {
		t.Fatalf("%s declares no echo program", l.name)
	}
	cwd := t.TempDir()
	id := c.ok("create_debug_session", map[string]any{"language": l.name}).str("sessionId")
	mcpEnded(t, c, id, c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": td(l.echo.program),
		"args": []string{"first-arg"}, "env": map[string]string{"DBG_E2E": "env-value"}, "cwd": cwd}))
	mcpOutputHas(t, c, id, "first-arg env-value "+cwd)
	mcpClose(t, c, id, nil)
}

// refusedArgsEnvCwd: the language's programs have no environment or
// working directory of their own (the mock's run inside dbg); the echo
// program, started with all three, prints its argument (says).
func refusedArgsEnvCwd(t *testing.T, c *client, l *lang, r refusal) {
	id := c.ok("create_debug_session", map[string]any{"language": l.name}).str("sessionId")
	mcpEnded(t, c, id, c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": td(l.echo.program),
		"args": []string{"first-arg"}, "env": map[string]string{"DBG_E2E": "env-value"}, "cwd": t.TempDir()}))
	mcpOutputHas(t, c, id, r.says)
	if out := c.ok("get_output", map[string]any{"sessionId": id}).str("text"); strings.Contains(out, "env-value") {
		t.Errorf("output %q has the environment the language says it has none of", out)
	}
	mcpClose(t, c, id, nil)
}

// scenarioAttachBreak attaches without pausing by each of the row's
// ways: the target keeps running until a breakpoint stops it, and runs on
// with the changed variable after detach.
func scenarioAttachBreak(t *testing.T, c *client, l *lang) {
	ab := l.attachBreak
	if ab == nil || len(ab.ways) == 0 {
		t.Fatalf("%s declares no attach-then-breakpoint case", l.name)
	}
	for _, by := range ab.ways {
		i := slices.IndexFunc(l.attach, func(w attachWay) bool { return w.by == by && w.start != nil && w.flow == nil })
		if i < 0 {
			t.Fatalf("%s has no attach way by %s that starts a target", l.name, by)
		}
		t.Run(by, func(t *testing.T) {
			c := scenarioClient(t, c)
			tg := l.attach[i].start(t)
			src := td(ab.src)
			if ab.src == "" {
				src = tg.cmd.Args[len(tg.cmd.Args)-1]
			}
			id := mcpAttachRunning(t, c, tg.attachArgs(l.name, by))
			waitCount(t, tg.out, tg.marker, strings.Count(tg.out.String(), tg.marker)+1, "the target does not run after an attach without pause")
			line := mcpLine(t, src, ab.mark)
			if bp := mcpBreakRunning(t, c, id, src, line); bp.get("verified") != true {
				t.Errorf("breakpoint in the attached target: %v", bp)
			}
			mcpTop(t, c, id, src, line)
			if ab.eval != "" {
				if got := mcpEval(t, c, id, ab.eval); got != ab.want {
					t.Errorf("%s = %q at the stop, want %q", ab.eval, got, ab.want)
				}
			}
			if ab.counter != "" {
				if n := mustAtoi(t, mcpLocals(t, c, id)[ab.counter].str("value")); n <= 0 {
					t.Errorf("%s = %d at the stop, want a positive count", ab.counter, n)
				}
			}
			if ab.printed != "" {
				i := mustAtoi(t, mcpLocals(t, c, id)[ab.loopVar].str("value"))
				if want := fmt.Sprintf(ab.printed, i-1); i > 0 && !strings.Contains(tg.out.String(), want) {
					t.Errorf("stopped at %s=%d but the output has no %q: %s", ab.loopVar, i, want, tg.out.String())
				}
			}
			if ab.set != "" {
				c.ok("set_variable", map[string]any{"sessionId": id, "name": ab.set, "value": ab.value})
			}
			mcpDetachRuns(t, c, id, tg, ab.after)
		})
	}
}

// refusedAttachBreak: the language attaches no way; the attach without
// pause is refused like any attach.
func refusedAttachBreak(t *testing.T, c *client, l *lang, r refusal) {
	args := map[string]any{"language": l.name, "port": freePort(t), "stopOnEntry": false}
	checkRefusal(t, c.fail("create_debug_session", args, r.code), r)
}

// scenarioCaught launches with breakOnExceptions all: the caught
// exception stops the program at its throw (and, when the row says so,
// continuing stops at the next); with exception breakpoints off it runs
// to its end.
func scenarioCaught(t *testing.T, c *client, l *lang) {
	e := l.caught
	if e == nil {
		t.Fatalf("%s declares no caught exception", l.name)
	}
	program, src := td(e.program), td(e.program)
	if e.src != "" {
		src = td(e.src)
	}
	id, st := mcpLaunch(t, c, l.name, src, nil, program, map[string]any{"breakOnExceptions": "all"})
	frame := exceptionStop(t, c, id, st, src, e.mark, e.deep, e.message)
	if e.eval != "" {
		if r := c.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": e.eval, "frameId": frame.num("id")}); r.str("result") != e.want {
			t.Errorf("%s = %q at the caught exception, want %q", e.eval, r.str("result"), e.want)
		}
	}
	if e.next != "" {
		st = mcpPaused(t, c, id, c.ok("continue_execution", map[string]any{"sessionId": id}))
		exceptionStop(t, c, id, st, src, e.next, false, "")
	}
	if f := c.ok("set_exception_breakpoints", map[string]any{"sessionId": id, "breakOnExceptions": "none"}); len(f.list("filters")) != 0 {
		t.Errorf("breakOnExceptions none answered filters %v", f.get("filters"))
	}
	pids := mcpPIDs(t, c)
	mcpRunToEnd(t, c, id)
	mcpOutputHas(t, c, id, e.output)
	mcpClose(t, c, id, pids)
}

// exceptionStop checks st is an exception stop at the line of src marked
// mark (on the stack, when deep), whose text holds message, and returns
// the frame of that line.
func exceptionStop(t *testing.T, c *client, id string, st obj, src, mark string, deep bool, message string) obj {
	t.Helper()
	line := mcpLine(t, src, mark)
	if st.str("lastStop.reason") != "exception" {
		t.Fatalf("stop %v, want an exception", st.get("lastStop"))
	}
	if !deep && (st.num("lastStop.location.line") != line || st.str("lastStop.location.file") != src) {
		t.Fatalf("stop %v, want the exception at %s:%d", st.get("lastStop"), src, line)
	}
	if text := st.str("lastStop.text") + " " + st.str("lastStop.description"); !strings.Contains(text, message) {
		t.Errorf("exception stop text %q lacks %q", text, message)
	}
	frame := mcpFrameIn(t, c, id, st.num("lastStop.threadId"), src, line)
	if frame == nil {
		t.Fatalf("no frame at the throw (%s:%d): %v", src, line,
			c.ok("get_stack_trace", map[string]any{"sessionId": id, "levels": 50}).get("stackFrames"))
	}
	return frame
}

// refusedCaught: the language has no caught exceptions, and
// breakOnExceptions all answers the filters it sets instead (says, comma
// joined): those of the uncaught exceptions it has.
func refusedCaught(t *testing.T, c *client, l *lang, r refusal) {
	id := c.ok("create_debug_session", map[string]any{"language": l.name}).str("sessionId")
	filters := func(mode string) string {
		var ids []string
		for _, f := range c.ok("set_exception_breakpoints", map[string]any{"sessionId": id, "breakOnExceptions": mode}).get("filters").([]any) {
			ids = append(ids, fmt.Sprint(f))
		}
		return strings.Join(ids, ",")
	}
	if all := filters("all"); all != r.says {
		t.Errorf("breakOnExceptions all sets filters %q, want %q", all, r.says)
	}
	mcpClose(t, c, id, nil)
}

// scenarioAttachCatch attaches without pausing and with breakOnExceptions
// all to a target that throws and catches: the next throw stops it with
// its message; with exception breakpoints off it runs on, and on after
// detach.
func scenarioAttachCatch(t *testing.T, c *client, l *lang) {
	a := l.attachCatch
	if a == nil {
		t.Fatalf("%s declares no target that catches", l.name)
	}
	tg := a.start(t)
	args := tg.attachArgs(l.name, a.by)
	for k, v := range a.extra {
		args[k] = v
	}
	args["stopOnEntry"], args["breakOnExceptions"] = false, "all"
	id := c.ok("create_debug_session", args).str("sessionId")
	st := c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 30000})
	if st.str("state") != "paused" {
		t.Fatalf("no stop after attaching with breakOnExceptions all: %v", st)
	}
	frame := exceptionStop(t, c, id, st, td(a.src), a.mark, a.deep, a.message)
	if a.eval != "" {
		if r := c.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": a.eval, "frameId": frame.num("id")}); r.str("result") != a.want {
			t.Errorf("%s = %q at the throw, want %q", a.eval, r.str("result"), a.want)
		}
	}
	c.ok("set_exception_breakpoints", map[string]any{"sessionId": id, "breakOnExceptions": "none"})
	c.ok("continue_execution", map[string]any{"sessionId": id})
	if st := c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 1000}); st.str("state") != "running" {
		t.Fatalf("stopped again with exception breakpoints off: %v", st.get("lastStop"))
	}
	waitCount(t, tg.out, tg.marker, strings.Count(tg.out.String(), tg.marker)+2, "the target does not run on with exception breakpoints off")
	if a.detachHangs != "" {
		t.Logf("not checked after detach: %s", a.detachHangs)
		mcpClose(t, c, id, nil)
		return
	}
	mcpDetachRuns(t, c, id, tg, "")
}

// throwerTarget starts a target that prints "ready", then "tick ..."
// lines between its throws.
func throwerTarget(name string, args ...string) func(t *testing.T) target {
	return func(t *testing.T) target {
		cmd, out := startTarget(t, "tick", name, args...)
		return target{cmd: cmd, out: out, marker: "tick"}
	}
}

// portThrower starts a thrower that listens for its debugger on a free
// port: flag (with %d for the port) is among args.
func portThrower(name string, args ...string) func(t *testing.T) target {
	return func(t *testing.T) target {
		port := freePort(t)
		argv := make([]string, len(args))
		for i, a := range args {
			argv[i] = strings.ReplaceAll(a, "%d", fmt.Sprint(port))
		}
		cmd, out := startTarget(t, "tick", name, argv...)
		return target{cmd: cmd, out: out, port: port, marker: "tick"}
	}
}

// javaThrower runs java/Thrower.java under JDWP.
func javaThrower(t *testing.T) target {
	classes := javaClasses(t, td("java/Thrower.java"))
	return portThrower("java", "-agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=127.0.0.1:%d", "-cp", classes, "Thrower")(t)
}

// rubyThrower runs ruby/thrower.rb under rdbg.
func rubyThrower(t *testing.T) target {
	return portThrower(requireRdbg(t), "--open", "--nonstop", "--host", "127.0.0.1", "--port", "%d", "--", td("ruby/thrower.rb"))(t)
}

// cppThrower runs cpp/thrower.cpp.
func cppThrower(t *testing.T) target {
	return throwerTarget(nativeBinary(t, "cpp", td("cpp/thrower.cpp")))(t)
}
