package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// The lldb-based rows' own values (c, cpp, rust, cobol): C++ strings and
// vectors, Rust Strings, Vecs and struct fields, COBOL data items, group
// items and paragraphs, and stepping into a function and out. The value
// kinds a person reads, one by one (on each LLDB: TestConformanceLLDB
// runs them on the older ones): Rust's String, &str, Vec, HashMap,
// Option, Result, Box, Rc, Arc, enums with data and references;
// libstdc++'s string, vector, map, unordered_map, set, shared_ptr,
// unique_ptr, optional, variant, pointers and references; C's char * and
// int *. Their fixtures are testdata/{rust/values,cpp/values.cpp,c/values.c}.

func cValues() []valueCase {
	return []valueCase{
		{name: "step_in_out", program: "c/loop.c", marks: []string{"BREAK: loop body"}, stops: []valueStop{{
			mark: "BREAK: loop body", check: stepInOut("int result = x * x", "square", "x", "0"),
		}}, output: "done total=30"},
		cValueKinds(),
	}
}

func cppValues() []valueCase {
	return []valueCase{
		{name: "string_and_vector", program: "cpp/loop.cpp", marks: []string{"BREAK: loop body"}, stops: []valueStop{{
			mark:  "BREAK: loop body",
			has:   map[string]string{"label": `"sum"`, "seen": "size=0"},
			evals: map[string]string{"label.size()": "3"},
			check: stepInOut("int result = x * x", "square", "x", "0"),
		}}, output: "done total=30"},
		cppValueKinds(),
	}
}

func rustValues() []valueCase {
	return []valueCase{
		{name: "string_vec_struct", program: "rust", src: "rust/src/main.rs", marks: []string{"BREAK: loop body"}, stops: []valueStop{{
			mark:     "BREAK: loop body",
			locals:   map[string]string{"name": `"hello"`},
			has:      map[string]string{"items": "size=3"},
			children: map[string]map[string]string{"items": {"[0]": "10", "[1]": "20", "[2]": "30"}, "p": {"x": "3", "y": "4"}},
			evals:    map[string]string{"p.x + p.y": "7"},
			// A field changed through its parent: each pass adds p.x.
			sets:  []valueSet{{in: "p", name: "x", value: "10", evals: map[string]string{"p.x": "10"}}},
			check: stepInOut("let result = x * x", "square", "x", "0"),
		}}, output: "done total=80 y=4"},
		rustValueKinds(),
	}
}

func cobolValues() []valueCase {
	add := "ADD WS-SQUARE TO WS-TOTAL"
	return []valueCase{
		{name: "data_items", program: "cobol/loop.cob", marks: []string{add}, stops: []valueStop{
			{mark: add, locals: map[string]string{"WS-TOTAL": "100", "WS-I": "0", "WS-SQUARE": "0", "WS-NAME": `"COBOL     "`},
				children: map[string]map[string]string{"WS-REC": {"WS-COUNT": "-7", "WS-CODE": `"ABC"`}}},
			// The second pass: the paragraph squared WS-I; the step runs the ADD.
			{mark: add, locals: map[string]string{"WS-I": "1", "WS-SQUARE": "1", "WS-TOTAL": "100"},
				step: &valueStep{lines: 1, fails: []string{"WS-NOSUCH"}, evals: map[string]string{"WS-TOTAL": "101"}}},
		}, output: "DONE TOTAL=00130"},
		{name: "paragraph", program: "cobol/loop.cob", marks: []string{"PERFORM SQUARE-PARA"}, stops: []valueStop{{
			mark: "PERFORM SQUARE-PARA", check: cobolIntoParagraph,
		}}, output: "DONE TOTAL=00130"},
		{name: "runtime_error", program: "cobol/callbad.cob", stops: []valueStop{{check: cobolRuntimeError}}, output: "NOSUCHPROG"},
	}
}

// cobolIntoParagraph steps from a PERFORM into the paragraph (its name,
// then its statement) and runs to the line after it.
func cobolIntoParagraph(t *testing.T, c *client, at stopAt) {
	id, src := at.id, at.src
	in := c.ok("step_into", map[string]any{"sessionId": id})
	para, compute := mcpLine(t, src, "SQUARE-PARA."), mcpLine(t, src, "COMPUTE WS-SQUARE")
	if in.num("lastStop.location.line") != para || in.str("lastStop.location.file") != src {
		t.Fatalf("step_into: %v, want %s:%d", in, src, para)
	}
	if top := mcpTop(t, c, id, src, para); top.str("name") == "" {
		t.Errorf("top frame without a name: %v", top)
	}
	if next := c.ok("step_over", map[string]any{"sessionId": id}); next.num("lastStop.location.line") != compute {
		t.Fatalf("step_over in the paragraph: %v, want line %d", next, compute)
	}
	c.ok("step_over", map[string]any{"sessionId": id})
	if got := mcpEval(t, c, id, "WS-SQUARE"); got != "0" {
		t.Errorf("WS-SQUARE = %q after the COMPUTE of pass 0", got)
	}
	c.ok("clear_breakpoints", map[string]any{"sessionId": id})
	add := mcpLine(t, src, "ADD WS-SQUARE TO WS-TOTAL")
	st := mcpPaused(t, c, id, c.ok("run_to_line", map[string]any{"sessionId": id, "file": src, "line": add}))
	if st.num("lastStop.location.line") != add {
		t.Fatalf("run_to_line: %v, want line %d", st, add)
	}
	if ctx := c.ok("get_source_context", map[string]any{"sessionId": id}); ctx.num("line") != add || ctx.str("file") != src {
		t.Errorf("get_source_context: %v", ctx)
	}
}

