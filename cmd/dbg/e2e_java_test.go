package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// End-to-end tests of the Java adapter through the MCP tools. The helpers
// prefixed mcp are shared by the other languages' e2e files.

func requireJava(t *testing.T) {
	t.Helper()
	requireTool(t, "java", "-version")
	requireTool(t, "javac", "-version")
}

// mcpLine returns the 1-based line of path whose text contains s.
func mcpLine(t testing.TB, path, s string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, s) {
			return i + 1
		}
	}
	t.Fatalf("no line containing %q in %s", s, path)
	return 0
}

// mcpPaused returns st when it is paused, else waits for the next stop.
func mcpPaused(t testing.TB, c *client, id string, st obj) obj {
	t.Helper()
	if st.str("state") != "paused" {
		st = c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 60000})
	}
	if st.str("state") != "paused" {
		t.Fatalf("not paused: %v", st)
	}
	return st
}

// mcpLaunch creates a session of lang, sets a breakpoint at each of lines
// in file, starts program with the extra start arguments and returns the
// session id and the first stop.
func mcpLaunch(t testing.TB, c *client, lang, file string, lines []int, program string, start map[string]any) (string, obj) {
	t.Helper()
	id := c.ok("create_debug_session", map[string]any{"language": lang, "name": "e2e-" + lang}).str("sessionId")
	for _, l := range lines {
		bp := c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": file, "line": l})
		if bp.num("line") != l {
			t.Fatalf("set_breakpoint %s:%d answered %v", file, l, bp)
		}
	}
	args := map[string]any{"sessionId": id, "scriptPath": program}
	for k, v := range start {
		args[k] = v
	}
	st := c.ok("start_debugging", args)
	return id, mcpPaused(t, c, id, st)
}

// mcpLocals returns the top frame's locals by name.
func mcpLocals(t testing.TB, c *client, id string) map[string]obj {
	t.Helper()
	out := map[string]obj{}
	for _, v := range c.ok("get_local_variables", map[string]any{"sessionId": id}).list("variables") {
		out[v.str("name")] = v
	}
	return out
}

// mcpCheckLocals checks the values of some locals.
func mcpCheckLocals(t testing.TB, locals map[string]obj, want map[string]string) {
	t.Helper()
	for name, w := range want {
		if got := locals[name].str("value"); got != w {
			t.Errorf("local %s = %q, want %q (all: %v)", name, got, w, locals)
		}
	}
}

// mcpChildren returns the children of a variable by name.
func mcpChildren(t testing.TB, c *client, id string, v obj) map[string]string {
	t.Helper()
	ref := v.num("variablesReference")
	if ref == 0 {
		t.Fatalf("variable %v has no children", v)
	}
	out := map[string]string{}
	for _, ch := range c.ok("get_variables", map[string]any{"sessionId": id, "scope": ref}).list("variables") {
		out[ch.str("name")] = ch.str("value")
	}
	return out
}

// mcpEval evaluates expr in the top frame.
func mcpEval(t testing.TB, c *client, id, expr string) string {
	t.Helper()
	return c.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": expr}).str("result")
}

// mcpEvalFails checks that evaluating an unknown name fails with a
// message naming it.
func mcpEvalFails(t testing.TB, c *client, id, name string) {
	t.Helper()
	r := c.call("evaluate_expression", map[string]any{"sessionId": id, "expression": name + " + 1"})
	if r.Success {
		t.Errorf("evaluating an unknown name succeeded: %v", r.Data)
		return
	}
	if !strings.Contains(r.Error.Message, name) {
		t.Errorf("evaluate error %s: %q does not name %s", r.Error.Code, r.Error.Message, name)
	}
}

// mcpTop checks the top frame of the stopped thread.
func mcpTop(t testing.TB, c *client, id, file string, line int) obj {
	t.Helper()
	frames := c.ok("get_stack_trace", map[string]any{"sessionId": id}).list("stackFrames")
	if len(frames) == 0 {
		t.Fatalf("empty stack")
	}
	if frames[0].str("file") != file || frames[0].num("line") != line {
		t.Fatalf("top frame %v, want %s:%d", frames[0], file, line)
	}
	return frames[0]
}

// mcpPIDs returns the debuggee's and the adapter's pids of the only session.
func mcpPIDs(t testing.TB, c *client) []int {
	t.Helper()
	ss := c.ok("list_debug_sessions", nil).list("sessions")
	if len(ss) != 1 {
		t.Fatalf("sessions: %v", ss)
	}
	return []int{ss[0].num("pid"), ss[0].num("adapterPid")}
}

// mcpDebuggee returns the debuggee's pid: the session's, or else the
// server's descendants whose command line names program.
func mcpDebuggee(t testing.TB, c *client, program string) []int {
	t.Helper()
	if pid := mcpPIDs(t, c)[0]; pid > 0 {
		return []int{pid}
	}
	var out []int
	for _, p := range childrenOf(c.cmd.Process.Pid) {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p))
		if strings.Contains(string(b), program) {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no process of %s under the server", program)
	}
	return out
}

