package main

import (
	"strings"
	"testing"
)

// The values scenario: each language's own kinds of values (strings,
// collections, structs and their fields, statics, threads, lambdas and
// closures, data items), read at the stops of its own fixtures. Each
// valueCase is one launch: breakpoints at its marks, then its stops in
// turn, then the program's end.

// valueCase is one launch of the values scenario.
type valueCase struct {
	name     string
	language string // create_debug_session's language (default the row's)
	program  string // scriptPath, relative to testdata/
	src      string // the file of its marks (default program)
	marks    []string
	// launch, when set, builds what the program needs and returns the
	// scriptPath and the extra start_debugging arguments.
	launch func(t *testing.T) (program string, start map[string]any)
	stops  []valueStop // the launch's stop, then one after each continue
	output string      // printed by the end of the program
}

// valueStop is what one stop shows. Its checks run in the order of the
// fields.
type valueStop struct {
	mark     string                                   // the line of the stop (none: not checked)
	thread   string                                   // the stopped thread's name
	locals   map[string]string                        // locals and their values
	has      map[string]string                        // locals whose value holds the text
	children map[string]map[string]string             // a local's children and their values
	statics  map[string]string                        // the variables of the statics scope
	evals    map[string]string                        // expressions and their results
	fails    []string                                 // expressions that fail
	sets     []valueSet                               // set_variable, in turn
	check    func(t *testing.T, c *client, at stopAt) // the language's own reading, after the others
	step     *valueStep                               // step_over last
}

// stopAt is the stop a check reads.
type stopAt struct {
	id, src string
	st      obj // the stop answer
}

// valueSet changes a variable and reads the change back.
type valueSet struct {
	in          string // "" a local, "statics" the statics scope, or the local whose field it is
	name, value string
	want        string            // set_variable's result (default value)
	evals       map[string]string // after the change
}

// valueStep steps over and reads the frame there.
type valueStep struct {
	lines int // where it lands, relative to the stop's line
	evals map[string]string
	fails []string
}

// scenarioValues runs the row's value cases, each one launch.
func scenarioValues(t *testing.T, c *client, l *lang) {
	if len(l.values) == 0 {
		t.Fatalf("%s declares no values", l.name)
	}
	for _, vc := range l.values {
		t.Run(vc.name, func(t *testing.T) {
			runValueCase(t, scenarioClient(t, c), l, vc)
		})
	}
}

func runValueCase(t *testing.T, c *client, l *lang, vc valueCase) {
	language := vc.language
	if language == "" {
		language = l.name
	}
	program, start := td(vc.program), map[string]any(nil)
	if vc.launch != nil {
		program, start = vc.launch(t)
	}
	src := td(vc.program)
	if vc.src != "" {
		src = td(vc.src)
	}
	lines := make([]int, len(vc.marks))
	for i, m := range vc.marks {
		lines[i] = mcpLine(t, src, m)
	}
	id, st := mcpLaunch(t, c, language, src, lines, program, start)
	for i, s := range vc.stops {
		if i > 0 {
			st = mcpPaused(t, c, id, c.ok("continue_execution", map[string]any{"sessionId": id}))
		}
		line := 0
		if s.mark != "" {
			line = mcpLine(t, src, s.mark)
			if st.num("lastStop.location.line") != line || st.str("lastStop.location.file") != src {
				t.Fatalf("stop %d: %v, want %s:%d", i, st.get("lastStop"), src, line)
			}
			mcpTop(t, c, id, src, line)
		}
		checkStop(t, c, id, st, s)
		if s.check != nil {
			s.check(t, c, stopAt{id: id, src: src, st: st})
		}
		if p := s.step; p != nil {
			step := c.ok("step_over", map[string]any{"sessionId": id})
			if step.num("lastStop.location.line") != line+p.lines {
				t.Fatalf("stop %d: step_over to %v, want line %d", i, step.get("lastStop"), line+p.lines)
			}
			checkEvals(t, c, id, p.evals, p.fails)
		}
	}
	mcpFinish(t, c, id, vc.output)
}

// checkStop reads what s declares at the stop st.
func checkStop(t *testing.T, c *client, id string, st obj, s valueStop) {
	t.Helper()
	if s.thread != "" {
		var names []string
		stopped := ""
		for _, th := range c.ok("list_threads", map[string]any{"sessionId": id}).list("threads") {
			names = append(names, th.str("name"))
			if th.num("id") == st.num("lastStop.threadId") {
				stopped = th.str("name")
			}
		}
		if stopped != s.thread {
			t.Errorf("stopped in thread %q, want %q (threads %v)", stopped, s.thread, names)
		}
	}
	locals := mcpLocals(t, c, id)
	mcpCheckLocals(t, locals, s.locals)
	for name, text := range s.has {
		if v := locals[name].str("value"); !strings.Contains(v, text) {
			t.Errorf("local %s = %q, want it to hold %q", name, v, text)
		}
	}
	for name, want := range s.children {
		got := mcpChildren(t, c, id, locals[name])
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s's %s = %q, want %q (all: %v)", name, k, got[k], v, got)
			}
		}
	}
	if len(s.statics) > 0 {
		got := map[string]string{}
		for _, v := range c.ok("get_variables", map[string]any{"sessionId": id, "scope": staticsRef(t, c, id)}).list("variables") {
			got[v.str("name")] = v.str("value")
		}
		for k, v := range s.statics {
			if got[k] != v {
				t.Errorf("static %s = %q, want %q (all: %v)", k, got[k], v, got)
			}
		}
	}
	checkEvals(t, c, id, s.evals, s.fails)
	for _, set := range s.sets {
		args := map[string]any{"sessionId": id, "name": set.name, "value": set.value}
		switch set.in {
		case "":
		case "statics":
			args["scope"] = staticsRef(t, c, id)
		default:
			args["variablesReference"] = mcpLocals(t, c, id)[set.in].num("variablesReference")
		}
		want := set.want
		if want == "" {
			want = set.value
		}
		if r := c.ok("set_variable", args); r.str("result") != want {
			t.Errorf("set_variable %s = %s answered %v, want %q", set.name, set.value, r, want)
		}
		checkEvals(t, c, id, set.evals, nil)
	}
}

