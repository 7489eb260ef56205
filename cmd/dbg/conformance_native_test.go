package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// Checks of the lldb-based languages (c, cpp, rust, cobol) beyond the
// conformance table: C++ strings and vectors and exceptions, Rust values
// and panics, COBOL data items and paragraphs, attach without pause.

// nativeValues stops at the loop body of src and hands the locals to
// check (the table checks the ints; these are the language's own kinds).
func nativeValues(t *testing.T, lang, program, src, output string, check func(c *client, id string, locals map[string]obj)) {
	c := startDbg(t)
	id, _ := mcpLaunch(t, c, lang, src, []int{mcpLine(t, src, "BREAK: loop body")}, program, nil)
	check(c, id, mcpLocals(t, c, id))
	mcpFinish(t, c, id, output)
}

// TestMCPNativeCPPValues reads a std::string and a std::vector.
func TestMCPNativeCPPValues(t *testing.T) {
	t.Parallel()
	requireLLDB(t)
	src := fixture(t, "cpp/loop.cpp")
	nativeValues(t, "cpp", src, src, "done total=30", func(c *client, id string, l map[string]obj) {
		if v := l["label"].str("value"); !strings.Contains(v, `"sum"`) {
			t.Errorf("label = %q, want the string \"sum\"", v)
		}
		if v := l["seen"].str("value"); !strings.Contains(v, "size=0") {
			t.Errorf("seen = %q, want an empty vector", v)
		}
		if got := mcpEval(t, c, id, "label.size()"); got != "3" {
			t.Errorf("label.size() = %q, want 3", got)
		}
	})
}

// TestMCPNativeRustValues reads a String, a Vec and a struct.
func TestMCPNativeRustValues(t *testing.T) {
	t.Parallel()
	requireCargo(t)
	dir := fixture(t, "rust")
	src := filepath.Join(dir, "src", "main.rs")
	nativeValues(t, "rust", dir, src, "done total=45 y=4", func(c *client, id string, l map[string]obj) {
		if v := l["name"].str("value"); v != `"hello"` {
			t.Errorf("name = %q, want \"hello\" (String readable)", v)
		}
		if v := l["items"].str("value"); !strings.Contains(v, "size=3") {
			t.Errorf("items = %q, want a Vec of size 3", v)
		}
		if items := mcpChildren(t, c, id, l["items"]); items["[0]"] != "10" || items["[1]"] != "20" || items["[2]"] != "30" {
			t.Errorf("items elements %v, want [10 20 30]", items)
		}
		if p := mcpChildren(t, c, id, l["p"]); p["x"] != "3" || p["y"] != "4" {
			t.Errorf("p = %v, want x=3 y=4", p)
		}
		if got := mcpEval(t, c, id, "p.x + p.y"); got != "7" {
			t.Errorf("p.x + p.y = %q, want 7", got)
		}
	})
}

// TestMCPNativeCOBOL reads COBOL data items by their COBOL names.
func TestMCPNativeCOBOL(t *testing.T) {
	t.Parallel()
	requireCOBOL(t)
	c := startDbg(t)
	src := fixture(t, "cobol/loop.cob")
	line := mcpLine(t, src, "ADD WS-SQUARE TO WS-TOTAL")
	id, st := mcpLaunch(t, c, "cobol", src, []int{line}, src, nil)
	if st.str("lastStop.reason") != "breakpoint" || st.num("lastStop.location.line") != line {
		t.Fatalf("first stop %v, want a breakpoint at line %d", st, line)
	}
	mcpTop(t, c, id, src, line)
	locals := mcpLocals(t, c, id)
	mcpCheckLocals(t, locals, map[string]string{
		"WS-TOTAL": "100", "WS-I": "0", "WS-SQUARE": "0", "WS-NAME": `"COBOL     "`,
	})
	if rec := mcpChildren(t, c, id, locals["WS-REC"]); rec["WS-COUNT"] != "-7" || rec["WS-CODE"] != `"ABC"` {
		t.Errorf("WS-REC children %v, want WS-COUNT=-7 WS-CODE=\"ABC\"", rec)
	}
	// The second pass: the paragraph squared WS-I.
	c.ok("continue_execution", map[string]any{"sessionId": id})
	st = c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 30000})
	if st.str("state") != "paused" || st.num("lastStop.location.line") != line {
		t.Fatalf("second stop %v, want line %d", st, line)
	}
	mcpCheckLocals(t, mcpLocals(t, c, id), map[string]string{"WS-I": "1", "WS-SQUARE": "1", "WS-TOTAL": "100"})
	step := c.ok("step_over", map[string]any{"sessionId": id})
	if step.num("lastStop.location.line") != line+1 {
		t.Fatalf("step_over: %v, want line %d (the DISPLAY)", step, line+1)
	}
	mcpEvalFails(t, c, id, "WS-NOSUCH")
	if got := mcpEval(t, c, id, "WS-TOTAL"); got != "101" {
		t.Errorf("WS-TOTAL after the ADD = %q, want 101", got)
	}
	mcpFinish(t, c, id, "DONE TOTAL=00130")
}