// mcpSessionPID checks that list_debug_sessions names the pid of the
// launched debuggee (the server's descendant running program).
func mcpSessionPID(t *testing.T, lang, file string, line int, program string) {
	c := startDbg(t)
	id, _ := mcpLaunch(t, c, lang, file, []int{line}, program, nil)
	got := mcpPIDs(t, c)[0]
	var want []int
	for _, p := range childrenOf(c.cmd.Process.Pid) {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p))
		if strings.Contains(string(b), program) {
			want = append(want, p)
		}
	}
	if len(want) == 0 || got != want[len(want)-1] {
		t.Errorf("list_debug_sessions pid = %d, want the debuggee %v", got, want)
	}
	c.ok("close_debug_session", map[string]any{"sessionId": id})
}

// mcpFinish clears the breakpoints, runs the program to its end, checks
// its output, closes the session and checks nothing is left running.
func mcpFinish(t testing.TB, c *client, id, output string) {
	t.Helper()
	pids := mcpPIDs(t, c)
	c.ok("clear_breakpoints", map[string]any{"sessionId": id})
	c.ok("continue_execution", map[string]any{"sessionId": id})
	end := c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 60000})
	if end.str("state") != "terminated" {
		t.Fatalf("after continue: %v", end)
	}
	mcpOutputHas(t, c, id, output)
	mcpClose(t, c, id, pids)
}

// mcpOutputHas checks that the session's output contains want.
func mcpOutputHas(t testing.TB, c *client, id, want string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		out := c.ok("get_output", map[string]any{"sessionId": id}).str("text")
		if strings.Contains(out, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("output %q does not contain %q", out, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// mcpClose closes the session and checks that pids and every child of the
// server are gone.
func mcpClose(t testing.TB, c *client, id string, pids []int) {
	t.Helper()
	c.ok("close_debug_session", map[string]any{"sessionId": id})
	waitGone(t, 10*time.Second, pids...)
	deadline := time.Now().Add(10 * time.Second)
	for {
		kids := childrenOf(c.cmd.Process.Pid)
		if len(kids) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server still has child processes after close: %v", kids)
		}
		time.Sleep(50 * time.Millisecond)
	}
	c.fail("close_debug_session", map[string]any{"sessionId": id}, "SESSION_NOT_FOUND")
}

// startTargetIn is startTarget with a working directory.
func startTargetIn(t testing.TB, dir, ready, name string, args ...string) (*exec.Cmd, *lineBuffer) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out := &lineBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	})
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(out.String(), ready) {
		if time.Now().After(deadline) {
			t.Fatalf("%s never printed %q; output: %s", name, ready, out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	return cmd, out
}

func TestMCPJavaScenario(t *testing.T) {
	requireJava(t)
	prog := fixture(t, "java/Loop.java")
	line := mcpLine(t, prog, "BP:loop")
	runScenario(t, scenario{
		language: "java", program: prog, breakLine: line, nextLine: line - 1,
		locals:   map[string]string{"sum": "0", "i": "0", "label": `"total"`},
		evalExpr: "sum + 10", evalWant: "10", output: "total=5",
	})
}

// TestMCPJavaInspect evaluates Java expressions on collections, arithmetic
// and fields, and reads collections and objects as locals.
func TestMCPJavaInspect(t *testing.T) {
	requireJava(t)
	c := startDbg(t)
	prog := fixture(t, "java/Graph.java")
	line := mcpLine(t, prog, "BP:graph")
	id, st := mcpLaunch(t, c, "java", prog, []int{line}, prog, nil)
	if st.num("lastStop.location.line") != line || st.str("lastStop.reason") != "breakpoint" {
		t.Fatalf("first stop %v, want a breakpoint at %d", st, line)
	}
	mcpTop(t, c, id, prog, line)
	locals := mcpLocals(t, c, id)
	mcpCheckLocals(t, locals, map[string]string{
		"a": "3", "b": "4", "message": `"hello"`,
		"list": `ArrayList size=2 ["a", "b"]`, "map": `HashMap size=1 {"k"=5}`,
	})
	if g := mcpChildren(t, c, id, locals["g"]); g["name"] != `"root"` || g["boxed"] != "42" {
		t.Errorf("g's fields: %v", g)
	}
	for expr, want := range map[string]string{
		"list.size()":  "2",
		`map.get("k")`: "5",
		"a + b * 2":    "11",
		"g.name":       `"root"`,
		"g.total()":    "6",
	} {
		if got := mcpEval(t, c, id, expr); got != want {
			t.Errorf("evaluate %s = %q, want %q", expr, got, want)
		}
	}
	mcpEvalFails(t, c, id, "nosuch")
	step := c.ok("step_over", map[string]any{"sessionId": id})
	if step.num("lastStop.location.line") != line+1 {
		t.Fatalf("step_over: %v, want line %d", step, line+1)
	}
	if got := mcpEval(t, c, id, "r"); got != "6" {
		t.Errorf("r after the step = %q, want 6", got)
	}
	mcpFinish(t, c, id, "message=hello a=3 r=6")
}

// TestMCPJavaSetVariable changes a local and sees the program print it.
func TestMCPJavaSetVariable(t *testing.T) {
	requireJava(t)
	c := startDbg(t)
	prog := fixture(t, "java/Loop.java")
	line := mcpLine(t, prog, "BP:print")
	id, st := mcpLaunch(t, c, "java", prog, []int{line}, prog, nil)
	if st.num("lastStop.location.line") != line {
		t.Fatalf("first stop %v, want line %d", st, line)
	}
	mcpCheckLocals(t, mcpLocals(t, c, id), map[string]string{"sum": "5"})
	sv := c.ok("set_variable", map[string]any{"sessionId": id, "name": "sum", "value": "41"})
	if sv.str("result") != "41" {
		t.Fatalf("set_variable: %v", sv)
	}
	if got := mcpEval(t, c, id, "sum"); got != "41" {
		t.Fatalf("sum after set_variable = %q, want 41", got)
	}
	c.ok("set_variable", map[string]any{"sessionId": id, "name": "label", "value": `"changed"`})
	mcpFinish(t, c, id, "changed=41")
}

// TestMCPJavaExceptionBreakpoint stops on an uncaught exception (and not
// on the caught one before it) with its message.
func TestMCPJavaExceptionBreakpoint(t *testing.T) {
	requireJava(t)
	c := startDbg(t)
	prog := fixture(t, "java/Exceptions.java")
	throwLine := mcpLine(t, prog, "BP:throw")
	id, st := mcpLaunch(t, c, "java", prog, nil, prog, map[string]any{"breakOnExceptions": "uncaught"})
	if st.str("lastStop.reason") != "exception" || st.num("lastStop.location.line") != throwLine {
		t.Fatalf("stop %v, want an exception at line %d", st, throwLine)
	}
	text := st.str("lastStop.text") + " " + st.str("lastStop.description")
	if !strings.Contains(text, "uncaught one") || !strings.Contains(text, "IllegalStateException") {
		t.Errorf("exception stop text %q lacks the message and type", text)
	}
	mcpTop(t, c, id, prog, throwLine)
	if got := mcpEval(t, c, id, "why"); got != `"uncaught one"` {
		t.Errorf("why = %q", got)
	}
	mcpOutputHas(t, c, id, "caught: caught one")
	pids := mcpPIDs(t, c)
	c.ok("continue_execution", map[string]any{"sessionId": id})
	end := c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 60000})
	if end.str("state") != "terminated" {
		t.Fatalf("after continue: %v", end)
	}
	mcpClose(t, c, id, pids)

	// breakOnExceptions all stops on the caught one first.
	id, st = mcpLaunch(t, c, "java", prog, nil, prog, map[string]any{"breakOnExceptions": "all"})
	if st.str("lastStop.reason") != "exception" || !strings.Contains(st.str("lastStop.text")+st.str("lastStop.description"), "caught one") {
		t.Fatalf("stop %v, want the caught exception", st)
	}
	if got := mcpEval(t, c, id, "why"); got != `"caught one"` {
		t.Errorf("why = %q at the first exception", got)
	}
	c.ok("set_exception_breakpoints", map[string]any{"sessionId": id, "breakOnExceptions": "none"})
	mcpFinish(t, c, id, "caught: caught one")
}

