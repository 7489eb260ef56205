package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// End-to-end tests of the built-in Node adapter (JavaScript and
// TypeScript) through the MCP tools.

func requireNode(t *testing.T) {
	t.Helper()
	requireTool(t, "node", "--version")
}

func TestMCPNodeScenario(t *testing.T) {
	requireNode(t)
	prog := fixture(t, "javascript/loop.js")
	line := mcpLine(t, prog, "BP:loop")
	runScenario(t, scenario{
		language: "javascript", program: prog, breakLine: line, nextLine: line + 1,
		locals:   map[string]string{"total": "0", "i": "0"},
		evalExpr: "total + 10", evalWant: "10", output: "done 10",
	})
}

// tsOnce compiles the TypeScript fixtures once per test binary.
var tsOnce struct {
	sync.Once
	err error
	out []byte
}

// compileTS compiles testdata/javascript/ts with the pinned tsc that
// scripts/deps/node.sh installs.
func compileTS(t *testing.T) {
	t.Helper()
	dir := os.Getenv("DBG_TS_DIR")
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".cache", "dbg-test", "ts")
	}
	tsc := filepath.Join(dir, "node_modules", ".bin", "tsc")
	if _, err := os.Stat(tsc); err != nil {
		t.Skipf("tsc is not installed in %s (scripts/deps/node.sh installs it)", dir)
	}
	tsOnce.Do(func() {
		tsOnce.out, tsOnce.err = exec.Command(tsc, "-p", fixture(t, "javascript")).CombinedOutput()
	})
	if tsOnce.err != nil {
		t.Fatalf("tsc: %v\n%s", tsOnce.err, tsOnce.out)
	}
}

// TestMCPNodeTypeScript stops on .ts lines through source maps, in the
// main module and in one it loads, and steps in TypeScript lines.
func TestMCPNodeTypeScript(t *testing.T) {
	requireNode(t)
	compileTS(t)
	c := startDbg(t)
	greet := fixture(t, "javascript/ts/greet.ts")
	util := fixture(t, "javascript/ts/util.ts")
	gl := mcpLine(t, greet, "BP:ts-greet")
	id, st := mcpLaunch(t, c, "typescript", greet, []int{gl}, greet, nil)
	if st.str("lastStop.reason") != "breakpoint" || st.num("lastStop.location.line") != gl || st.str("lastStop.location.file") != greet {
		t.Fatalf("first stop %v, want greet.ts:%d", st, gl)
	}
	mcpTop(t, c, id, greet, gl)
	if got := mcpEval(t, c, id, "p.name"); got != `"Ada"` {
		t.Errorf("p.name = %q, want \"Ada\"", got)
	}
	if got := mcpEval(t, c, id, "p.age * 2"); got != "72" {
		t.Errorf("p.age * 2 = %q, want 72", got)
	}
	step := c.ok("step_over", map[string]any{"sessionId": id})
	if step.num("lastStop.location.line") != gl+1 || step.str("lastStop.location.file") != greet {
		t.Fatalf("step_over: %v, want greet.ts:%d", step, gl+1)
	}
	mcpCheckLocals(t, mcpLocals(t, c, id), map[string]string{"text": `"Hello, Ada (36)"`})

	ul := mcpLine(t, util, "BP:ts-shout")
	bp := c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": util, "line": ul})
	if bp.num("line") != ul {
		t.Fatalf("set_breakpoint util.ts: %v", bp)
	}
	c.ok("remove_breakpoint", map[string]any{"sessionId": id, "breakpointId": c.ok("list_breakpoints", map[string]any{"sessionId": id}).num("breakpoints.0.id")})
	c.ok("continue_execution", map[string]any{"sessionId": id})
	st = c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 30000})
	if st.str("state") != "paused" || st.num("lastStop.location.line") != ul || st.str("lastStop.location.file") != util {
		t.Fatalf("second stop %v, want util.ts:%d", st, ul)
	}
	mcpCheckLocals(t, mcpLocals(t, c, id), map[string]string{"s": `"Hello, Ada (36)"`})
	frames := c.ok("get_stack_trace", map[string]any{"sessionId": id}).list("stackFrames")
	if len(frames) < 2 || frames[1].str("file") != greet || frames[1].num("line") != mcpLine(t, greet, "console.log(shout(") {
		t.Errorf("caller frame %v, want greet.ts's console.log line", frames)
	}
	mcpFinish(t, c, id, "HELLO, LINUS (28)! 17")
}

