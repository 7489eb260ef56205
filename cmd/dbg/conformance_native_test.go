package main

import (
	"testing"
)

// The lldb-based rows' own values (c, cpp, rust, cobol): C++ strings and
// vectors, Rust Strings, Vecs and struct fields, COBOL data items, group
// items and paragraphs, and stepping into a function and out.

func cValues() []valueCase {
	return []valueCase{
		{name: "step_in_out", program: "c/loop.c", marks: []string{"BREAK: loop body"}, stops: []valueStop{{
			mark: "BREAK: loop body", check: stepInOut("int result = x * x", "square", "x", "0"),
		}}, output: "done total=30"},
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