// javaSpin compiles Spin.java and runs it with a JDWP agent on a free
// port, in the fixture directory (attach by pid finds sources there).
func javaSpin(t *testing.T) (*exec.Cmd, *lineBuffer, int) {
	t.Helper()
	classes := t.TempDir()
	src := fixture(t, "java/Spin.java")
	if out, err := exec.Command("javac", "-g", "-d", classes, src).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	port := freePort(t)
	cmd, out := startTargetIn(t, filepath.Dir(src), "tick", "java",
		fmt.Sprintf("-agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=127.0.0.1:%d", port),
		"-cp", classes, "Spin")
	return cmd, out, port
}

func TestMCPJavaAttachByPort(t *testing.T) {
	requireJava(t)
	cmd, out, port := javaSpin(t)
	c := startDbg(t)
	attachScenario(t, c, map[string]any{"language": "java", "port": port}, cmd.Process.Pid, out, "Spin.java")
}

func TestMCPJavaAttachByPID(t *testing.T) {
	requireJava(t)
	cmd, out, _ := javaSpin(t)
	c := startDbg(t)
	attachScenario(t, c, map[string]any{"language": "java", "processId": cmd.Process.Pid}, cmd.Process.Pid, out, "Spin.java")
}

// features is a walk through the breakpoint kinds and run controls of one
// language: a conditional breakpoint, restart_debugging (breakpoints
// kept, the old debuggee gone), a log point and run_to_line.
type features struct {
	lang, program, src string
	line               int    // the loop body
	cond               string // true on pass n only
	n                  string // the loop variable (i) at that pass
	logNext            string // the log point's message on the pass after it ("lp <i>")
	runTo              int    // a line after the loop
	totalExpr          string // evaluated at runTo
	total              string
	output             string
}

