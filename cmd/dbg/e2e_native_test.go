package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/adapters/cobol"
)

// End-to-end tests of the lldb-based adapters (c, cpp, rust, cobol)
// through the MCP tools: the session builds the source, launches it under
// lldb-vscode and reads native values.

func requireLLDB(t *testing.T) {
	t.Helper()
	if info := adapters.NewC().Find(context.Background()); info.Path == "" {
		t.Skipf("lldb's DAP adapter is not installed (scripts/deps/native.sh installs lldb-16): %s", info.Note)
	}
}

func requireCargo(t *testing.T) {
	t.Helper()
	requireLLDB(t)
	if _, err := exec.LookPath("cargo"); err != nil {
		t.Skip("cargo is not installed (the CI image ships rustup)")
	}
}

func requireCOBOL(t *testing.T) {
	t.Helper()
	requireLLDB(t)
	requireTool(t, "cobc", "--version")
}

// nativeLaunch runs the common launch flow: a breakpoint on the loop body
// of src, start program, check the stop, the top frame and the locals
// (check), step over to the next line, evaluate total + 10 (evalWant), run to the end
// and close.
func nativeLaunch(t *testing.T, lang, program, src, evalWant, output string, check func(c *client, id string, locals map[string]obj)) {
	c := startDbg(t)
	line := mcpLine(t, src, "BREAK: loop body")
	id, st := mcpLaunch(t, c, lang, src, []int{line}, program, nil)
	if st.str("lastStop.reason") != "breakpoint" || st.num("lastStop.location.line") != line {
		t.Fatalf("first stop %v, want a breakpoint at line %d", st, line)
	}
	mcpTop(t, c, id, src, line)
	locals := mcpLocals(t, c, id)
	mcpCheckLocals(t, locals, map[string]string{"total": "0", "i": "0"})
	if check != nil {
		check(c, id, locals)
	}
	step := c.ok("step_over", map[string]any{"sessionId": id})
	if step.str("state") != "paused" || step.num("lastStop.location.line") != line+1 {
		t.Fatalf("step_over: %v, want line %d", step, line+1)
	}
	mcpEvalFails(t, c, id, "nosuch")
	if got := mcpEval(t, c, id, "total + 10"); got != evalWant {
		t.Errorf("evaluate total + 10 = %q, want %s", got, evalWant)
	}
	mcpFinish(t, c, id, output)
}

func TestMCPNativeC(t *testing.T) {
	requireLLDB(t)
	src := fixture(t, "c/loop.c")
	nativeLaunch(t, "c", src, src, "10", "done total=30", nil)
}