// cobolRuntimeError: the CALL of a missing program stops as an exception
// with the CALL's .cob frame on the stack, its data items readable.
func cobolRuntimeError(t *testing.T, c *client, at stopAt) {
	id, src := at.id, at.src
	if at.st.str("lastStop.reason") != "exception" {
		t.Fatalf("stop %v, want an exception", at.st.get("lastStop"))
	}
	line := mcpLine(t, src, `CALL "NOSUCHPROG"`)
	frame := mcpFrameIn(t, c, id, at.st.num("lastStop.threadId"), src, 0)
	if frame == nil || frame.num("line") != line {
		t.Fatalf("no frame at %s:%d: %v", src, line, c.ok("get_stack_trace", map[string]any{"sessionId": id, "levels": 50}).get("stackFrames"))
	}
	found := false
	for _, v := range c.ok("get_local_variables", map[string]any{"sessionId": id, "frameId": frame.num("id")}).list("variables") {
		if v.str("name") == "WS-N" && v.str("value") == "42" {
			found = true
		}
	}
	if !found {
		t.Errorf("WS-N not readable in the COBOL frame")
	}
	mcpOutputHas(t, c, id, "BEFORE 042")
}

// rustValueKinds: Rust's own kinds at one stop, then a &&str in the loop
// of show, whose frames read as written.
func rustValueKinds() valueCase {
	values, word := "); // BREAK: values", "BREAK: word"
	return valueCase{name: "value_kinds", program: "rust/values", src: "rust/values/src/main.rs", marks: []string{values, word},
		stops: []valueStop{{mark: values, check: rustKinds}, {mark: word, check: rustWord}}, output: "done values"}
}

func rustKinds(t *testing.T, c *client, at stopAt) {
	id, l := at.id, mcpLocals(t, c, at.id)
	wantValue(t, l, "name", `"hello"`)
	wantValue(t, l, "greeting", `"hi there"`)
	wantValue(t, l, "words", "~size=2")
	wantChildren(t, c, id, l, "words", map[string]string{"[0]": `"alpha"`, "[1]": `"beta"`})
	wantValue(t, l, "nums", "~size=3")
	wantChildren(t, c, id, l, "nums", map[string]string{"[0]": "10", "[1]": "20", "[2]": "30"})
	wantValue(t, l, "ages", "~size=1")
	wantChildren(t, c, id, l, "ages", map[string]string{"[0]": `~"ann".*31`})
	wantValue(t, l, "some", "Some(5)")
	wantChildren(t, c, id, l, "some", map[string]string{"0": "5"})
	wantValue(t, l, "none", "None")
	wantValue(t, l, "ok", "Ok(7)")
	wantValue(t, l, "err", `Err("bad")`)
	wantChildren(t, c, id, l, "err", map[string]string{"0": `"bad"`})
	wantValue(t, l, "boxed", "42")
	wantChildren(t, c, id, l, "rc", map[string]string{"value": `"shared"`})
	wantChildren(t, c, id, l, "arc", map[string]string{"data": "9"})
	wantValue(t, l, "circle", "Circle(3)")
	wantValue(t, l, "rect", "Rect { w: 2, h: 6 }")
	wantChildren(t, c, id, l, "rect", map[string]string{"w": "2", "h": "6"})
	wantValue(t, l, "p", "{x: 3, y: 4}")
	wantValue(t, l, "pref", "{x: 3, y: 4}")
	wantChildren(t, c, id, l, "pref", map[string]string{"x": "3", "y": "4"})
	wantValue(t, l, "nref", "20")
	wantValue(t, l, "letter", "'a'")
	checkEvals(t, c, id, map[string]string{"some": "Some(5)", "pref": "{x: 3, y: 4}", "greeting": `"hi there"`, "letter": "'a'"}, nil)
}

// rustWord: `for w in &words`: w is a &&str and reads as the word;
// functions read as written, without the hash of their symbol.
func rustWord(t *testing.T, c *client, at stopAt) {
	wantValue(t, mcpLocals(t, c, at.id), "w", `"alpha"`)
	if f := at.st.str("lastStop.location.function"); f != "dbgvalues::show" {
		t.Errorf("stopped in %q, want dbgvalues::show", f)
	}
	frames := c.ok("get_stack_trace", map[string]any{"sessionId": at.id}).list("stackFrames")
	if len(frames) < 2 || frames[0].str("name") != "dbgvalues::show" || frames[1].str("name") != "dbgvalues::main" {
		t.Errorf("frames %v, want dbgvalues::show called from dbgvalues::main", frames)
	}
}