func mcpFeatures(t *testing.T, f features) {
	c := startDbg(t)
	id := c.ok("create_debug_session", map[string]any{"language": f.lang}).str("sessionId")
	bp := c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": f.src, "line": f.line, "condition": f.cond})
	st := mcpPaused(t, c, id, c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": f.program}))
	if st.num("lastStop.location.line") != f.line {
		t.Fatalf("first stop %v, want line %d", st, f.line)
	}
	if got := mcpEval(t, c, id, "i"); got != f.n {
		t.Fatalf("conditional breakpoint %q stopped with i = %q", f.cond, got)
	}

	old := mcpDebuggee(t, c, f.program)
	st = mcpPaused(t, c, id, c.ok("restart_debugging", map[string]any{"sessionId": id}))
	if st.num("lastStop.location.line") != f.line {
		t.Fatalf("stop after restart %v, want line %d", st, f.line)
	}
	if got := mcpEval(t, c, id, "i"); got != f.n {
		t.Fatalf("after restart the conditional breakpoint stopped with i = %q", got)
	}
	waitGone(t, 10*time.Second, old...)
	if now := mcpDebuggee(t, c, f.program); now[0] == old[0] {
		t.Errorf("debuggee pid %d after restart, was %d", now[0], old[0])
	}

	c.ok("remove_breakpoint", map[string]any{"sessionId": id, "breakpointId": bp.num("id")})
	c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": f.src, "line": f.line, "logMessage": "lp {i}"})
	st = mcpPaused(t, c, id, c.ok("run_to_line", map[string]any{"sessionId": id, "file": f.src, "line": f.runTo, "waitMs": 30000}))
	if st.num("lastStop.location.line") != f.runTo {
		t.Fatalf("run_to_line: %v, want line %d", st, f.runTo)
	}
	if got := mcpEval(t, c, id, f.totalExpr); got != f.total {
		t.Errorf("%s at line %d = %q, want %q", f.totalExpr, f.runTo, got, f.total)
	}
	mcpOutputHas(t, c, id, f.logNext)
	mcpFinish(t, c, id, f.output)
}

func TestMCPJavaFeatures(t *testing.T) {
	requireJava(t)
	prog := fixture(t, "java/Loop.java")
	mcpFeatures(t, features{
		lang: "java", program: prog, src: prog, line: mcpLine(t, prog, "BP:loop"),
		cond: "i == 1", n: "1", logNext: "lp 2",
		runTo: mcpLine(t, prog, "BP:print"), totalExpr: "sum", total: "5", output: "total=5",
	})
}

// TestMCPJavaClassAndClasspath launches a compiled main class of a
// package by name with adapterLaunchConfig.classpath; the sources are
// found under cwd.
func TestMCPJavaClassAndClasspath(t *testing.T) {
	requireJava(t)
	root := fixture(t, "java")
	main := filepath.Join(root, "demo", "app", "Main.java")
	helper := filepath.Join(root, "demo", "app", "Helper.java")
	classes := t.TempDir()
	if out, err := exec.Command("javac", "-g", "-d", classes, main, helper).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	c := startDbg(t)
	line := mcpLine(t, helper, "BP:helper")
	id, st := mcpLaunch(t, c, "java", helper, []int{line}, "demo.app.Main", map[string]any{
		"cwd": root, "args": []string{"dbg"}, "adapterLaunchConfig": map[string]any{"classpath": classes},
	})
	if st.num("lastStop.location.line") != line {
		t.Fatalf("first stop %v, want line %d", st, line)
	}
	caller := mcpLine(t, main, "BP:pkgmain")
	frames := c.ok("get_stack_trace", map[string]any{"sessionId": id}).list("stackFrames")
	if len(frames) < 2 || frames[0].str("file") != helper || frames[1].str("file") != main || frames[1].num("line") != caller {
		t.Fatalf("stack %v, want Helper.greet called from %s:%d", frames, main, caller)
	}
	mcpCheckLocals(t, mcpLocals(t, c, id), map[string]string{"name": `"dbg"`})
	out := c.ok("step_out", map[string]any{"sessionId": id})
	if out.num("lastStop.location.line") != caller || out.str("lastStop.location.file") != main {
		t.Errorf("step_out: %v, want %s:%d", out, main, caller)
	}
	mcpFinish(t, c, id, "hello, dbg")
}

// TestMCPJavaDefaultPackageClass launches a main class of the default
// package by name, as the Java adapter accepts.
func TestMCPJavaDefaultPackageClass(t *testing.T) {
	requireJava(t)
	src := fixture(t, "java/Loop.java")
	classes := t.TempDir()
	if out, err := exec.Command("javac", "-g", "-d", classes, src).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	c := startDbg(t)
	line := mcpLine(t, src, "BP:square")
	id, st := mcpLaunch(t, c, "java", src, []int{line}, "Loop", map[string]any{
		"cwd": filepath.Dir(src), "adapterLaunchConfig": map[string]any{"classpath": classes},
	})
	if st.num("lastStop.location.line") != line {
		t.Fatalf("first stop %v, want line %d", st, line)
	}
	mcpCheckLocals(t, mcpLocals(t, c, id), map[string]string{"x": "0"})
	mcpFinish(t, c, id, "total=5")
}

// TestMCPJavaAttachBreakpoint attaches to a running JVM by JDWP port,
// stops it at a breakpoint, changes a local the program then prints,
// and detaches.
func TestMCPJavaAttachBreakpoint(t *testing.T) {
	requireJava(t)
	for _, by := range []string{"port", "processId"} {
		t.Run(by, func(t *testing.T) { javaAttachBreakpoint(t, by) })
	}
}

func javaAttachBreakpoint(t *testing.T, by string) {
	cmd, out, port := javaSpin(t)
	src := fixture(t, "java/Spin.java")
	c := startDbg(t)
	args := map[string]any{"language": "java", "port": port, "stopOnEntry": false}
	if by == "processId" {
		args = map[string]any{"language": "java", "processId": cmd.Process.Pid, "stopOnEntry": false}
	}
	s := c.ok("create_debug_session", args)
	if s.str("state") != "running" {
		t.Errorf("attach without pause answered %v", s)
	}
	id := s.str("sessionId")
	line := mcpLine(t, src, "BP:spin")
	bp := c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": line})
	if bp.get("verified") != true {
		t.Fatalf("breakpoint in the attached JVM: %v", bp)
	}
	st := c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 30000})
	if st.str("state") != "paused" || st.str("lastStop.reason") != "breakpoint" || st.num("lastStop.location.line") != line {
		t.Fatalf("stop %v, want the breakpoint at line %d", st, line)
	}
	mcpTop(t, c, id, src, line)
	if got := mcpEval(t, c, id, "n > 0"); got != "true" {
		t.Errorf("n > 0 = %q", got)
	}
	c.ok("set_variable", map[string]any{"sessionId": id, "name": "n", "value": "1000000019"})
	c.ok("clear_breakpoints", map[string]any{"sessionId": id})
	c.ok("detach_from_process", map[string]any{"sessionId": id})
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), "tick 1000000020") {
		if time.Now().After(deadline) {
			t.Fatalf("the program did not print the changed counter after detach: %s", out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	c.ok("close_debug_session", map[string]any{"sessionId": id})
	if !processAlive(cmd.Process.Pid) {
		t.Fatalf("closing the attached session killed the JVM")
	}
}

// mcpPauseFlow launches a program that runs until killed, pauses it,
// finds a frame in src, resumes it, pauses it again and closes the
// session, which must end the program.
func mcpPauseFlow(t *testing.T, lang, program, src string, args ...string) {
	t.Helper()
	c := startDbg(t)
	id := c.ok("create_debug_session", map[string]any{"language": lang}).str("sessionId")
	st := c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": program, "args": args})
	if st.str("state") != "running" {
		t.Fatalf("start: %v, want running", st)
	}
	for round := 0; round < 2; round++ {
		time.Sleep(500 * time.Millisecond)
		p := mcpPaused(t, c, id, c.ok("pause_execution", map[string]any{"sessionId": id}))
		if p.str("lastStop.reason") != "pause" {
			t.Errorf("pause stop reason %q", p.str("lastStop.reason"))
		}
		frames := c.ok("get_stack_trace", map[string]any{"sessionId": id, "threadId": p.num("lastStop.threadId"), "levels": 50}).list("stackFrames")
		found := false
		for _, f := range frames {
			if f.str("file") == src && f.num("line") > 0 {
				found = true
			}
		}
		if !found {
			t.Fatalf("round %d: no frame in %s: %v", round, src, frames)
		}
		r := c.ok("continue_execution", map[string]any{"sessionId": id})
		if r.str("state") != "running" {
			t.Fatalf("continue: %v", r)
		}
	}
	// Restart while running: the old program goes, a new one runs.
	old := mcpDebuggee(t, c, program)
	r := c.ok("restart_debugging", map[string]any{"sessionId": id})
	if r.str("state") != "running" {
		t.Errorf("restart of a running program answered %v", r)
	}
	waitGone(t, 10*time.Second, old...)
	pids := mcpDebuggee(t, c, program)
	if pids[0] == old[0] {
		t.Errorf("the same debuggee %d after restart", pids[0])
	}
	p := mcpPaused(t, c, id, c.ok("pause_execution", map[string]any{"sessionId": id}))
	if p.str("lastStop.reason") != "pause" {
		t.Errorf("pause after restart: %v", p.get("lastStop"))
	}
	c.ok("close_debug_session", map[string]any{"sessionId": id})
	waitGone(t, 10*time.Second, pids...)
	deadline := time.Now().Add(10 * time.Second)
	for len(childrenOf(c.cmd.Process.Pid)) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("processes left after close: %v", childrenOf(c.cmd.Process.Pid))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestMCPJavaPause(t *testing.T) {
	requireJava(t)
	prog := fixture(t, "java/Spin.java")
	mcpPauseFlow(t, "java", prog, prog)
}

// TestMCPJavaArrayPaging reads a 250-element array through get_variables:
// the first answer is capped with a truncation note, start pages on.
func TestMCPJavaArrayPaging(t *testing.T) {
	requireJava(t)
	c := startDbg(t)
	prog := fixture(t, "java/Graph.java")
	line := mcpLine(t, prog, "BP:graph")
	id, _ := mcpLaunch(t, c, "java", prog, []int{line}, prog, nil)
	arr := mcpLocals(t, c, id)["arr"]
	if arr.str("value") != "int[250]" || arr.num("variablesReference") == 0 {
		t.Fatalf("arr = %v", arr)
	}
	first := c.ok("get_variables", map[string]any{"sessionId": id, "scope": arr.num("variablesReference")})
	if n := len(first.list("variables")); n != 100 || first.num("truncation.total") != 250 || first.num("truncation.nextStart") != 100 {
		t.Fatalf("first page: %d variables, truncation %v", n, first.get("truncation"))
	}
	if v := first.list("variables")[99]; v.str("name") != "[99]" || v.str("value") != "9801" {
		t.Errorf("arr[99] = %v", v)
	}
	page := c.ok("get_variables", map[string]any{"sessionId": id, "scope": arr.num("variablesReference"), "start": 100, "limit": 3})
	got := map[string]string{}
	for _, v := range page.list("variables") {
		got[v.str("name")] = v.str("value")
	}
	if len(got) != 3 || got["[100]"] != "10000" || got["[102]"] != "10404" {
		t.Errorf("page at 100: %v", got)
	}
	if got := mcpEval(t, c, id, "arr[249]"); got != "62001" {
		t.Errorf("arr[249] = %q", got)
	}
	mcpFinish(t, c, id, "message=hello")
}

// mcpEntryFlow starts program with stopOnEntry: it stops before running
// any of its code (no output yet), then runs to its end.
func mcpEntryFlow(t *testing.T, lang, program, output string) {
	t.Helper()
	c := startDbg(t)
	id := c.ok("create_debug_session", map[string]any{"language": lang}).str("sessionId")
	st := mcpPaused(t, c, id, c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": program, "stopOnEntry": true}))
	if st.str("lastStop.reason") != "entry" {
		t.Errorf("stop reason %q, want entry (%v)", st.str("lastStop.reason"), st)
	}
	if out := c.ok("get_output", map[string]any{"sessionId": id, "category": "stdout"}).str("text"); strings.Contains(out, output) {
		t.Errorf("the program ran before its entry stop: %q", out)
	}
	if len(c.ok("get_stack_trace", map[string]any{"sessionId": id}).list("stackFrames")) == 0 {
		t.Errorf("no stack at the entry stop")
	}
	mcpFinish(t, c, id, output)
}

func TestMCPJavaEntry(t *testing.T) {
	requireJava(t)
	mcpEntryFlow(t, "java", fixture(t, "java/Loop.java"), "total=5")
}

// mcpFunctionBreakpoint stops at a function breakpoint on fn: at the
// first line of its body in src, with its argument readable.
func mcpFunctionBreakpoint(t *testing.T, lang, program, fn, src string, line int, arg, want, output string, start map[string]any) {
	t.Helper()
	c := startDbg(t)
	id := c.ok("create_debug_session", map[string]any{"language": lang}).str("sessionId")
	c.ok("set_breakpoint", map[string]any{"sessionId": id, "function": fn})
	args := map[string]any{"sessionId": id, "scriptPath": program}
	for k, v := range start {
		args[k] = v
	}
	st := mcpPaused(t, c, id, c.ok("start_debugging", args))
	if st.str("lastStop.reason") != "function breakpoint" && st.str("lastStop.reason") != "breakpoint" {
		t.Errorf("stop reason %q", st.str("lastStop.reason"))
	}
	if st.num("lastStop.location.line") != line || st.str("lastStop.location.file") != src {
		t.Fatalf("stop %v, want %s:%d", st.get("lastStop"), src, line)
	}
	if got := mcpEval(t, c, id, arg); got != want {
		t.Errorf("%s = %q in %s, want %q", arg, got, fn, want)
	}
	bps := c.ok("list_breakpoints", map[string]any{"sessionId": id}).list("breakpoints")
	if len(bps) != 1 || bps[0].get("verified") != true {
		t.Errorf("function breakpoint listed as %v", bps)
	}
	mcpFinish(t, c, id, output)
}

func TestMCPJavaFunctionBreakpoint(t *testing.T) {
	requireJava(t)
	prog := fixture(t, "java/Loop.java")
	mcpFunctionBreakpoint(t, "java", prog, "Loop.square", prog, mcpLine(t, prog, "BP:square"), "x", "0", "total=5", nil)
}

// TestMCPJavaThreadsAndLambdas stops in a named thread's lambda, inside an
// inner class, a lambda and an anonymous class, reading each frame.
func TestMCPJavaThreadsAndLambdas(t *testing.T) {
	requireJava(t)
	t.Run("thread", func(t *testing.T) {
		c := startDbg(t)
		prog := fixture(t, "java/Threads.java")
		worker, main := mcpLine(t, prog, "BP:worker"), mcpLine(t, prog, "BP:main")
		id, st := mcpLaunch(t, c, "java", prog, []int{worker, main}, prog, nil)
		if st.num("lastStop.location.line") != worker {
			t.Fatalf("first stop %v, want line %d", st.get("lastStop"), worker)
		}
		var names []string
		stopped := ""
		for _, th := range c.ok("list_threads", map[string]any{"sessionId": id}).list("threads") {
			names = append(names, th.str("name"))
			if th.num("id") == st.num("lastStop.threadId") {
				stopped = th.str("name")
			}
		}
		if stopped != "worker-1" {
			t.Errorf("stopped in thread %q, want worker-1 (threads %v)", stopped, names)
		}
		mcpCheckLocals(t, mcpLocals(t, c, id), map[string]string{"local": "10"})
		st = mcpPaused(t, c, id, c.ok("continue_execution", map[string]any{"sessionId": id}))
		if st.num("lastStop.location.line") != main {
			t.Fatalf("second stop %v, want line %d", st.get("lastStop"), main)
		}
		if got := mcpEval(t, c, id, "shared"); got != "10" {
			t.Errorf("shared = %q in main after the worker, want 10", got)
		}
		mcpFinish(t, c, id, "shared=10")
	})
	t.Run("inner classes and lambdas", func(t *testing.T) {
		c := startDbg(t)
		prog := fixture(t, "java/Inner.java")
		inner, lambda, anon := mcpLine(t, prog, "BP:inner"), mcpLine(t, prog, "BP:lambda"), mcpLine(t, prog, "BP:anon")
		id, st := mcpLaunch(t, c, "java", prog, []int{inner, lambda, anon}, prog, nil)
		want := []struct {
			line       int
			expr, want string
		}{
			{inner, "by", "2"},
			{anon, "this.getClass().getName()", `"Inner$1"`},
			{lambda, "x", "21"},
		}
		for i, w := range want {
			if i > 0 {
				st = mcpPaused(t, c, id, c.ok("continue_execution", map[string]any{"sessionId": id}))
			}
			if st.num("lastStop.location.line") != w.line {
				t.Fatalf("stop %d: %v, want line %d", i, st.get("lastStop"), w.line)
			}
			mcpTop(t, c, id, prog, w.line)
			if got := mcpEval(t, c, id, w.expr); got != w.want {
				t.Errorf("line %d: %s = %q, want %q", w.line, w.expr, got, w.want)
			}
		}
		mcpFinish(t, c, id, "twice=42")
	})
}

// TestMCPJavaCapturedVariable evaluates a local captured by an anonymous
// class, as the source line at the stop reads it.
func TestMCPJavaCapturedVariable(t *testing.T) {
	requireJava(t)
	c := startDbg(t)
	prog := fixture(t, "java/Inner.java")
	anon := mcpLine(t, prog, "BP:anon")
	id, st := mcpLaunch(t, c, "java", prog, []int{anon}, prog, nil)
	if st.num("lastStop.location.line") != anon {
		t.Fatalf("stop %v, want line %d", st.get("lastStop"), anon)
	}
	if got := mcpEval(t, c, id, "c.count"); got != "2" {
		t.Errorf("c.count = %q, want 2", got)
	}
	mcpFinish(t, c, id, "twice=42")
}

// mcpArgsEnvCwd runs program with an argument, an environment variable
// and a working directory, and expects it to print "<arg> <env> <cwd>".
func mcpArgsEnvCwd(t *testing.T, lang, program string) {
	t.Helper()
	c := startDbg(t)
	cwd := t.TempDir()
	id := c.ok("create_debug_session", map[string]any{"language": lang}).str("sessionId")
	st := c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": program,
		"args": []string{"first-arg"}, "env": map[string]string{"DBG_E2E": "env-value"}, "cwd": cwd})
	if st.str("state") != "terminated" {
		st = c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 60000})
	}
	if st.str("state") != "terminated" {
		t.Fatalf("program did not end: %v", st)
	}
	mcpOutputHas(t, c, id, "first-arg env-value "+cwd)
	c.ok("close_debug_session", map[string]any{"sessionId": id})
}