// TestMCPNativeCAttachBreakpoint attaches to a running C program, stops
// it at a breakpoint, reads its locals and detaches.
func TestMCPNativeCAttachBreakpoint(t *testing.T) {
	t.Parallel()
	requireLLDB(t)
	src := fixture(t, "c/loop.c")
	tg := nativeTarget("c", "c/loop.c", "loop.c")(t)
	cmd, out := tg.cmd, tg.out
	c := startDbg(t)
	id := c.ok("create_debug_session", map[string]any{"language": "c", "processId": cmd.Process.Pid}).str("sessionId")
	mcpPaused(t, c, id, c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 100}))
	line := mcpLine(t, src, "BREAK: loop body")
	bp := c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": line})
	if bp.get("verified") != true {
		t.Fatalf("breakpoint in the attached program: %v", bp)
	}
	st := mcpPaused(t, c, id, c.ok("continue_execution", map[string]any{"sessionId": id}))
	if st.str("lastStop.reason") != "breakpoint" || st.num("lastStop.location.line") != line {
		t.Fatalf("stop %v, want the breakpoint at line %d", st, line)
	}
	mcpTop(t, c, id, src, line)
	if got := mcpEval(t, c, id, "forever"); got != "1" {
		t.Errorf("forever = %q, want 1", got)
	}
	// The loop printed every pass before the one it stopped in.
	if i := mustAtoi(t, mcpLocals(t, c, id)["i"].str("value")); i > 0 && !strings.Contains(out.String(), fmt.Sprintf("i=%d total=", i-1)) {
		t.Errorf("stopped at i=%d but the output has no pass i=%d: %s", i, i-1, out.String())
	}
	mcpDetachRuns(t, c, id, tg, "")
}

// TestMCPNativeCPPThrow stops on a C++ throw with breakOnExceptions all.
func TestMCPNativeCPPThrow(t *testing.T) {
	t.Parallel()
	requireLLDB(t)
	src := writeSource(t, "throw.cpp", `#include <iostream>
#include <stdexcept>
static int check(int v) {
	if (v > 2) {
		throw std::runtime_error("value too large"); // THROW
	}
	return v;
}
int main() {
	try {
		check(5);
	} catch (const std::exception &e) {
		std::cout << "caught " << e.what() << std::endl;
	}
	return 0;
}
`)
	c := startDbg(t)
	id, st := mcpLaunch(t, c, "cpp", src, nil, src, map[string]any{"breakOnExceptions": "all"})
	if st.str("lastStop.reason") != "exception" {
		t.Fatalf("stop %v, want an exception", st)
	}
	line := mcpLine(t, src, "THROW")
	frames := c.ok("get_stack_trace", map[string]any{"sessionId": id}).list("stackFrames")
	found := false
	for _, f := range frames {
		if f.str("file") == src && f.num("line") == line {
			found = true
		}
	}
	if !found {
		t.Fatalf("no frame at the throw (%s:%d): %v", src, line, frames)
	}
	mcpFinish(t, c, id, "caught value too large")
}

// TestMCPNativeCOBOLStepIntoParagraph steps from a PERFORM into the
// paragraph and back.
func TestMCPNativeCOBOLStepIntoParagraph(t *testing.T) {
	t.Parallel()
	requireCOBOL(t)
	c := startDbg(t)
	src := fixture(t, "cobol/loop.cob")
	perform := mcpLine(t, src, "PERFORM SQUARE-PARA")
	id, st := mcpLaunch(t, c, "cobol", src, []int{perform}, src, nil)
	if st.num("lastStop.location.line") != perform {
		t.Fatalf("first stop %v, want line %d", st, perform)
	}
	// The step lands on the paragraph's name, then on its statement.
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
	st = mcpPaused(t, c, id, c.ok("run_to_line", map[string]any{"sessionId": id, "file": src, "line": add}))
	if st.num("lastStop.location.line") != add {
		t.Fatalf("run_to_line: %v, want line %d", st, add)
	}
	ctx := c.ok("get_source_context", map[string]any{"sessionId": id})
	if ctx.num("line") != add || ctx.str("file") != src {
		t.Errorf("get_source_context: %v", ctx)
	}
	mcpFinish(t, c, id, "DONE TOTAL=00130")
}