func TestMCPNativeCPP(t *testing.T) {
	requireLLDB(t)
	src := fixture(t, "cpp/loop.cpp")
	nativeLaunch(t, "cpp", src, src, "10", "done total=30", func(c *client, id string, l map[string]obj) {
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

func TestMCPNativeRust(t *testing.T) {
	requireCargo(t)
	dir := fixture(t, "rust")
	src := filepath.Join(dir, "src", "main.rs")
	nativeLaunch(t, "rust", dir, src, "13", "done total=45 y=4", func(c *client, id string, l map[string]obj) {
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

// mcpAttach attaches to a running target by args, checks the pause, a
// thread and a frame in wantFile, detaches and checks that the target
// keeps printing marker lines.
func mcpAttach(t *testing.T, c *client, args map[string]any, pid int, out *lineBuffer, wantFile, marker string) {
	t.Helper()
	s := c.ok("create_debug_session", args)
	id := s.str("sessionId")
	s = mcpPaused(t, c, id, s)
	if len(c.ok("list_threads", map[string]any{"sessionId": id}).list("threads")) == 0 {
		t.Fatalf("no threads after attach")
	}
	stack := c.ok("get_stack_trace", map[string]any{"sessionId": id, "threadId": s.num("lastStop.threadId"), "levels": 50})
	found := false
	for _, f := range stack.list("stackFrames") {
		if strings.HasSuffix(f.str("file"), wantFile) && f.num("line") > 0 {
			found = true
		}
	}
	if !found {
		t.Fatalf("no frame in %s: %v", wantFile, stack)
	}
	// Paused: the output stops growing.
	time.Sleep(300 * time.Millisecond)
	paused := strings.Count(out.String(), marker)
	time.Sleep(500 * time.Millisecond)
	if n := strings.Count(out.String(), marker); n != paused {
		t.Errorf("the target printed %d lines while paused", n-paused)
	}
	c.ok("detach_from_process", map[string]any{"sessionId": id})
	deadline := time.Now().Add(10 * time.Second)
	for strings.Count(out.String(), marker) <= paused+1 {
		if time.Now().After(deadline) {
			t.Fatalf("the target stopped printing after detach; output: %s", out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	c.ok("close_debug_session", map[string]any{"sessionId": id})
	time.Sleep(200 * time.Millisecond)
	if !processAlive(pid) {
		t.Fatalf("closing an attached session killed the target")
	}
	if kids := childrenOf(c.cmd.Process.Pid); len(kids) > 0 {
		t.Errorf("the server still has child processes after close: %v", kids)
	}
}

// nativeAttach builds program, runs it with "forever" and attaches by pid.
func nativeAttach(t *testing.T, lang, program, wantFile, marker string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	bin, _, err := adapters.BuildNative(ctx, lang, program, "")
	if err != nil {
		t.Fatal(err)
	}
	cmd, out := startTarget(t, marker, bin, "forever")
	c := startDbg(t)
	mcpAttach(t, c, map[string]any{"language": lang, "processId": cmd.Process.Pid}, cmd.Process.Pid, out, wantFile, marker)
}

func TestMCPNativeCAttachByPID(t *testing.T) {
	requireLLDB(t)
	nativeAttach(t, "c", fixture(t, "c/loop.c"), "loop.c", "total=")
}

func TestMCPNativeCPPAttachByPID(t *testing.T) {
	requireLLDB(t)
	nativeAttach(t, "cpp", fixture(t, "cpp/loop.cpp"), "loop.cpp", "total=")
}

func TestMCPNativeRustAttachByPID(t *testing.T) {
	requireCargo(t)
	nativeAttach(t, "rust", fixture(t, "rust"), "main.rs", "total=")
}

func TestMCPNativeCOBOLAttachByPID(t *testing.T) {
	requireCOBOL(t)
	src := fixture(t, "cobol/spin.cob")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	prog, err := cobol.Build(ctx, src)
	if err != nil {
		t.Fatal(err)
	}
	// Each tick prints the zero-padded counter.
	cmd, out := startTarget(t, "00000", prog.Binary)
	c := startDbg(t)
	mcpAttach(t, c, map[string]any{"language": "cobol", "processId": cmd.Process.Pid}, cmd.Process.Pid, out, "spin.cob", "00000")
}

func TestMCPNativeCFeatures(t *testing.T) {
	requireLLDB(t)
	src := fixture(t, "c/loop.c")
	mcpFeatures(t, features{
		lang: "c", program: src, src: src, line: mcpLine(t, src, "BREAK: loop body"),
		cond: "i == 3", n: "3", logNext: "lp 4",
		runTo: mcpLine(t, src, `printf("done`), totalExpr: "total", total: "30", output: "done total=30",
	})
}

func TestMCPNativeCPPFeatures(t *testing.T) {
	requireLLDB(t)
	src := fixture(t, "cpp/loop.cpp")
	mcpFeatures(t, features{
		lang: "cpp", program: src, src: src, line: mcpLine(t, src, "BREAK: loop body"),
		cond: "i == 3", n: "3", logNext: "lp 4",
		runTo: mcpLine(t, src, `"done total="`), totalExpr: "total", total: "30", output: "done total=30",
	})
}

func TestMCPNativeRustFeatures(t *testing.T) {
	requireCargo(t)
	src := fixture(t, "rust/src/main.rs")
	// A .rs file of a Cargo project builds the project.
	mcpFeatures(t, features{
		lang: "rust", program: src, src: src, line: mcpLine(t, src, "BREAK: loop body"),
		cond: "i == 3", n: "3", logNext: "lp 4",
		runTo: mcpLine(t, src, `println!("done`), totalExpr: "total", total: "45", output: "done total=45",
	})
}

// nativeSetVariable stops at the loop body, sets total and expects the
// program to print the new value.
func nativeSetVariable(t *testing.T, lang, program, src, name, value, printed string) {
	c := startDbg(t)
	marker := "BREAK: loop body"
	if lang == "cobol" {
		marker = "ADD WS-SQUARE TO WS-TOTAL"
	}
	line := mcpLine(t, src, marker)
	id, st := mcpLaunch(t, c, lang, src, []int{line}, program, nil)
	if st.num("lastStop.location.line") != line {
		t.Fatalf("first stop %v, want line %d", st, line)
	}
	sv := c.ok("set_variable", map[string]any{"sessionId": id, "name": name, "value": value})
	if sv.str("result") != value {
		t.Errorf("set_variable %s = %s answered %v", name, value, sv)
	}
	if got := mcpLocals(t, c, id)[name].str("value"); got != value {
		t.Errorf("local %s = %q after set_variable, want %q", name, got, value)
	}
	mcpFinish(t, c, id, printed)
}

func TestMCPNativeCSetVariable(t *testing.T) {
	requireLLDB(t)
	src := fixture(t, "c/loop.c")
	nativeSetVariable(t, "c", src, src, "total", "100", "done total=130")
}

func TestMCPNativeRustSetVariable(t *testing.T) {
	requireCargo(t)
	dir := fixture(t, "rust")
	nativeSetVariable(t, "rust", dir, filepath.Join(dir, "src", "main.rs"), "total", "100", "done total=145")
}

func TestMCPNativeCOBOLSetVariable(t *testing.T) {
	requireCOBOL(t)
	src := fixture(t, "cobol/loop.cob")
	nativeSetVariable(t, "cobol", src, src, "WS-TOTAL", "500", "DONE TOTAL=00530")
}

// TestMCPNativeCAttachBreakpoint attaches to a running C program, stops
// it at a breakpoint, reads its locals and detaches.
func TestMCPNativeCAttachBreakpoint(t *testing.T) {
	requireLLDB(t)
	src := fixture(t, "c/loop.c")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	bin, _, err := adapters.BuildNative(ctx, "c", src, "")
	if err != nil {
		t.Fatal(err)
	}
	cmd, out := startTarget(t, "total=", bin, "forever")
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
	c.ok("clear_breakpoints", map[string]any{"sessionId": id})
	c.ok("detach_from_process", map[string]any{"sessionId": id})
	before := strings.Count(out.String(), "total=")
	deadline := time.Now().Add(10 * time.Second)
	for strings.Count(out.String(), "total=") <= before+1 {
		if time.Now().After(deadline) {
			t.Fatalf("the program stopped after detach")
		}
		time.Sleep(20 * time.Millisecond)
	}
	c.ok("close_debug_session", map[string]any{"sessionId": id})
	if !processAlive(cmd.Process.Pid) {
		t.Fatalf("closing the attached session killed the program")
	}
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("%q is not a number", s)
	}
	return n
}

// writeSource writes a program of the test's own into a temporary folder.
func writeSource(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestMCPNativeCCrash stops where a C program dereferences NULL, with the
// signal named, and the locals of the crashing frame readable.
func TestMCPNativeCCrash(t *testing.T) {
	requireLLDB(t)
	src := writeSource(t, "crash.c", `#include <stdio.h>
static int deref(int *p, int k) {
	return *p + k; /* CRASH */
}
int main(void) {
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("before\n");
	int *none = NULL;
	printf("%d\n", deref(none, 7));
	return 0;
}
`)
	c := startDbg(t)
	id, st := mcpLaunch(t, c, "c", src, nil, src, nil)
	line := mcpLine(t, src, "CRASH")
	if st.str("lastStop.reason") != "exception" || st.num("lastStop.location.line") != line {
		t.Fatalf("stop %v, want an exception at line %d", st, line)
	}
	if text := st.str("lastStop.text") + " " + st.str("lastStop.description"); !strings.Contains(text, "SIGSEGV") && !strings.Contains(strings.ToLower(text), "bad access") {
		t.Errorf("crash stop text %q names no signal", text)
	}
	mcpTop(t, c, id, src, line)
	mcpCheckLocals(t, mcpLocals(t, c, id), map[string]string{"k": "7"})
	mcpOutputHas(t, c, id, "before")
	mcpClose(t, c, id, mcpPIDs(t, c))
}

// TestMCPNativeCPPThrow stops on a C++ throw with breakOnExceptions all.
func TestMCPNativeCPPThrow(t *testing.T) {
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

func TestMCPNativeCPause(t *testing.T) {
	requireLLDB(t)
	src := fixture(t, "c/loop.c")
	mcpPauseFlow(t, "c", src, src, "forever")
}

// TestMCPNativeCOBOLStepIntoParagraph steps from a PERFORM into the
// paragraph and back.
func TestMCPNativeCOBOLStepIntoParagraph(t *testing.T) {
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

// TestMCPNativeCOBOLCondition stops at a breakpoint whose condition names
// COBOL data items.
func TestMCPNativeCOBOLCondition(t *testing.T) {
	requireCOBOL(t)
	c := startDbg(t)
	src := fixture(t, "cobol/loop.cob")
	line := mcpLine(t, src, "ADD WS-SQUARE TO WS-TOTAL")
	id := c.ok("create_debug_session", map[string]any{"language": "cobol"}).str("sessionId")
	c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": line, "condition": "WS-I = 3"})
	mcpPaused(t, c, id, c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src}))
	if got := mcpEval(t, c, id, "WS-I"); got != "3" {
		t.Errorf("conditional breakpoint WS-I = 3 stopped with WS-I = %q", got)
	}
	mcpFinish(t, c, id, "DONE TOTAL=00130")
}

func TestMCPNativeCEntry(t *testing.T) {
	requireLLDB(t)
	mcpEntryFlow(t, "c", fixture(t, "c/loop.c"), "done total=30")
}

func TestMCPNativeRustEntry(t *testing.T) {
	requireCargo(t)
	mcpEntryFlow(t, "rust", fixture(t, "rust"), "done total=45")
}

func TestMCPNativeCOBOLEntry(t *testing.T) {
	requireCOBOL(t)
	mcpEntryFlow(t, "cobol", fixture(t, "cobol/loop.cob"), "DONE TOTAL=00130")
}

// nativeAttachRunning attaches to bin by pid with stopOnEntry false: the
// program keeps running until a breakpoint stops it.
func nativeAttachRunning(t *testing.T, lang, bin, src, line, marker string, args ...string) {
	cmd, out := startTarget(t, marker, bin, args...)
	c := startDbg(t)
	s := c.ok("create_debug_session", map[string]any{"language": lang, "processId": cmd.Process.Pid, "stopOnEntry": false})
	id := s.str("sessionId")
	if s.str("state") != "running" {
		t.Errorf("attach without pause answered %v", s)
	}
	before := strings.Count(out.String(), marker)
	deadline := time.Now().Add(10 * time.Second)
	for strings.Count(out.String(), marker) <= before+1 {
		if time.Now().After(deadline) {
			t.Fatalf("the program does not run after an attach without pause")
		}
		time.Sleep(20 * time.Millisecond)
	}
	l := mcpLine(t, src, line)
	c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": l})
	st := c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 30000})
	if st.str("state") != "paused" || st.str("lastStop.reason") != "breakpoint" || st.num("lastStop.location.line") != l {
		t.Fatalf("stop %v, want the breakpoint at line %d", st, l)
	}
	c.ok("clear_breakpoints", map[string]any{"sessionId": id})
	c.ok("detach_from_process", map[string]any{"sessionId": id})
	c.ok("close_debug_session", map[string]any{"sessionId": id})
	before = strings.Count(out.String(), marker)
	deadline = time.Now().Add(10 * time.Second)
	for strings.Count(out.String(), marker) <= before+1 {
		if time.Now().After(deadline) {
			t.Fatalf("the program does not run after detach")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestMCPNativeCAttachRunning(t *testing.T) {
	requireLLDB(t)
	src := fixture(t, "c/loop.c")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	bin, _, err := adapters.BuildNative(ctx, "c", src, "")
	if err != nil {
		t.Fatal(err)
	}
	nativeAttachRunning(t, "c", bin, src, "BREAK: loop body", "total=", "forever")
}

func TestMCPNativeCOBOLAttachRunning(t *testing.T) {
	requireCOBOL(t)
	src := fixture(t, "cobol/spin.cob")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	prog, err := cobol.Build(ctx, src)
	if err != nil {
		t.Fatal(err)
	}
	nativeAttachRunning(t, "cobol", prog.Binary, src, "ADD 1 TO WS-TICK", "00000")
}

// TestMCPNativeCOBOLAttachNames attaches to a running COBOL program by pid
// and reads its WORKING-STORAGE by COBOL name.
func TestMCPNativeCOBOLAttachNames(t *testing.T) {
	requireCOBOL(t)
	src := fixture(t, "cobol/spin.cob")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	prog, err := cobol.Build(ctx, src)
	if err != nil {
		t.Fatal(err)
	}
	cmd, _ := startTarget(t, "00000", prog.Binary)
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

func TestMCPNativeFunctionBreakpoint(t *testing.T) {
	requireLLDB(t)
	c, cpp := fixture(t, "c/loop.c"), fixture(t, "cpp/loop.cpp")
	t.Run("c", func(t *testing.T) {
		mcpFunctionBreakpoint(t, "c", c, "square", c, mcpLine(t, c, "int result = x * x"), "x", "0", "done total=30", nil)
	})
	t.Run("cpp", func(t *testing.T) {
		mcpFunctionBreakpoint(t, "cpp", cpp, "square", cpp, mcpLine(t, cpp, "int result = x * x"), "x", "0", "done total=30", nil)
	})
	t.Run("rust", func(t *testing.T) {
		requireCargo(t)
		rs := fixture(t, "rust/src/main.rs")
		mcpFunctionBreakpoint(t, "rust", fixture(t, "rust"), "square", rs, mcpLine(t, rs, "let result = x * x"), "x", "0", "done total=45", nil)
	})
}

// TestMCPNativeCOBOLRestart restarts a COBOL session at a breakpoint:
// the breakpoint is kept, the old program is gone, values start over.
func TestMCPNativeCOBOLRestart(t *testing.T) {
	requireCOBOL(t)
	c := startDbg(t)
	src := fixture(t, "cobol/loop.cob")
	line := mcpLine(t, src, "ADD WS-SQUARE TO WS-TOTAL")
	id, _ := mcpLaunch(t, c, "cobol", src, []int{line}, src, nil)
	c.ok("continue_execution", map[string]any{"sessionId": id})
	st := mcpPaused(t, c, id, c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 30000}))
	if got := mcpEval(t, c, id, "WS-I"); got != "1" || st.num("lastStop.location.line") != line {
		t.Fatalf("second pass: WS-I = %q, stop %v", got, st.get("lastStop"))
	}
	old := mcpPIDs(t, c)
	st = mcpPaused(t, c, id, c.ok("restart_debugging", map[string]any{"sessionId": id}))
	if st.num("lastStop.location.line") != line {
		t.Fatalf("stop after restart %v, want line %d", st, line)
	}
	waitGone(t, 10*time.Second, old[0])
	if got := mcpEval(t, c, id, "WS-I"); got != "0" {
		t.Errorf("WS-I = %q after restart, want 0", got)
	}
	mcpFinish(t, c, id, "DONE TOTAL=00130")
}

// TestMCPNativeCOBOLLogPoint logs COBOL data items by name.
func TestMCPNativeCOBOLLogPoint(t *testing.T) {
	requireCOBOL(t)
	c := startDbg(t)
	src := fixture(t, "cobol/loop.cob")
	line := mcpLine(t, src, "ADD WS-SQUARE TO WS-TOTAL")
	id := c.ok("create_debug_session", map[string]any{"language": "cobol"}).str("sessionId")
	c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": line, "logMessage": "square {WS-SQUARE}"})
	st := c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src})
	if st.str("state") != "terminated" {
		st = c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 30000})
	}
	if st.str("state") != "terminated" {
		t.Fatalf("a log point stopped the program: %v", st)
	}
	mcpOutputHas(t, c, id, "square 16")
	c.ok("close_debug_session", map[string]any{"sessionId": id})
}

// TestMCPNativeStepInOut steps into square from the loop and back out.
func TestMCPNativeStepInOut(t *testing.T) {
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

// TestMCPClientGoneLeavesNothing stops java, javascript, ruby and c
// programs at breakpoints, then the MCP client goes away: the server
// exits and every adapter and debuggee with it.
func TestMCPClientGoneLeavesNothing(t *testing.T) {
	requireLLDB(t)
	requireJava(t)
	requireNode(t)
	requireRdbg(t)
	c := startDbg(t)
	for _, p := range []struct{ lang, file, marker string }{
		{"c", fixture(t, "c/loop.c"), "BREAK: loop body"},
		{"java", fixture(t, "java/Loop.java"), "BP:loop"},
		{"javascript", fixture(t, "javascript/loop.js"), "BP:loop"},
		{"ruby", fixture(t, "ruby/loop.rb"), "BREAK: loop body"},
	} {
		mcpLaunch(t, c, p.lang, p.file, []int{mcpLine(t, p.file, p.marker)}, p.file, nil)
	}
	server := c.cmd.Process.Pid
	kids := childrenOf(server)
	if len(kids) < 4 {
		t.Fatalf("only %d processes under the server with four sessions: %v", len(kids), kids)
	}
	c.close()
	waitGone(t, 20*time.Second, append(kids, server)...)
}

// TestMCPNativeRustPanic stops where a Rust program panics (the language
// default breakOnExceptions is uncaught).
func TestMCPNativeRustPanic(t *testing.T) {
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
	pids := mcpPIDs(t, c)
	c.ok("continue_execution", map[string]any{"sessionId": id})
	if end := c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 30000}); end.str("state") != "terminated" {
		t.Fatalf("after continue: %v", end)
	}
	mcpOutputHas(t, c, id, "value 5 is too large")
	mcpClose(t, c, id, pids)
}

// TestMCPNativeCPPUncaught stops on an uncaught C++ exception with the
// default breakOnExceptions, with the throwing frame on the stack.
func TestMCPNativeCPPUncaught(t *testing.T) {
	requireLLDB(t)
	src := writeSource(t, "uncaught.cpp", `#include <iostream>
#include <stdexcept>
static int check(int v) {
	if (v > 2) {
		throw std::runtime_error("value too large"); // THROW
	}
	return v;
}
int main() {
	std::cout << "before" << std::endl;
	return check(5);
}
`)
	c := startDbg(t)
	id, st := mcpLaunch(t, c, "cpp", src, nil, src, nil)
	if st.str("lastStop.reason") != "exception" {
		t.Fatalf("stop %v, want an exception", st.get("lastStop"))
	}
	line := mcpLine(t, src, "THROW")
	frames := c.ok("get_stack_trace", map[string]any{"sessionId": id, "levels": 50}).list("stackFrames")
	found := false
	for _, f := range frames {
		if f.str("file") == src && f.num("line") == line {
			found = true
		}
	}
	if !found {
		t.Fatalf("no frame at the throw (%s:%d): %v", src, line, frames)
	}
	mcpOutputHas(t, c, id, "before")
	mcpClose(t, c, id, mcpPIDs(t, c))
}

func TestMCPNativeCArgsEnvCwd(t *testing.T) {
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

func TestMCPNativeHitCondition(t *testing.T) {
	requireLLDB(t)
	t.Run("c", func(t *testing.T) {
		src := fixture(t, "c/loop.c")
		mcpHitCondition(t, "c", src, src, mcpLine(t, src, "BREAK: loop body"), "i", "done total=30")
	})
	t.Run("rust", func(t *testing.T) {
		requireCargo(t)
		src := fixture(t, "rust/src/main.rs")
		mcpHitCondition(t, "rust", fixture(t, "rust"), src, mcpLine(t, src, "BREAK: loop body"), "i", "done total=45")
	})
	t.Run("cobol", func(t *testing.T) {
		requireCOBOL(t)
		src := fixture(t, "cobol/loop.cob")
		mcpHitCondition(t, "cobol", src, src, mcpLine(t, src, "ADD WS-SQUARE TO WS-TOTAL"), "WS-I", "DONE TOTAL=00130")
	})
}

// TestMCPLanguagesListed checks list_supported_languages for the
// languages these tests debug (directly or as an alias): found, with what
// each can do.
func TestMCPLanguagesListed(t *testing.T) {
	requireLLDB(t)
	requireJava(t)
	requireNode(t)
	requireRdbg(t)
	requireCOBOL(t)
	c := startDbg(t)
	got := map[string]obj{}
	for _, l := range c.ok("list_supported_languages", nil).list("languages") {
		got[l.str("language")] = l
		if as, ok := l.get("aliases").([]any); ok {
			for _, a := range as {
				if name, ok := a.(string); ok {
					got[name] = l
				}
			}
		}
	}
	for lang, want := range map[string][2]bool{ // attach by pid, by port
		"java": {true, true}, "javascript": {true, true}, "typescript": {true, true},
		"c": {true, false}, "cpp": {true, false}, "rust": {true, false},
		"ruby": {false, true}, "cobol": {true, false},
	} {
		l, ok := got[lang]
		if !ok {
			t.Errorf("%s is not listed", lang)
			continue
		}
		if l.get("found") != true || l.get("launch") != true || l.str("adapter") == "" {
			t.Errorf("%s listed as %v", lang, l)
		}
		if l.get("attachByPid") != want[0] || l.get("attachByPort") != want[1] {
			t.Errorf("%s attach by pid %v, by port %v; want %v", lang, l.get("attachByPid"), l.get("attachByPort"), want)
		}
	}
}

// TestMCPNativeRustSetField changes a struct field through its parent's
// variablesReference; the program prints the effect.
func TestMCPNativeRustSetField(t *testing.T) {
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
	pids := mcpPIDs(t, c)
	c.ok("continue_execution", map[string]any{"sessionId": id})
	if end := c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 30000}); end.str("state") != "terminated" {
		t.Fatalf("after continue: %v", end)
	}
	mcpOutputHas(t, c, id, "NOSUCHPROG")
	mcpClose(t, c, id, pids)
}