func TestMCPJavaArgsEnvCwd(t *testing.T) {
	requireJava(t)
	dir := t.TempDir()
	prog := filepath.Join(dir, "Echo.java")
	src := `public class Echo {
    public static void main(String[] args) {
        System.out.println(args[0] + " " + System.getenv("DBG_E2E") + " " + System.getProperty("user.dir"));
    }
}
`
	if err := os.WriteFile(prog, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	mcpArgsEnvCwd(t, "java", prog)
}

// mcpHitCondition stops on the third pass of a loop line (hitCondition 3)
// and nowhere else.
func mcpHitCondition(t *testing.T, lang, program, src string, line int, iExpr, output string) {
	t.Helper()
	c := startDbg(t)
	id := c.ok("create_debug_session", map[string]any{"language": lang}).str("sessionId")
	c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": line, "hitCondition": "3"})
	st := mcpPaused(t, c, id, c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": program}))
	if st.num("lastStop.location.line") != line {
		t.Fatalf("stop %v, want line %d", st.get("lastStop"), line)
	}
	if got := mcpEval(t, c, id, iExpr); got != "2" {
		t.Errorf("hitCondition 3 stopped with %s = %q, want 2", iExpr, got)
	}
	pids := mcpPIDs(t, c)
	c.ok("continue_execution", map[string]any{"sessionId": id})
	if end := c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 60000}); end.str("state") != "terminated" {
		t.Fatalf("stopped again after the third hit: %v", end)
	}
	mcpOutputHas(t, c, id, output)
	mcpClose(t, c, id, pids)
}