// nativeAttachRunning attaches to tg by pid with stopOnEntry false: the
// program keeps running until a breakpoint at line of src stops it.
func nativeAttachRunning(t *testing.T, lang string, tg target, src, line string) {
	cmd, out, marker := tg.cmd, tg.out, tg.marker
	c := startDbg(t)
	id := mcpAttachRunning(t, c, map[string]any{"language": lang, "processId": cmd.Process.Pid})
	waitCount(t, out, marker, strings.Count(out.String(), marker)+1, "the program does not run after an attach without pause")
	mcpBreakRunning(t, c, id, src, mcpLine(t, src, line))
	mcpDetachRuns(t, c, id, tg, "")
}

func TestMCPNativeCAttachRunning(t *testing.T) {
	t.Parallel()
	requireLLDB(t)
	nativeAttachRunning(t, "c", nativeTarget("c", "c/loop.c", "loop.c")(t), fixture(t, "c/loop.c"), "BREAK: loop body")
}

func TestMCPNativeCOBOLAttachRunning(t *testing.T) {
	t.Parallel()
	requireCOBOL(t)
	nativeAttachRunning(t, "cobol", cobolSpinTarget(t), fixture(t, "cobol/spin.cob"), "ADD 1 TO WS-TICK")
}

// TestMCPNativeCOBOLAttachNames attaches to a running COBOL program by pid
// and reads its WORKING-STORAGE by COBOL name.
func TestMCPNativeCOBOLAttachNames(t *testing.T) {
	t.Parallel()
	requireCOBOL(t)
	src := fixture(t, "cobol/spin.cob")
	cmd := cobolSpinTarget(t).cmd
	c := startDbg(t)
	id := c.ok("create_debug_session", map[string]any{"language": "cobol", "processId": cmd.Process.Pid}).str("sessionId")
	line := mcpLine(t, src, "ADD 1 TO WS-TICK")
	c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": line})
	st := mcpPaused(t, c, id, c.ok("continue_execution", map[string]any{"sessionId": id}))
	if st.num("lastStop.location.line") != line {
		t.Fatalf("stop %v, want line %d", st, line)
	}
	if n := mustAtoi(t, mcpLocals(t, c, id)["WS-TICK"].str("value")); n <= 0 {
		t.Errorf("WS-TICK = %d", n)
	}
	if got := mcpEval(t, c, id, "WS-TICK"); got == "" {
		t.Errorf("WS-TICK evaluates to nothing")
	}
	c.ok("detach_from_process", map[string]any{"sessionId": id})
	c.ok("close_debug_session", map[string]any{"sessionId": id})
}

// TestMCPNativeStepInOut steps into square from the loop and back out.
func TestMCPNativeStepInOut(t *testing.T) {
	t.Parallel()
	requireLLDB(t)
	for _, tc := range []struct{ lang, program, src, body string }{
		{"c", fixture(t, "c/loop.c"), fixture(t, "c/loop.c"), "int result = x * x"},
		{"cpp", fixture(t, "cpp/loop.cpp"), fixture(t, "cpp/loop.cpp"), "int result = x * x"},
		{"rust", fixture(t, "rust"), fixture(t, "rust/src/main.rs"), "let result = x * x"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			if tc.lang == "rust" {
				requireCargo(t)
			}
			c := startDbg(t)
			line := mcpLine(t, tc.src, "BREAK: loop body")
			id, _ := mcpLaunch(t, c, tc.lang, tc.src, []int{line}, tc.program, nil)
			in := c.ok("step_into", map[string]any{"sessionId": id})
			body := mcpLine(t, tc.src, tc.body)
			if in.num("lastStop.location.line") != body {
				t.Fatalf("step_into: %v, want line %d", in.get("lastStop"), body)
			}
			frames := c.ok("get_stack_trace", map[string]any{"sessionId": id}).list("stackFrames")
			if len(frames) < 2 || !strings.Contains(frames[0].str("name"), "square") || frames[1].num("line") != line {
				t.Fatalf("stack in square: %v", frames)
			}
			mcpCheckLocals(t, mcpLocals(t, c, id), map[string]string{"x": "0"})
			out := c.ok("step_out", map[string]any{"sessionId": id})
			if out.num("lastStop.location.line") != line {
				t.Errorf("step_out: %v, want line %d", out.get("lastStop"), line)
			}
			mcpFinish(t, c, id, "done total=")
		})
	}
}