// TestMCPNodeUncaughtException stops on the uncaught error only, with its
// message.
func TestMCPNodeUncaughtException(t *testing.T) {
	requireNode(t)
	c := startDbg(t)
	prog := fixture(t, "javascript/throw.js")
	line := mcpLine(t, prog, "BP:throw")
	id, st := mcpLaunch(t, c, "javascript", prog, nil, prog, map[string]any{"breakOnExceptions": "uncaught"})
	if st.str("lastStop.reason") != "exception" || st.num("lastStop.location.line") != line {
		t.Fatalf("stop %v, want an exception at line %d", st, line)
	}
	if text := st.str("lastStop.text") + " " + st.str("lastStop.description"); !strings.Contains(text, "value 3 is too large") {
		t.Errorf("exception text %q lacks the message", text)
	}
	mcpTop(t, c, id, prog, line)
	if got := mcpEval(t, c, id, "n"); got != "3" {
		t.Errorf("n = %q, want 3", got)
	}
	mcpOutputHas(t, c, id, "caught value 5 is too large")
	pids := mcpPIDs(t, c)
	c.ok("continue_execution", map[string]any{"sessionId": id})
	end := c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 30000})
	if end.str("state") != "terminated" {
		t.Fatalf("after continue: %v", end)
	}
	mcpOutputHas(t, c, id, "RangeError")
	mcpClose(t, c, id, pids)
}