func TestMCPJavaHitCondition(t *testing.T) {
	requireJava(t)
	prog := fixture(t, "java/Loop.java")
	mcpHitCondition(t, "java", prog, prog, mcpLine(t, prog, "BP:loop"), "i", "total=5")
}

// TestMCPJavaStatics reads and changes a static field through its scope.
func TestMCPJavaStatics(t *testing.T) {
	requireJava(t)
	c := startDbg(t)
	prog := fixture(t, "java/Graph.java")
	id, _ := mcpLaunch(t, c, "java", prog, []int{mcpLine(t, prog, "BP:graph")}, prog, nil)
	scopes := c.ok("get_scopes", map[string]any{"sessionId": id}).list("scopes")
	ref := 0
	for _, s := range scopes {
		if strings.Contains(strings.ToLower(s.str("name")), "static") {
			ref = s.num("variablesReference")
		}
	}
	if ref == 0 {
		t.Fatalf("no statics scope: %v", scopes)
	}
	vars := map[string]string{}
	for _, v := range c.ok("get_variables", map[string]any{"sessionId": id, "scope": ref}).list("variables") {
		vars[v.str("name")] = v.str("value")
	}
	if vars["counter"] != "7" {
		t.Fatalf("statics %v, want counter=7", vars)
	}
	if r := c.ok("set_variable", map[string]any{"sessionId": id, "scope": ref, "name": "counter", "value": "counter + 2"}); r.str("result") != "9" {
		t.Errorf("set_variable counter: %v", r)
	}
	if got := mcpEval(t, c, id, "counter * 2"); got != "18" {
		t.Errorf("counter * 2 = %q after the change", got)
	}
	mcpFinish(t, c, id, "message=hello")
}

