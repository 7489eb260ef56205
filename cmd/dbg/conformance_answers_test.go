package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dbg-dev/dbg/adapters"
)

// frameCase is a stop in a function called from another function of the
// program: calls naming no frame act in the frame of the stop answer, a
// call that names another frame acts there alone, and the next stop's
// frame is where they act after it.
type frameCase struct {
	program, src string // src: the file breakpoints go in (default program)
	mark         string // a line of the callee
	arg, want    string // a local of the callee and its value at the stop
	caller, was  string // a local of the caller, absent in the callee, and its value
	set          string // a value set_variable gives both
}

// fixtureFiles returns the paths of a fixture's program and of the file
// its breakpoints go in (src, default the program). A language that
// declares no such fixture fails: it must declare one or a refusal.
func fixtureFiles(t *testing.T, l *lang, what, program, src string) (string, string) {
	t.Helper()
	if program == "" {
		t.Fatalf("%s declares no %s fixture", l.name, what)
	}
	if src == "" {
		src = program
	}
	return td(program), td(src)
}

// scenarioFrame: evaluate, get_local_variables and set_variable without a
// frameId act in the frame the stop answer reports; naming the caller's
// frame (get_local_variables {id}: the frame's id as get_stack_trace
// calls it) acts there and leaves the default where it was; after a
// step, the default is the new stop's frame.
func scenarioFrame(t *testing.T, c *client, l *lang) {
	f := l.frame
	program, src := fixtureFiles(t, l, "frame", f.program, f.src)
	line := mcpLine(t, src, f.mark)
	id, st := mcpLaunch(t, c, l.name, src, []int{line}, program, nil)
	if st.num("lastStop.location.line") != line || st.str("lastStop.location.file") != src {
		t.Fatalf("stop %v, want %s:%d", st.get("lastStop"), src, line)
	}
	if got := mcpEval(t, c, id, f.arg); got != f.want {
		t.Errorf("%s = %q in the stop's frame, want %q", f.arg, got, f.want)
	}
	// Source around another line marks the stop's line, not the center.
	for _, sl := range c.ok("get_source_context", map[string]any{"sessionId": id, "file": src, "line": line - 1, "linesContext": 3}).list("lines") {
		if (sl.get("current") == true) != (sl.num("line") == line) {
			t.Errorf("get_source_context line %d current=%v; the stop is at line %d", sl.num("line"), sl.get("current"), line)
		}
	}
	var caller obj
	for _, fr := range c.ok("get_stack_trace", map[string]any{"sessionId": id}).list("stackFrames")[1:] {
		if fr.str("file") == src {
			caller = fr
			break
		}
	}
	if caller == nil {
		t.Fatalf("no caller frame in %s", src)
	}
	named := c.ok("get_local_variables", map[string]any{"sessionId": id, "id": caller.num("id")})
	if named.num("location.line") != caller.num("line") || localValue(named, f.caller) != f.was {
		t.Errorf("locals of the caller's frame %d: %v at %v, want %s = %s at line %d", caller.num("id"), named.list("variables"), named.get("location"), f.caller, f.was, caller.num("line"))
	}
	if got := c.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": f.caller, "frameId": caller.num("id")}).str("result"); got != f.was {
		t.Errorf("%s = %q in the caller's frame, want %q", f.caller, got, f.was)
	}
	// The default stays the stop's frame, whose location a compact answer
	// leaves out (the stop's answer gave it): the caller's would be named.
	locals := c.ok("get_local_variables", map[string]any{"sessionId": id})
	if locals.get("location") != nil || localValue(locals, f.arg) != f.want {
		t.Errorf("get_local_variables without frameId after naming the caller: %v at %v, want the stop's frame (no location)", locals.list("variables"), locals.get("location"))
	}
	if got := mcpEval(t, c, id, f.arg); got != f.want {
		t.Errorf("%s = %q without frameId after naming the caller, want %q", f.arg, got, f.want)
	}
	for _, sv := range []map[string]any{{"name": f.arg}, {"name": f.caller, "frameId": caller.num("id")}} {
		sv["sessionId"], sv["value"] = id, f.set
		r := c.ok("set_variable", sv)
		if r.str("result") != f.set {
			t.Errorf("set_variable %v answered %v", sv, r)
		}
		// The adapter's word on what the program may not see of it.
		if a, _ := adapters.Default().Lookup(l.name); a != nil && r.str("note") != a.Traits().SetNote {
			t.Errorf("set_variable's note is %q, want the adapter's %q", r.str("note"), a.Traits().SetNote)
		}
	}
	if got := mcpEval(t, c, id, f.arg); got != f.set {
		t.Errorf("%s = %q after set_variable without frameId, want %q", f.arg, got, f.set)
	}
	if got := c.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": f.caller, "frameId": caller.num("id")}).str("result"); got != f.set {
		t.Errorf("the caller's %s = %q after set_variable in its frame, want %q", f.caller, got, f.set)
	}
	// A new stop: its own frame.
	if step := c.ok("step_over", map[string]any{"sessionId": id}); step.str("state") != "paused" || step.str("lastStop.location.file") != src {
		t.Fatalf("step_over: %v", step)
	}
	if got := mcpEval(t, c, id, f.arg); got != f.set {
		t.Errorf("%s = %q after a step, want %q: the new stop's frame", f.arg, got, f.set)
	}
	mcpClose(t, c, id, mcpPIDs(t, c))
}