// cppValueKinds: libstdc++'s kinds at one stop, then a const
// std::string & and a const P * in a callee.
func cppValueKinds() valueCase {
	values, refs := "); // BREAK: values", "BREAK: refs"
	return valueCase{name: "value_kinds", program: "cpp/values.cpp", marks: []string{values, refs},
		stops: []valueStop{{mark: values, check: cppKinds}, {mark: refs, check: func(t *testing.T, c *client, at stopAt) {
			in := mcpLocals(t, c, at.id)
			wantValue(t, in, "ref", `"hello"`)
			wantValue(t, in, "pp", "~^0x[0-9a-f]+ -> {x: 1, y: 2}$")
		}}}, output: "done values"}
}

func cppKinds(t *testing.T, c *client, at stopAt) {
	id, l := at.id, mcpLocals(t, c, at.id)
	wantValue(t, l, "s", `"hello"`)
	wantValue(t, l, "v", "size=3")
	wantChildren(t, c, id, l, "v", map[string]string{"[0]": "1", "[2]": "3"})
	wantValue(t, l, "m", "size=2")
	wantValue(t, l, "um", "size=1")
	wantChildren(t, c, id, l, "um", map[string]string{"[0]": `{first: 7, second: "seven"}`})
	wantChildren(t, c, id, l, "m", map[string]string{"[0]": `{first: "one", second: 1}`, "[1]": `{first: "two", second: 2}`})
	wantValue(t, l, "st", "size=2")
	wantChildren(t, c, id, l, "st", map[string]string{"[0]": "4", "[1]": "5"})
	wantValue(t, l, "sp", "{x: 3, y: 4}")
	wantChildren(t, c, id, l, "sp", map[string]string{"x": "3", "y": "4"})
	wantValue(t, l, "up", "11")
	wantValue(t, l, "opt", "5")
	wantValue(t, l, "nopt", "nullopt")
	wantValue(t, l, "var", `[1] "alt"`)
	wantValue(t, l, "ip", "~^0x[0-9a-f]+ -> 8$")
	wantValue(t, l, "pptr", "~^0x[0-9a-f]+ -> {x: 1, y: 2}$")
	wantChildren(t, c, id, l, "pptr", map[string]string{"x": "1", "y": "2"})
	wantValue(t, l, "nr", "8")
	wantValue(t, l, "pt", "{x: 1, y: 2}")
}

// cValueKinds: C's char *, char[], int *, a null pointer and a struct
// through a pointer. dbg may put LLDB's Python on the adapter's
// PYTHONPATH; the program still gets its own, which it prints.
func cValueKinds() valueCase {
	env := os.Getenv("PYTHONPATH")
	if env == "" {
		env = "(unset)"
	}
	mark := "/* BREAK: values */"
	return valueCase{name: "value_kinds", program: "c/values.c", marks: []string{mark}, stops: []valueStop{{mark: mark,
		evals: map[string]string{"pt": "{x: 3, y: 4}", "*ip + 1": "6"},
		check: func(t *testing.T, c *client, at stopAt) {
			id, l := at.id, mcpLocals(t, c, at.id)
			wantValue(t, l, "msg", `~^0x[0-9a-f]+ "hello"$`)
			wantValue(t, l, "text", `~^0x[0-9a-f]+ "stack text"$`)
			wantValue(t, l, "buf", `"stack text"`)
			wantValue(t, l, "ip", "~^0x[0-9a-f]+ -> 5$")
			wantValue(t, l, "null", "0x0000000000000000")
			wantValue(t, l, "pt", "{x: 3, y: 4}")
			wantValue(t, l, "pp", "~^0x[0-9a-f]+ -> {x: 3, y: 4}$")
			wantChildren(t, c, id, l, "pp", map[string]string{"x": "3", "y": "4"})
		}}}, output: "env PYTHONPATH=" + env + "\ndone values"}
}

// wantValue checks a local's value: equal to want, or matching it when
// want starts with "~" (a regular expression).
func wantValue(t *testing.T, l map[string]obj, name, want string) {
	t.Helper()
	got, ok := l[name]
	if !ok {
		t.Errorf("no local %s (all: %v)", name, l)
		return
	}
	if !valueIs(got.str("value"), want) {
		t.Errorf("%s = %q, want %s", name, got.str("value"), want)
	}
}

// wantChildren checks some children of a local by name, as wantValue.
func wantChildren(t *testing.T, c *client, id string, l map[string]obj, name string, want map[string]string) {
	t.Helper()
	v, ok := l[name]
	if !ok || v.num("variablesReference") == 0 {
		t.Errorf("%s has no children: %v", name, v)
		return
	}
	kids := mcpChildren(t, c, id, v)
	for k, w := range want {
		if !valueIs(kids[k], w) {
			t.Errorf("%s.%s = %q, want %s (children %v)", name, k, kids[k], w, kids)
		}
	}
}

// valueIs reports whether v is want, or matches it when want starts with
// "~".
func valueIs(v, want string) bool {
	if re, isRE := strings.CutPrefix(want, "~"); isRE {
		return regexp.MustCompile(re).MatchString(v)
	}
	return v == want
}