// TestMCPJavaAttachExceptions attaches to a JVM with breakOnExceptions
// all: the next caught exception stops it with its message.
func TestMCPJavaAttachExceptions(t *testing.T) {
	requireJava(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "Thrower.java")
	text := `public class Thrower {
    public static void main(String[] args) throws Exception {
        for (int n = 1; ; n++) {
            try {
                if (n % 2 == 0) {
                    throw new IllegalArgumentException("bad n " + n); // THROW
                }
            } catch (IllegalArgumentException e) {
                System.out.println("tick " + e.getMessage());
            }
            Thread.sleep(50);
        }
    }
}
`
	if err := os.WriteFile(src, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("javac", "-g", "-d", dir, src).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	port := freePort(t)
	cmd, out := startTargetIn(t, dir, "tick", "java",
		fmt.Sprintf("-agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=127.0.0.1:%d", port), "-cp", dir, "Thrower")
	c := startDbg(t)
	id := c.ok("create_debug_session", map[string]any{"language": "java", "port": port, "stopOnEntry": false,
		"breakOnExceptions": "all", "sourcePaths": []string{dir}}).str("sessionId")
	st := c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 30000})
	if st.str("state") != "paused" || st.str("lastStop.reason") != "exception" || st.num("lastStop.location.line") != mcpLine(t, src, "// THROW") {
		t.Fatalf("stop %v, want the exception at the throw", st)
	}
	if text := st.str("lastStop.text") + " " + st.str("lastStop.description"); !strings.Contains(text, "bad n ") {
		t.Errorf("exception text %q lacks the message", text)
	}
	if got := mcpEval(t, c, id, "n % 2"); got != "0" {
		t.Errorf("n %% 2 = %q at the throw", got)
	}
	c.ok("set_exception_breakpoints", map[string]any{"sessionId": id, "breakOnExceptions": "none"})
	c.ok("continue_execution", map[string]any{"sessionId": id})
	if st := c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 1000}); st.str("state") != "running" {
		t.Fatalf("stopped again with exception breakpoints off: %v", st)
	}
	c.ok("detach_from_process", map[string]any{"sessionId": id})
	before := strings.Count(out.String(), "tick")
	deadline := time.Now().Add(10 * time.Second)
	for strings.Count(out.String(), "tick") <= before+1 {
		if time.Now().After(deadline) {
			t.Fatalf("the JVM stopped after detach")
		}
		time.Sleep(20 * time.Millisecond)
	}
	c.ok("close_debug_session", map[string]any{"sessionId": id})
	if !processAlive(cmd.Process.Pid) {
		t.Fatalf("closing the attached session killed the JVM")
	}
}