// TestMCPNativeRustPanic stops where a Rust program panics (the language
// default breakOnExceptions is uncaught).
func TestMCPNativeRustPanic(t *testing.T) {
	t.Parallel()
	requireCargo(t)
	src := writeSource(t, "panic.rs", `fn check(v: i32) -> i32 {
    if v > 2 {
        panic!("value {} is too large", v); // PANIC
    }
    v
}

fn main() {
    println!("before");
    println!("{}", check(5));
}
`)
	c := startDbg(t)
	id, st := mcpLaunch(t, c, "rust", src, nil, src, nil)
	line := mcpLine(t, src, "// PANIC")
	if st.str("lastStop.reason") != "exception" || st.num("lastStop.location.line") != line || st.str("lastStop.location.file") != src {
		t.Fatalf("stop %v, want an exception at %s:%d", st.get("lastStop"), src, line)
	}
	if got := mcpEval(t, c, id, "v"); got != "5" {
		t.Errorf("v = %q at the panic, want 5", got)
	}
	mcpEnd(t, c, id, "value 5 is too large")
}

func TestMCPNativeCArgsEnvCwd(t *testing.T) {
	t.Parallel()
	requireLLDB(t)
	src := writeSource(t, "echo.c", `#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(int argc, char **argv) {
	char cwd[4096];
	printf("%s %s %s\n", argc > 1 ? argv[1] : "-", getenv("DBG_E2E"), getcwd(cwd, sizeof cwd));
	return 0;
}
`)
	mcpArgsEnvCwd(t, "c", src)
}

// TestMCPNativeRustSetField changes a struct field through its parent's
// variablesReference; the program prints the effect.
func TestMCPNativeRustSetField(t *testing.T) {
	t.Parallel()
	requireCargo(t)
	c := startDbg(t)
	dir := fixture(t, "rust")
	src := filepath.Join(dir, "src", "main.rs")
	id, _ := mcpLaunch(t, c, "rust", src, []int{mcpLine(t, src, "BREAK: loop body")}, dir, nil)
	p := mcpLocals(t, c, id)["p"]
	r := c.ok("set_variable", map[string]any{"sessionId": id, "variablesReference": p.num("variablesReference"), "name": "x", "value": "10"})
	if r.str("result") != "10" {
		t.Errorf("set_variable p.x: %v", r)
	}
	if got := mcpEval(t, c, id, "p.x"); got != "10" {
		t.Errorf("p.x = %q after the change", got)
	}
	mcpFinish(t, c, id, "done total=80 y=4")
}

// TestMCPNativeCOBOLRuntimeError stops on a COBOL runtime error (a CALL
// of a missing program) at its .cob line; the message reaches the output.
func TestMCPNativeCOBOLRuntimeError(t *testing.T) {
	t.Parallel()
	requireCOBOL(t)
	src := writeSource(t, "callbad.cob", `       IDENTIFICATION DIVISION.
       PROGRAM-ID. CALLBAD.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01 WS-N         PIC 9(3) VALUE 42.
       PROCEDURE DIVISION.
       MAIN-PARA.
           DISPLAY "BEFORE " WS-N
           CALL "NOSUCHPROG"
           DISPLAY "AFTER"
           STOP RUN.
`)
	c := startDbg(t)
	id, st := mcpLaunch(t, c, "cobol", src, nil, src, nil)
	line := mcpLine(t, src, `CALL "NOSUCHPROG"`)
	if st.str("lastStop.reason") != "exception" {
		t.Fatalf("stop %v, want an exception", st.get("lastStop"))
	}
	frames := c.ok("get_stack_trace", map[string]any{"sessionId": id, "levels": 50}).list("stackFrames")
	var at obj
	for _, f := range frames {
		if f.str("file") == src {
			at = f
			break
		}
	}
	if at == nil || at.num("line") != line {
		t.Fatalf("no frame at %s:%d: %v", src, line, frames)
	}
	got := c.ok("get_local_variables", map[string]any{"sessionId": id, "frameId": at.num("id")}).list("variables")
	found := false
	for _, v := range got {
		if v.str("name") == "WS-N" && v.str("value") == "42" {
			found = true
		}
	}
	if !found {
		t.Errorf("WS-N not readable in the COBOL frame: %v", got)
	}
	mcpOutputHas(t, c, id, "BEFORE 042")
	mcpEnd(t, c, id, "NOSUCHPROG")
}