func checkEvals(t *testing.T, c *client, id string, evals map[string]string, fails []string) {
	t.Helper()
	for expr, want := range evals {
		if got := mcpEval(t, c, id, expr); got != want {
			t.Errorf("evaluate %s = %q, want %q", expr, got, want)
		}
	}
	for _, expr := range fails {
		mcpEvalFails(t, c, id, expr)
	}
}

// staticsRef is the variablesReference of the top frame's statics scope.
func staticsRef(t *testing.T, c *client, id string) int {
	t.Helper()
	scopes := c.ok("get_scopes", map[string]any{"sessionId": id}).list("scopes")
	for _, s := range scopes {
		if strings.Contains(strings.ToLower(s.str("name")), "static") {
			return s.num("variablesReference")
		}
	}
	t.Fatalf("no statics scope: %v", scopes)
	return 0
}

// stepInOut is the check of a stop on a call: step_into lands on the
// line marked body, in a frame named fn (when given) called from the
// stop's line, with arg = want; step_out comes back to the stop's line.
func stepInOut(body, fn, arg, want string) func(t *testing.T, c *client, at stopAt) {
	return stepIn(body, fn, arg, want, true)
}

// stepIn is stepInOut, with back false for an adapter whose step_out
// stops on the function's last line first (rdbg).
func stepIn(body, fn, arg, want string, back bool) func(t *testing.T, c *client, at stopAt) {
	return func(t *testing.T, c *client, at stopAt) {
		t.Helper()
		id := at.id
		line := at.st.num("lastStop.location.line")
		in := c.ok("step_into", map[string]any{"sessionId": id})
		if b := mcpLine(t, at.src, body); in.num("lastStop.location.line") != b {
			t.Fatalf("step_into: %v, want line %d", in.get("lastStop"), b)
		}
		frames := c.ok("get_stack_trace", map[string]any{"sessionId": id}).list("stackFrames")
		if len(frames) < 2 || !strings.Contains(frames[0].str("name"), fn) || frames[1].num("line") != line {
			t.Fatalf("stack after step_into: %v, want %q called from line %d", frames, fn, line)
		}
		mcpCheckLocals(t, mcpLocals(t, c, id), map[string]string{arg: want})
		if out := c.ok("step_out", map[string]any{"sessionId": id}); back && out.num("lastStop.location.line") != line {
			t.Errorf("step_out: %v, want line %d", out.get("lastStop"), line)
		}
	}
}

// evalAfter is a check that evaluates expr after the stop's other
// readings: what they must not have changed.
func evalAfter(expr, want string) func(t *testing.T, c *client, at stopAt) {
	return func(t *testing.T, c *client, at stopAt) {
		t.Helper()
		if got := mcpEval(t, c, at.id, expr); got != want {
			t.Errorf("%s = %q after the stop was read, want %q", expr, got, want)
		}
	}
}

// goValues, pythonValues and mockValues: a struct (an object), a list
// and a map at one stop; a field changed through its parent.

func goValues() []valueCase {
	return []valueCase{
		{name: "struct_slice_map", program: "go/values/main.go", marks: []string{"// VALUES"}, stops: []valueStop{{
			mark:     "// VALUES",
			locals:   map[string]string{"name": `"gopher"`},
			children: map[string]map[string]string{"p": {"X": "3", "Y": "4"}, "xs": {"[0]": "10", "[1]": "20", "[2]": "30"}},
			evals:    map[string]string{"p.X + p.Y": "7", "len(xs)": "3", `m["k"]`: "5"},
			sets:     []valueSet{{in: "p", name: "X", value: "10", evals: map[string]string{"p.X": "10"}}},
		}}, output: "14 3 5 gopher"},
	}
}

func pythonValues() []valueCase {
	return []valueCase{
		{name: "object_list_dict", program: "python/values.py", marks: []string{"# VALUES"}, stops: []valueStop{{
			mark:     "# VALUES",
			locals:   map[string]string{"name": "'snake'"},
			children: map[string]map[string]string{"p": {"x": "3", "y": "4"}, "xs": {"0": "10", "1": "20", "2": "30"}},
			evals:    map[string]string{"p.x + p.y": "7", "len(xs)": "3", "d['k']": "5"},
			sets:     []valueSet{{in: "p", name: "x", value: "10", evals: map[string]string{"p.x": "10"}}},
		}}, output: "14 3 5 snake"},
	}
}

func mockValues() []valueCase {
	return []valueCase{
		{name: "list", program: "mock/values.mock", marks: []string{`print "{label}`}, stops: []valueStop{{
			mark:  `print "{label}`,
			evals: map[string]string{"len(names)": "3"},
			sets:  []valueSet{{name: "label", value: `"bugs"`}},
		}}, output: "bugs 3"},
	}
}