// localValue is the value of the local name in a get_local_variables
// answer ("" when absent).
func localValue(locals obj, name string) string {
	for _, v := range locals.list("variables") {
		if v.str("name") == name {
			return v.str("value")
		}
	}
	return ""
}

// refusedFrame: the language's programs cannot call one another's frames
// into the stack; the frame fixture's launch is refused with the reason.
func refusedFrame(t *testing.T, c *client, l *lang, r refusal) {
	id := c.ok("create_debug_session", map[string]any{"language": l.name}).str("sessionId")
	checkRefusal(t, c.fail("start_debugging", map[string]any{"sessionId": id, "scriptPath": td(l.frame.program)}, r.code), r)
	mcpClose(t, c, id, nil)
}

// noise is what adapters print or show of themselves, which no answer
// may hold: delve's banner, LLDB's echo of dbg's start commands, the
// rustc formatters' commands it sources.
var noise = []string{"Type 'dlv help'", "Running initCommands", "(lldb) ", "type synthetic add"}

// scenarioQuiet: no frame's locals hold the adapter's member groups or
// special names, nor does a structured local's children; the output
// holds the program's lines once, as text (or as lines when asked), and
// none of the adapters' own noise.
func scenarioQuiet(t *testing.T, c *client, l *lang) {
	lp := l.loop
	src := lp.srcPath()
	id, _ := mcpLaunch(t, c, l.name, src, []int{mcpLine(t, src, lp.mark)}, td(lp.program), nil)
	expanded := 0
	for _, fr := range c.ok("get_stack_trace", map[string]any{"sessionId": id}).list("stackFrames") {
		if fr.str("file") != src {
			continue
		}
		for _, v := range c.ok("get_local_variables", map[string]any{"sessionId": id, "frameId": fr.num("id")}).list("variables") {
			if special(v.str("name")) {
				t.Errorf("frame %s: local %q is no variable of the program", fr.str("name"), v.str("name"))
			}
			if v.num("variablesReference") > 0 && expanded < 3 {
				expanded++
				for name := range mcpChildren(t, c, id, v) {
					if special(name) {
						t.Errorf("%s: child %q is no member of the value", v.str("name"), name)
					}
				}
			}
		}
	}
	c.ok("clear_breakpoints", map[string]any{"sessionId": id})
	pids := mcpPIDs(t, c)
	mcpRunToEnd(t, c, id)
	mcpOutputHas(t, c, id, lp.output)
	out := c.ok("get_output", map[string]any{"sessionId": id})
	text := out.str("text")
	if out.get("lines") != nil {
		t.Errorf("get_output sent the output twice, as text and as lines")
	}
	if b, _ := json.Marshal(out); len(b) > len(text)*11/10+300 {
		t.Errorf("get_output answered %d bytes for %d bytes of output", len(b), len(text))
	}
	for _, n := range noise {
		if strings.Contains(text, n) {
			t.Errorf("the output holds the adapter's %q: %q", n, text)
		}
	}
	lines := c.ok("get_output", map[string]any{"sessionId": id, "lines": true})
	var joined strings.Builder
	for _, ln := range lines.list("lines") {
		if ln.str("category") == "" || ln.num("seq") == 0 {
			t.Errorf("line %v has no category or seq", ln)
		}
		joined.WriteString(ln.str("text") + "\n")
	}
	if lines.get("text") != nil || joined.String() != text {
		t.Errorf("get_output lines:true: %q, want the lines of %q alone", joined.String(), text)
	}
	mcpClose(t, c, id, pids)
}

// special reports whether a variable's name is an adapter's grouping
// (debugpy's "special variables") or a dunder name.
func special(name string) bool {
	return strings.HasSuffix(name, " variables") || len(name) > 4 && strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__")
}
