package main

import (
	"strings"
	"testing"
)

// The JavaScript and TypeScript rows' own values: classes, closures and
// async functions; .ts lines through source maps, in the main module and
// in one it loads, before and after it loads, and in the compiled
// program.

func nodeValues() []valueCase {
	return []valueCase{
		{name: "class", program: "javascript/class.js", marks: []string{"BP:deposit"}, stops: []valueStop{{
			mark:   "BP:deposit",
			locals: map[string]string{"amount": "50"},
			evals: map[string]string{"this.owner": `"ada"`, "this.balance + amount": "150", "this.tags.get('tier')": `"gold"`,
				"this.flags.size": "2", "this.history.length": "1"},
			// Inspecting the instance ran none of its getters.
			check: evalAfter("getterCalls", "0"),
		}}, output: "balance 150 getterCalls 0 1"},
		{name: "closure", program: "javascript/closure.js", marks: []string{"BP:closure"}, stops: []valueStop{
			{mark: "BP:closure", evals: map[string]string{"`${label}:${count + step}`": `"counter:11"`}},
			{mark: "BP:closure", evals: map[string]string{"count": "11"}},
		}, output: "counter:13"},
		{name: "async", program: "javascript/async.js", marks: []string{"BP:async-enter", "BP:after-await"}, stops: []valueStop{
			{mark: "BP:async-enter", evals: map[string]string{"x": "20"}},
			{mark: "BP:after-await", locals: map[string]string{"doubled": "40"}},
		}, output: "value 41"},
	}
}

func tsValues() []valueCase {
	return []valueCase{
		{name: "source_maps", program: "javascript/ts/greet.ts", marks: []string{"BP:ts-greet"}, stops: []valueStop{{
			mark:  "BP:ts-greet",
			evals: map[string]string{"p.name": `"Ada"`, "p.age * 2": "72"},
			check: tsIntoModule,
		}}, output: "HELLO, LINUS (28)! 17"},
		// A breakpoint in a module before it loads binds when it does.
		{name: "pending_module", program: "javascript/ts/greet.ts", src: "javascript/ts/util.ts", marks: []string{"BP:ts-shout"}, stops: []valueStop{{
			mark:  "BP:ts-shout",
			evals: map[string]string{"opts.loud": "true"},
			check: tsPendingBound,
		}}, output: "HELLO, ADA (36)! 15"},
		// The compiled JavaScript launched as such still stops in .ts terms.
		{name: "compiled_program", language: "javascript", program: "javascript/build/greet.js", src: "javascript/ts/greet.ts",
			marks: []string{"BP:ts-greet"}, stops: []valueStop{{
				mark:  "BP:ts-greet",
				evals: map[string]string{"p.name": `"Ada"`},
				check: func(t *testing.T, c *client, at stopAt) {
					if !strings.Contains(stopLineText(at.st), "Hello, ${p.name}") {
						t.Errorf("stop line text %q is not the TypeScript line", stopLineText(at.st))
					}
				},
			}}, output: "HELLO, LINUS (28)! 17"},
	}
}

// tsIntoModule steps a TypeScript line, then moves the breakpoint into
// util.ts, a module greet.ts loaded, and continues there: the caller's
// frame is greet.ts's line.
func tsIntoModule(t *testing.T, c *client, at stopAt) {
	id, greet := at.id, at.src
	util := td("javascript/ts/util.ts")
	gl := at.st.num("lastStop.location.line")
	step := c.ok("step_over", map[string]any{"sessionId": id})
	if step.num("lastStop.location.line") != gl+1 || step.str("lastStop.location.file") != greet {
		t.Fatalf("step_over: %v, want greet.ts:%d", step, gl+1)
	}
	mcpCheckLocals(t, mcpLocals(t, c, id), map[string]string{"text": `"Hello, Ada (36)"`})
	ul := mcpLine(t, util, "BP:ts-shout")
	if bp := c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": util, "line": ul}); bp.num("line") != ul {
		t.Fatalf("set_breakpoint util.ts: %v", bp)
	}
	c.ok("remove_breakpoint", map[string]any{"sessionId": id, "breakpointId": c.ok("list_breakpoints", map[string]any{"sessionId": id}).num("breakpoints.0.id")})
	c.ok("continue_execution", map[string]any{"sessionId": id})
	st := c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 30000})
	if st.str("state") != "paused" || st.num("lastStop.location.line") != ul || st.str("lastStop.location.file") != util {
		t.Fatalf("second stop %v, want util.ts:%d", st, ul)
	}
	mcpCheckLocals(t, mcpLocals(t, c, id), map[string]string{"s": `"Hello, Ada (36)"`})
	frames := c.ok("get_stack_trace", map[string]any{"sessionId": id}).list("stackFrames")
	if len(frames) < 2 || frames[1].str("file") != greet || frames[1].num("line") != mcpLine(t, greet, "console.log(shout(") {
		t.Errorf("caller frame %v, want greet.ts's console.log line", frames)
	}
}

// tsPendingBound: the breakpoint set before util.ts loaded is listed
// verified at its line, and step_out returns to greet.ts.
func tsPendingBound(t *testing.T, c *client, at stopAt) {
	bps := c.ok("list_breakpoints", map[string]any{"sessionId": at.id}).list("breakpoints")
	if len(bps) != 1 || bps[0].get("verified") != true || bps[0].num("line") != at.st.num("lastStop.location.line") {
		t.Errorf("breakpoints after the stop: %v", bps)
	}
	if out := c.ok("step_out", map[string]any{"sessionId": at.id}); out.str("lastStop.location.file") != td("javascript/ts/greet.ts") {
		t.Errorf("step_out went to %v, want greet.ts", out.get("lastStop.location"))
	}
}

// nodeCaught is a program that throws and catches RangeError("value 5
// is too large") at mark, with n = 5.
func nodeCaught(program, mark string) *caughtCase {
	return &caughtCase{program: program, mark: mark, message: "value 5 is too large", eval: "n", want: "5",
		output: "caught value 5 is too large"}
}

// nodeThrower runs script under node's inspector: src, its source,
// throws and catches "bad n <n>" over and over.
func nodeThrower(script, src string) *attachCatch {
	return &attachCatch{start: portThrower("node", "--inspect=127.0.0.1:%d", td(script)), by: "port",
		src: src, mark: "// THROW", message: "bad n "}
}