// nodeTicker runs a script that keeps running JavaScript and prints
// "tick" lines, with the given node flags.
func nodeTicker(t *testing.T, flags ...string) (*exec.Cmd, *lineBuffer) {
	t.Helper()
	script := filepath.Join(t.TempDir(), "ticker.js")
	src := `let n = 0;
let next = 0;
const end = Date.now() + 120000;
while (Date.now() < end) {
  n++;
  if (Date.now() >= next) {
    console.log('tick ' + n);
    next = Date.now() + 100;
  }
}
`
	if err := os.WriteFile(script, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return startTarget(t, "tick", "node", append(flags, script)...)
}

func TestMCPNodeAttachByPort(t *testing.T) {
	requireNode(t)
	port := freePort(t)
	cmd, out := nodeTicker(t, fmt.Sprintf("--inspect=127.0.0.1:%d", port))
	c := startDbg(t)
	attachScenario(t, c, map[string]any{"language": "javascript", "port": port}, cmd.Process.Pid, out, "ticker.js")
}

func TestMCPNodeAttachByPID(t *testing.T) {
	requireNode(t)
	port := freePort(t)
	cmd, out := nodeTicker(t, fmt.Sprintf("--inspect-port=127.0.0.1:%d", port))
	c := startDbg(t)
	attachScenario(t, c, map[string]any{"language": "javascript", "processId": cmd.Process.Pid}, cmd.Process.Pid, out, "ticker.js")
}

func TestMCPNodeFeatures(t *testing.T) {
	requireNode(t)
	prog := fixture(t, "javascript/loop.js")
	mcpFeatures(t, features{
		lang: "javascript", program: prog, src: prog, line: mcpLine(t, prog, "BP:loop"),
		cond: "i === 3", n: "3", logNext: "lp 4",
		runTo: mcpLine(t, prog, "console.log('done'"), totalExpr: "total", total: "10", output: "done 10",
	})
}

func TestMCPNodeSessionPID(t *testing.T) {
	requireNode(t)
	prog := fixture(t, "javascript/loop.js")
	mcpSessionPID(t, "javascript", prog, mcpLine(t, prog, "BP:loop"), prog)
}

// TestMCPNodeSetVariable changes a local the program then prints.
func TestMCPNodeSetVariable(t *testing.T) {
	requireNode(t)
	c := startDbg(t)
	prog := fixture(t, "javascript/loop.js")
	line := mcpLine(t, prog, "BP:loop")
	id, _ := mcpLaunch(t, c, "javascript", prog, []int{line}, prog, nil)
	mcpEvalFails(t, c, id, "nosuch")
	sv := c.ok("set_variable", map[string]any{"sessionId": id, "name": "total", "value": "100"})
	if sv.str("result") != "100" {
		t.Errorf("set_variable: %v", sv)
	}
	mcpFinish(t, c, id, "done 110")
}

// TestMCPNodeAttachBreakpoint attaches to a running node by inspector
// port without pausing it, stops it at a breakpoint and detaches.
func TestMCPNodeAttachBreakpoint(t *testing.T) {
	requireNode(t)
	for _, by := range []string{"port", "processId"} {
		t.Run(by, func(t *testing.T) { nodeAttachBreakpoint(t, by) })
	}
}

func nodeAttachBreakpoint(t *testing.T, by string) {
	port := freePort(t)
	flag := "--inspect=127.0.0.1:%d"
	if by == "processId" {
		flag = "--inspect-port=127.0.0.1:%d"
	}
	cmd, out := nodeTicker(t, fmt.Sprintf(flag, port))
	script := cmd.Args[len(cmd.Args)-1]
	c := startDbg(t)
	args := map[string]any{"language": "javascript", "port": port, "stopOnEntry": false}
	if by == "processId" {
		args = map[string]any{"language": "javascript", "processId": cmd.Process.Pid, "stopOnEntry": false}
	}
	s := c.ok("create_debug_session", args)
	if s.str("state") != "running" {
		t.Errorf("attach without pause answered %v", s)
	}
	id := s.str("sessionId")
	line := mcpLine(t, script, "n++")
	c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": script, "line": line})
	st := c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 30000})
	if st.str("state") != "paused" || st.str("lastStop.reason") != "breakpoint" || st.num("lastStop.location.line") != line {
		t.Fatalf("stop %v, want the breakpoint at line %d", st, line)
	}
	mcpTop(t, c, id, script, line)
	if got := mcpEval(t, c, id, "n > 0"); got != "true" {
		t.Errorf("n > 0 = %q", got)
	}
	c.ok("set_variable", map[string]any{"sessionId": id, "name": "n", "value": "-1000000000"})
	c.ok("clear_breakpoints", map[string]any{"sessionId": id})
	c.ok("detach_from_process", map[string]any{"sessionId": id})
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), "tick -99") {
		if time.Now().After(deadline) {
			t.Fatalf("the program did not print the changed counter after detach: %s", out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	c.ok("close_debug_session", map[string]any{"sessionId": id})
	if !processAlive(cmd.Process.Pid) {
		t.Fatalf("closing the attached session killed node")
	}
}

// TestMCPSessionsOfManyLanguages debugs javascript, java and c programs at
// once in one server: each session keeps its own stop and values.
func TestMCPSessionsOfManyLanguages(t *testing.T) {
	requireNode(t)
	requireJava(t)
	requireLLDB(t)
	c := startDbg(t)
	js := fixture(t, "javascript/loop.js")
	java := fixture(t, "java/Loop.java")
	cs := fixture(t, "c/loop.c")
	type sess struct {
		id, file string
		line     int
		output   string
	}
	all := []*sess{
		{file: js, line: mcpLine(t, js, "BP:loop"), output: "done 10"},
		{file: java, line: mcpLine(t, java, "BP:loop"), output: "total=5"},
		{file: cs, line: mcpLine(t, cs, "BREAK: loop body"), output: "done total=30"},
	}
	langs := []string{"javascript", "java", "c"}
	for i, s := range all {
		s.id, _ = mcpLaunch(t, c, langs[i], s.file, []int{s.line}, s.file, nil)
	}
	if n := c.ok("list_debug_sessions", nil).num("count"); n != 3 {
		t.Fatalf("%d sessions, want 3", n)
	}
	// Move each to its second pass, then read all three.
	for _, s := range all {
		st := mcpPaused(t, c, s.id, c.ok("continue_execution", map[string]any{"sessionId": s.id}))
		if st.num("lastStop.location.line") != s.line {
			t.Fatalf("%s: stop %v", s.id, st)
		}
	}
	for _, s := range all {
		mcpTop(t, c, s.id, s.file, s.line)
		if got := c.ok("evaluate_expression", map[string]any{"sessionId": s.id, "expression": "i"}).str("result"); got != "1" {
			t.Errorf("%s: i = %q on the second pass", s.id, got)
		}
	}
	for _, s := range all {
		c.ok("clear_breakpoints", map[string]any{"sessionId": s.id})
		c.ok("continue_execution", map[string]any{"sessionId": s.id})
	}
	for _, s := range all {
		if end := c.ok("wait_for_stop", map[string]any{"sessionId": s.id, "timeoutMs": 60000}); end.str("state") != "terminated" {
			t.Fatalf("%s: %v", s.id, end)
		}
		mcpOutputHas(t, c, s.id, s.output)
		c.ok("close_debug_session", map[string]any{"sessionId": s.id})
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(childrenOf(c.cmd.Process.Pid)) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("processes left after closing every session: %v", childrenOf(c.cmd.Process.Pid))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestMCPNodePause(t *testing.T) {
	requireNode(t)
	prog := fixture(t, "javascript/spin.js")
	mcpPauseFlow(t, "javascript", prog, prog)
}

// TestMCPNodeExceptionModes stops on a caught error with breakOnExceptions
// all, then runs to the end once exception breakpoints are off.
func TestMCPNodeExceptionModes(t *testing.T) {
	requireNode(t)
	c := startDbg(t)
	prog := fixture(t, "javascript/throw.js")
	id, st := mcpLaunch(t, c, "javascript", prog, nil, prog, map[string]any{"breakOnExceptions": "all"})
	if st.str("lastStop.reason") != "exception" || st.num("lastStop.location.line") != mcpLine(t, prog, "BP:throw") {
		t.Fatalf("stop %v, want the caught exception", st)
	}
	if got := mcpEval(t, c, id, "n"); got != "5" {
		t.Errorf("n = %q at the caught exception, want 5", got)
	}
	c.ok("set_exception_breakpoints", map[string]any{"sessionId": id, "breakOnExceptions": "none"})
	pids := mcpPIDs(t, c)
	c.ok("continue_execution", map[string]any{"sessionId": id})
	if end := c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 30000}); end.str("state") != "terminated" {
		t.Fatalf("after continue: %v", end)
	}
	mcpOutputHas(t, c, id, "caught value 5 is too large")
	mcpClose(t, c, id, pids)
}

// TestMCPNodeTypeScriptPendingBreakpoint sets a breakpoint in a .ts module
// before the program starts; it binds when the module loads.
func TestMCPNodeTypeScriptPendingBreakpoint(t *testing.T) {
	requireNode(t)
	compileTS(t)
	c := startDbg(t)
	greet := fixture(t, "javascript/ts/greet.ts")
	util := fixture(t, "javascript/ts/util.ts")
	ul := mcpLine(t, util, "BP:ts-shout")
	id, st := mcpLaunch(t, c, "typescript", util, []int{ul}, greet, nil)
	if st.num("lastStop.location.line") != ul || st.str("lastStop.location.file") != util {
		t.Fatalf("stop %v, want util.ts:%d", st, ul)
	}
	bps := c.ok("list_breakpoints", map[string]any{"sessionId": id}).list("breakpoints")
	if len(bps) != 1 || bps[0].get("verified") != true || bps[0].num("line") != ul {
		t.Errorf("breakpoints after the stop: %v", bps)
	}
	if got := mcpEval(t, c, id, "opts.loud"); got != "true" {
		t.Errorf("opts.loud = %q", got)
	}
	out := c.ok("step_out", map[string]any{"sessionId": id})
	if out.str("lastStop.location.file") != greet {
		t.Errorf("step_out went to %v, want greet.ts", out.get("lastStop.location"))
	}
	mcpFinish(t, c, id, "HELLO, ADA (36)! 15")
}

func TestMCPNodeEntry(t *testing.T) {
	requireNode(t)
	mcpEntryFlow(t, "javascript", fixture(t, "javascript/loop.js"), "done 10")
}

func TestMCPNodeFunctionBreakpoint(t *testing.T) {
	requireNode(t)
	prog := fixture(t, "javascript/throw.js")
	mcpFunctionBreakpoint(t, "javascript", prog, "validate", prog, mcpLine(t, prog, "if (n > 2)"), "n", "5", "caught value 5 is too large",
		map[string]any{"breakOnExceptions": "none"})
}

// TestMCPNodeObjectsClosuresAsync reads a class instance's fields and
// collections, a closure's captured variables, and steps over an await.
func TestMCPNodeObjectsClosuresAsync(t *testing.T) {
	requireNode(t)
	t.Run("class", func(t *testing.T) {
		c := startDbg(t)
		prog := fixture(t, "javascript/class.js")
		id, _ := mcpLaunch(t, c, "javascript", prog, []int{mcpLine(t, prog, "BP:deposit")}, prog, nil)
		locals := mcpLocals(t, c, id)
		mcpCheckLocals(t, locals, map[string]string{"amount": "50"})
		for expr, want := range map[string]string{
			"this.owner":            `"ada"`,
			"this.balance + amount": "150",
			"this.tags.get('tier')": `"gold"`,
			"this.flags.size":       "2",
			"this.history.length":   "1",
		} {
			if got := mcpEval(t, c, id, expr); got != want {
				t.Errorf("%s = %q, want %q", expr, got, want)
			}
		}
		if got := mcpEval(t, c, id, "getterCalls"); got != "0" {
			t.Errorf("getterCalls = %q: inspecting ran a getter", got)
		}
		mcpFinish(t, c, id, "balance 150 getterCalls 0 1")
	})
	t.Run("closure", func(t *testing.T) {
		c := startDbg(t)
		prog := fixture(t, "javascript/closure.js")
		line := mcpLine(t, prog, "BP:closure")
		id, _ := mcpLaunch(t, c, "javascript", prog, []int{line}, prog, nil)
		if got := mcpEval(t, c, id, "`${label}:${count + step}`"); got != `"counter:11"` {
			t.Errorf("closure variables: %q, want \"counter:11\"", got)
		}
		st := mcpPaused(t, c, id, c.ok("continue_execution", map[string]any{"sessionId": id}))
		if st.num("lastStop.location.line") != line {
			t.Fatalf("second call: %v", st.get("lastStop"))
		}
		if got := mcpEval(t, c, id, "count"); got != "11" {
			t.Errorf("count = %q on the second call, want 11", got)
		}
		mcpFinish(t, c, id, "counter:13")
	})
	t.Run("async", func(t *testing.T) {
		c := startDbg(t)
		prog := fixture(t, "javascript/async.js")
		enter, after := mcpLine(t, prog, "BP:async-enter"), mcpLine(t, prog, "BP:after-await")
		id, _ := mcpLaunch(t, c, "javascript", prog, []int{enter, after}, prog, nil)
		if got := mcpEval(t, c, id, "x"); got != "20" {
			t.Errorf("x = %q, want 20", got)
		}
		st := mcpPaused(t, c, id, c.ok("continue_execution", map[string]any{"sessionId": id}))
		if st.num("lastStop.location.line") != after {
			t.Fatalf("after the await: %v, want line %d", st.get("lastStop"), after)
		}
		mcpCheckLocals(t, mcpLocals(t, c, id), map[string]string{"doubled": "40"})
		mcpFinish(t, c, id, "value 41")
	})
}

// TestMCPNodeTypeScriptCompiledProgram runs the compiled JavaScript with a
// breakpoint on the TypeScript source: the stop is reported in .ts terms.
func TestMCPNodeTypeScriptCompiledProgram(t *testing.T) {
	requireNode(t)
	compileTS(t)
	c := startDbg(t)
	greet := fixture(t, "javascript/ts/greet.ts")
	js := fixture(t, "javascript/build/greet.js")
	gl := mcpLine(t, greet, "BP:ts-greet")
	id, st := mcpLaunch(t, c, "javascript", greet, []int{gl}, js, nil)
	if st.num("lastStop.location.line") != gl || st.str("lastStop.location.file") != greet {
		t.Fatalf("stop %v, want greet.ts:%d", st.get("lastStop"), gl)
	}
	if !strings.Contains(st.str("lastStop.location.text"), "Hello, ${p.name}") {
		t.Errorf("stop line text %q is not the TypeScript line", st.str("lastStop.location.text"))
	}
	if got := mcpEval(t, c, id, "p.name"); got != `"Ada"` {
		t.Errorf("p.name = %q", got)
	}
	mcpFinish(t, c, id, "HELLO, LINUS (28)! 17")
}

func TestMCPNodeArgsEnvCwd(t *testing.T) {
	requireNode(t)
	prog := filepath.Join(t.TempDir(), "echo.js")
	if err := os.WriteFile(prog, []byte("console.log(process.argv[2], process.env.DBG_E2E, process.cwd());\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mcpArgsEnvCwd(t, "javascript", prog)
}

func TestMCPNodeHitCondition(t *testing.T) {
	requireNode(t)
	prog := fixture(t, "javascript/loop.js")
	mcpHitCondition(t, "javascript", prog, prog, mcpLine(t, prog, "BP:loop"), "i", "done 10")
}

// TestMCPNodeAttachExceptions attaches to node with breakOnExceptions all:
// the next caught error stops it with its message.
func TestMCPNodeAttachExceptions(t *testing.T) {
	requireNode(t)
	script := filepath.Join(t.TempDir(), "thrower.js")
	src := `let n = 0;
setInterval(() => {
  n++;
  try {
    if (n % 2 === 0) throw new Error('bad n ' + n); // THROW
  } catch (e) {
    console.log('tick ' + e.message);
  }
}, 50);
`
	if err := os.WriteFile(script, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	port := freePort(t)
	cmd, out := startTarget(t, "tick", "node", fmt.Sprintf("--inspect=127.0.0.1:%d", port), script)
	c := startDbg(t)
	id := c.ok("create_debug_session", map[string]any{"language": "javascript", "port": port, "stopOnEntry": false, "breakOnExceptions": "all"}).str("sessionId")
	st := c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 30000})
	if st.str("state") != "paused" || st.str("lastStop.reason") != "exception" || st.num("lastStop.location.line") != mcpLine(t, script, "// THROW") {
		t.Fatalf("stop %v, want the exception at the throw", st)
	}
	if text := st.str("lastStop.text") + " " + st.str("lastStop.description"); !strings.Contains(text, "bad n ") {
		t.Errorf("exception text %q lacks the message", text)
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
			t.Fatalf("node stopped after detach")
		}
		time.Sleep(20 * time.Millisecond)
	}
	c.ok("close_debug_session", map[string]any{"sessionId": id})
	if !processAlive(cmd.Process.Pid) {
		t.Fatalf("closing the attached session killed node")
	}
}
