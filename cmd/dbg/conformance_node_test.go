package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// JavaScript and TypeScript checks beyond the conformance table: .ts line
// mapping, classes, closures, async, exception modes, attach without
// pause.

// TestMCPNodeTypeScript stops on .ts lines through source maps, in the
// main module and in one it loads, and steps in TypeScript lines.
func TestMCPNodeTypeScript(t *testing.T) {
	t.Parallel()
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

// TestMCPNodeAttachBreakpoint attaches to a running node by inspector
// port without pausing it, stops it at a breakpoint and detaches.
func TestMCPNodeAttachBreakpoint(t *testing.T) {
	t.Parallel()
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
	id := mcpAttachRunning(t, c, args)
	line := mcpLine(t, script, "n++")
	mcpBreakRunning(t, c, id, script, line)
	mcpTop(t, c, id, script, line)
	if got := mcpEval(t, c, id, "n > 0"); got != "true" {
		t.Errorf("n > 0 = %q", got)
	}
	c.ok("set_variable", map[string]any{"sessionId": id, "name": "n", "value": "-1000000000"})
	mcpDetachRuns(t, c, id, target{cmd: cmd, out: out}, "tick -99")
}

// TestMCPNodeExceptionModes stops on a caught error with breakOnExceptions
// all, then runs to the end once exception breakpoints are off.
func TestMCPNodeExceptionModes(t *testing.T) {
	t.Parallel()
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
	mcpEnd(t, c, id, "caught value 5 is too large")
}

// TestMCPNodeTypeScriptPendingBreakpoint sets a breakpoint in a .ts module
// before the program starts; it binds when the module loads.
func TestMCPNodeTypeScriptPendingBreakpoint(t *testing.T) {
	t.Parallel()
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

// TestMCPNodeObjectsClosuresAsync reads a class instance's fields and
// collections, a closure's captured variables, and steps over an await.
func TestMCPNodeObjectsClosuresAsync(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
	requireNode(t)
	prog := filepath.Join(t.TempDir(), "echo.js")
	if err := os.WriteFile(prog, []byte("console.log(process.argv[2], process.env.DBG_E2E, process.cwd());\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mcpArgsEnvCwd(t, "javascript", prog)
}

// TestMCPNodeAttachExceptions attaches to node with breakOnExceptions all:
// the next caught error stops it with its message.
func TestMCPNodeAttachExceptions(t *testing.T) {
	t.Parallel()
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
	id := mcpAttachCatches(t, c, map[string]any{"language": "javascript", "port": port}, script, "")
	mcpDetachRuns(t, c, id, target{cmd: cmd, out: out, marker: "tick"}, "")
}
