package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/adapters/cobol"
)

// lang is one row of the conformance table: a language and its fixtures.
// Paths are relative to testdata/.
type lang struct {
	name    string           // create_debug_session's language
	require func(*testing.T) // skips when the adapter is not installed
	prepare func(*testing.T) // builds what its scenarios share, once
	noPID   bool             // the adapter runs in process: no debuggee pid
	cmdline string           // a text of the debuggee's command line, when it names the program
	loop    loopFixture      // launch, entry, output, leftovers, features
	hit     *loopFixture     // hit conditions (default loop): four passes at least
	setVar  setVar           // set_variable
	fn      funcBreakpoint   // function breakpoints
	exc     exceptionCase    // exception breakpoints
	spin    spin             // pause: a program that runs until stopped
	attach  []attachWay      // attach while running
	remote  *remoteWay       // attach on another machine (conformance_remote_test.go)
	feat    features         // conditions, restart, log points, run_to_line
	changed *changedCase     // changed in stop answers (nil: the loop part only)
	trace   traceFixture     // traces (conformance_observe_test.go)
	watch   watchFixture     // data breakpoints (conformance_observe_test.go)
	frame   frameCase        // the frame calls naming none act on (conformance_answers_test.go)
	reload  reloadCase       // hot_reload, running and stopped (conformance_reload_test.go)
	safe    *safeCase        // evaluation without side effects (nil: refused; conformance_live_test.go)
	jump    *jumpCase        // goto_line's own fixture (nil: the loop)
	// children and core: child processes and core files
	// (conformance_beyond_test.go).
	children *childCase
	core     *coreCase
	cannot   map[string]refusal // scenario → how the language refuses it
	// The flows around a launch or an attach (conformance_flows_test.go).
	echo        echoCase
	attachBreak *attachBreak
	caught      *caughtCase
	attachCatch *attachCatch
	values      []valueCase // the language's own values (conformance_values_test.go)
	extra       []scenario  // flows of this language alone, run on its server
}

// loopFixture is a program with a loop whose body line is marked.
type loopFixture struct {
	program  string            // scriptPath
	src      string            // the file breakpoints go in (default program)
	mark     string            // a text on the loop body line
	locals   map[string]string // at the first stop
	step     int               // where step_over lands, relative to the mark's line
	eval     string            // evaluated after the step
	evalWant string
	unknown  string    // a name evaluation must fail naming (default nosuch)
	loopVar  string    // the loop variable
	passes   [4]string // its value on the first four passes
	output   string    // printed by the end of the program
	// entryStack is the refusal get_stack_trace answers at the entry stop,
	// for an adapter that stops before the program has a stack.
	entryStack *refusal
}

// setVar changes a local at a stop; the program prints its effect.
type setVar struct {
	mark        string // the line to stop at (default the loop body)
	name, value string
	output      string
}

// funcBreakpoint names a function; the stop lands on its first line (the
// first line of its body, or its declaration for adapters that stop on
// entering the function), with an argument readable.
type funcBreakpoint struct {
	program, src string // default the loop fixture's
	name         string
	mark         string // the line it stops at
	arg, want    string
	output       string
	start        map[string]any // extra start_debugging arguments
}

// languages is the conformance table: one row per language. Slow
// languages come first, so the parallel runs end together.
func languages() []*lang {
	return []*lang{
		{
			name: "java", cmdline: "Loop", require: requireJava,
			loop: loopFixture{program: "java/Loop.java", mark: "BP:loop", step: -1,
				locals: map[string]string{"sum": "0", "i": "0", "label": `"total"`},
				eval:   "sum + 10", evalWant: "10", loopVar: "i", output: "total=5"},
			hit: &loopFixture{program: "java/Count.java", mark: "BREAK: count", loopVar: "i",
				passes: [4]string{"0", "1", "2", "3"}, output: "counted total=10"},
			setVar: setVar{mark: "BP:print", name: "sum", value: "41", output: "total=41"},
			fn:     funcBreakpoint{name: "Loop.square", mark: "BP:square", arg: "x", want: "0", output: "total=5"},
			exc: exceptionCase{program: "java/Exceptions.java", mode: "uncaught", mark: "BP:throw",
				message: []string{"uncaught one", "IllegalStateException"}, eval: "why", want: `"uncaught one"`,
				before: "caught: caught one", ends: true},
			spin: spin{program: "java/Spin.java"},
			attach: []attachWay{
				{by: "port", start: javaSpinTarget},
				{by: "processId", start: javaSpinTarget},
			},
			remote: &remoteWay{setup: javaRemote},
			feat:   features{cond: "i == 1", n: "1", logNext: "lp 2", runTo: "BP:print", totalExpr: "sum", total: "5"},
			echo:   echoCase{program: "java/Echo.java"},
			attachBreak: &attachBreak{ways: []string{"port", "processId"}, src: "java/Spin.java", mark: "BP:spin",
				eval: "n > 0", want: "true", set: "n", value: "1000000019", after: "tick 1000000020"},
			caught: &caughtCase{program: "java/Exceptions.java", mark: "BP:throw", message: "caught one", eval: "why", want: `"caught one"`,
				output: "caught: caught one"},
			attachCatch: &attachCatch{start: javaThrower, by: "port", src: "java/Thrower.java", mark: "// THROW", message: "bad n ",
				eval: "n % 2", want: "0", extra: map[string]any{"sourcePaths": []string{td("java")}}},
			values: javaValues(),
			cannot: map[string]refusal{"children": {code: "UNSUPPORTED", says: "-agentlib:jdwp"}, "core": {code: "UNSUPPORTED", says: "jhsdb"}, "goto_line": {code: "UNSUPPORTED", says: "next statement"}},
			changed: &changedCase{program: "java/Changed.java", after: [][]changedWant{
				{{"count", "1", "2"}, {"label", "", `"one"`}}, {{"count", "2", "20"}}, {{"extra", "", "22"}}}},
			trace: traceLoop("java/Trace.java"),
			watch: watchFixture{program: "java/Watch.java", stopAt: "WATCH: set", expr: "a.count", writes: "WATCH: writes",
				old: "0", new: "5", output: "watched a=5 b=7"},
			frame: frameCase{program: "java/Loop.java", mark: "BP:square", arg: "x", want: "0", caller: "i", was: "0", set: "3"},
			reload: reloadCase{copy: copied("java/Ticker.java"), fix: fixCase{copy: copied("java/Price.java"),
				first: "int sum = qty * unit", bad: "return sum + 1;", good: "return sum;", right: "total=12", wrong: "total=13",
				// A field is a schema change the JVM refuses.
				refuse: []edit{{"    static int total(", "    static int extra = 1;\n\n    static int total("}, {"return sum;", "return sum + extra;"}},
				says:   []string{"Price", "schema change"},
				// Method calls, even size(), are refused; arithmetic on locals answers.
				safe: &safeCase{refused: []string{"list.add(1)", "list.size()", "a = 5"}, says: "side effects",
					evals: map[string]string{"a + b": "7"}, after: map[string]string{"list.size()": "1", "a": "3"}},
				restart: "int acc = 0", output: "countdown=6 size=1"}},
			safe: &safeCase{refused: []string{"label.length()", "sum = 5"}, says: "side effects", after: map[string]string{"sum": "0"}},
		},
		{
			name: "ruby", cmdline: "loop.rb", require: func(t *testing.T) { requireRdbg(t) },
			loop: loopFixture{program: "ruby/loop.rb", mark: "BREAK: loop body", step: 1,
				locals: map[string]string{"total": "0", "i": "0", "label": `"sum"`},
				eval:   "total + 10", evalWant: "10", loopVar: "i", passes: [4]string{"0", "1", "2", "3"},
				output: "done total=30"},
			setVar: setVar{name: "total", value: "100", output: "done total=130"},
			fn:     funcBreakpoint{name: "square", output: "done total=30"},
			exc: exceptionCase{program: "ruby/uncaught.rb", mode: "uncaught", mark: "# BOOM",
				message: []string{"boom at the end"}, before: "rescued value 5 is too large", ends: true},
			spin: spin{program: "ruby/loop.rb", args: []string{"forever"}},
			attach: []attachWay{
				{by: "port", start: rubyTarget},
				{by: "processId", refused: &refusal{code: "INVALID_ARGUMENT", says: "port"}},
			},
			remote: &remoteWay{setup: rubyRemote},
			feat:   features{cond: "i == 3", n: "3", logNext: "lp 4", runTo: `puts "done`, totalExpr: "total", total: "30"},
			echo:   echoCase{program: "ruby/echo.rb"},
			attachBreak: &attachBreak{ways: []string{"port"}, src: "ruby/loop.rb", mark: "BREAK: loop body", eval: "i >= 0", want: "true",
				set: "label", value: `"attached"`, after: "tick attached i="},
			caught: &caughtCase{program: "ruby/uncaught.rb", mark: "# ARG", message: "value 5 is too large", eval: "v * 2", want: "10",
				next: "# BOOM", output: "rescued value 5 is too large"},
			attachCatch: &attachCatch{start: rubyThrower, by: "port", src: "ruby/thrower.rb", mark: "# THROW", message: "bad n ",
				detachHangs: "debug 1.4.0 sends an event on the closed socket after a disconnect that followed exception breakpoints (NoMethodError in server_dap.rb send), and its session thread dies"},
			values: rubyValues(),
			extra:  []scenario{{name: "attach_continue", run: rubyAttachContinue}},
			cannot: map[string]refusal{"children": {code: "UNSUPPORTED", says: "rdbg"}, "core": {code: "UNSUPPORTED", says: "live processes only"}, "function": {says: "not supported"}, "goto_line": {code: "UNSUPPORTED", says: "next statement"}, "reload": {code: "UNSUPPORTED", says: "replace code"}, "restart_frame": {code: "UNSUPPORTED", says: "restart a frame"}, "watch": {code: "UNSUPPORTED", says: "supportsDataBreakpoints"}},
			trace:  smallTrace("ruby/loop.rb", "", "BREAK: loop body", "i", 0, 4, "done total=30"),
			frame:  frameCase{program: "ruby/loop.rb", mark: "result = x * x", arg: "x", want: "0", caller: "i", was: "0", set: "3"},
		},
		{
			name: "rust", require: requireCargo,
			loop: loopFixture{program: "rust", src: "rust/src/main.rs", mark: "BREAK: loop body", step: 1,
				locals: map[string]string{"total": "0", "i": "0"},
				eval:   "total + 10", evalWant: "13", loopVar: "i", passes: [4]string{"0", "1", "2", "3"},
				output: "done total=45 y=4"},
			setVar: setVar{name: "total", value: "100", output: "done total=145"},
			fn:     funcBreakpoint{name: "square", mark: "let result = x * x", arg: "x", want: "0", output: "done total=45"},
			exc: exceptionCase{program: "rust", src: "rust/src/main.rs", args: []string{"panic"}, mark: `panic!("boom at`,
				eval: "i", want: "2", before: "hello i=1", after: "boom at 2"},
			spin:   spin{program: "rust", src: "rust/src/main.rs", args: []string{"forever"}},
			attach: []attachWay{{by: "processId", start: nativeTarget("rust", "rust", "main.rs")}},
			remote: &remoteWay{setup: rustRemote},
			feat:   features{cond: "i == 3", n: "3", logNext: "lp 4", runTo: `println!("done`, totalExpr: "total", total: "45"},
			echo:   echoCase{program: "rustecho/echo.rs"},
			attachBreak: &attachBreak{ways: []string{"processId"}, src: "rust/src/main.rs", mark: "BREAK: loop body", eval: "forever", want: "true",
				printed: "i=%d total=", loopVar: "i", set: "total", value: "700000000", after: "total=7000"},
			values: rustValues(),
			cannot: map[string]refusal{"caught": {says: "rust_panic"}, "attach_catch": {says: "rust_panic"}, "children": {code: "UNSUPPORTED", says: "cannot follow forks"}, "reload": {code: "UNSUPPORTED", says: "replace code"}, "restart_frame": {code: "UNSUPPORTED", says: "restart a frame"}},
			trace:  smallTrace("rust", "rust/src/main.rs", "BREAK: loop body", "i", 0, 4, "done total=45"),
			watch: watchFixture{program: "rustwatch/watch.rs", stopAt: "WATCH: set", expr: "p.x", writes: "WATCH: writes",
				old: "1", new: "5", output: "watched x=5 y=1"},
			frame: frameCase{program: "rust", src: "rust/src/main.rs", mark: "let result = x * x", arg: "x", want: "0", caller: "i", was: "0", set: "3"},
			core: &coreCase{build: rustCrash, src: "rustcore/crash.rs", mark: "CRASH", signal: "SIGABRT",
				locals: map[string]string{"amount": "5", "balance": "1", "left": "-4"}, eval: "amount + 1", evalWant: "6",
				other: func(t *testing.T) string { return nativeBinary(t, "rust", td("rust")) }},
		},
		{
			name: "cobol", require: requireCOBOL,
			loop: loopFixture{program: "cobol/loop.cob", mark: "ADD WS-SQUARE TO WS-TOTAL", step: 1,
				locals: map[string]string{"WS-TOTAL": "100", "WS-I": "0", "WS-SQUARE": "0", "WS-NAME": `"COBOL     "`},
				eval:   "WS-TOTAL", evalWant: "100", unknown: "WS-NOSUCH", loopVar: "WS-I",
				passes: [4]string{"0", "1", "2", "3"}, output: "DONE TOTAL=00130"},
			setVar: setVar{name: "WS-TOTAL", value: "500", output: "DONE TOTAL=00530"},
			fn: funcBreakpoint{name: "SQUARE-PARA", mark: "COMPUTE WS-SQUARE", arg: "WS-I", want: "0",
				output: "DONE TOTAL=00130"},
			exc:    exceptionCase{program: "cobol/crash.cob", mark: `CALL "NOSUCHPROG"`, deep: true, before: "before", after: "NOSUCHPROG"},
			spin:   spin{program: "cobol/spin.cob"},
			attach: []attachWay{{by: "processId", start: cobolSpinTarget}},
			remote: &remoteWay{setup: cobolRemote},
			feat: features{cond: "WS-I = 3", n: "3", logNext: "lp 4", runTo: `DISPLAY "DONE TOTAL="`,
				totalExpr: "WS-TOTAL", total: "130"},
			// A paragraph is no function to lldb: the breakpoint stays
			// unverified. A COBOL data item is no variable lldb watches.
			// A paragraph is no frame either, and a source with nested
			// programs (a caller's frame under the callee's) is refused.
			echo: echoCase{program: "cobol/echo.cob"},
			attachBreak: &attachBreak{ways: []string{"processId"}, src: "cobol/spin.cob", mark: "ADD 1 TO WS-TICK", counter: "WS-TICK",
				set: "WS-TICK", value: "500000000", after: "tick 500000001"},
			values: cobolValues(),
			cannot: map[string]refusal{"caught": {says: "cobol_runtime_error"}, "attach_catch": {says: "cobol_runtime_error"}, "children": {code: "UNSUPPORTED", says: "cannot follow forks"}, "core": {code: "UNSUPPORTED", says: "language c"}, "frame": {code: "INVALID_ARGUMENT", says: "nested programs"}, "function": {says: "not verified"}, "reload": {code: "UNSUPPORTED", says: "replace code"}, "restart_frame": {code: "UNSUPPORTED", says: "restart a frame"}, "watch": {code: "INVALID_ARGUMENT", says: "lldb can watch"}},
			trace:  smallTrace("cobol/loop.cob", "", "ADD WS-SQUARE TO WS-TOTAL", "WS-I", 0, 4, "DONE TOTAL=00130"),
			frame:  frameCase{program: "cobol/frames.cob", mark: "COMPUTE LK-Y", arg: "WS-F", want: "3", caller: "WS-I", was: "2", set: "7"},
		},
		{
			name: "cpp", require: requireLLDB,
			loop: loopFixture{program: "cpp/loop.cpp", mark: "BREAK: loop body", step: 1,
				locals: map[string]string{"total": "0", "i": "0"},
				eval:   "total + 10", evalWant: "10", loopVar: "i", passes: [4]string{"0", "1", "2", "3"},
				output: "done total=30"},
			setVar: setVar{name: "total", value: "100", output: "done total=130"},
			fn:     funcBreakpoint{name: "square", mark: "int result = x * x", arg: "x", want: "0", output: "done total=30"},
			exc: exceptionCase{program: "cpp/uncaught.cpp", mark: "THROW", deep: true, eval: "v", want: "5",
				before: "before"},
			spin:   spin{program: "cpp/loop.cpp", args: []string{"forever"}},
			attach: []attachWay{{by: "processId", start: nativeTarget("cpp", "cpp/loop.cpp", "loop.cpp")}},
			remote: &remoteWay{setup: nativeRemote("g++", "cpp/loop.cpp")},
			feat:   features{cond: "i == 3", n: "3", logNext: "lp 4", runTo: `"done total="`, totalExpr: "total", total: "30"},
			echo:   echoCase{program: "cpp/echo.cpp"},
			attachBreak: &attachBreak{ways: []string{"processId"}, src: "cpp/loop.cpp", mark: "BREAK: loop body", eval: "forever", want: "true",
				printed: "i=%d total=", loopVar: "i", set: "total", value: "700000000", after: "total=7000"},
			caught:      &caughtCase{program: "cpp/throw.cpp", mark: "// THROW", deep: true, output: "caught value too large"},
			attachCatch: &attachCatch{start: cppThrower, by: "processId", src: "cpp/thrower.cpp", mark: "// THROW", deep: true},
			values:      cppValues(),
			cannot:      map[string]refusal{"children": {code: "UNSUPPORTED", says: "cannot follow forks"}, "reload": {code: "UNSUPPORTED", says: "replace code"}, "restart_frame": {code: "UNSUPPORTED", says: "restart a frame"}},
			trace:       smallTrace("cpp/loop.cpp", "", "BREAK: loop body", "i", 0, 4, "done total=30"),
			watch: watchFixture{program: "c/watch.c", stopAt: "WATCH: set", expr: "counter", writes: "WATCH: writes",
				old: "1", new: "5", output: "watched counter=5 bumps=1"},
			frame: frameCase{program: "cpp/loop.cpp", mark: "int result = x * x", arg: "x", want: "0", caller: "i", was: "0", set: "3"},
			core: &coreCase{build: nativeCrash("cpp", "cpp/uncaught.cpp"), src: "cpp/uncaught.cpp", mark: "THROW", signal: "SIGABRT",
				locals: map[string]string{"v": "5"}, eval: "v + 1", evalWant: "6",
				other: func(t *testing.T) string { return nativeBinary(t, "cpp", td("cpp/loop.cpp")) }},
		},
		{
			name: "c", require: requireLLDB,
			loop: loopFixture{program: "c/loop.c", mark: "BREAK: loop body", step: 1,
				locals: map[string]string{"total": "0", "i": "0"},
				eval:   "total + 10", evalWant: "10", loopVar: "i", passes: [4]string{"0", "1", "2", "3"},
				output: "done total=30"},
			setVar: setVar{name: "total", value: "100", output: "done total=130"},
			fn:     funcBreakpoint{name: "square", mark: "int result = x * x", arg: "x", want: "0", output: "done total=30"},
			exc: exceptionCase{program: "c/crash.c", mark: "CRASH", message: []string{"SIGSEGV|bad access"},
				eval: "k", want: "7", before: "before"},
			spin:   spin{program: "c/loop.c", args: []string{"forever"}},
			attach: []attachWay{{by: "processId", start: nativeTarget("c", "c/loop.c", "loop.c")}},
			remote: &remoteWay{setup: nativeRemote("gcc", "c/loop.c")},
			feat:   features{cond: "i == 3", n: "3", logNext: "lp 4", runTo: `printf("done`, totalExpr: "total", total: "30"},
			echo:   echoCase{program: "c/echo.c"},
			attachBreak: &attachBreak{ways: []string{"processId"}, src: "c/loop.c", mark: "BREAK: loop body", eval: "forever", want: "1",
				printed: "i=%d total=", loopVar: "i", set: "total", value: "700000000", after: "total=7000"},
			values: cValues(),
			// lldb-dap has no goto: dbg moves the pc with lldb's thread jump.
			jump:   &jumpCase{program: "c/jump.c", from: "BP:before", to: "BP:after", says: "thread jump", output: "x=1"},
			cannot: map[string]refusal{"caught": {says: ""}, "attach_catch": {says: ""}, "children": {code: "UNSUPPORTED", says: "cannot follow forks"}, "reload": {code: "UNSUPPORTED", says: "replace code"}, "restart_frame": {code: "UNSUPPORTED", says: "restart a frame"}},
			changed: &changedCase{program: "c/changed.c", after: [][]changedWant{
				{{"count", "1", "2"}}, {{"count", "2", "20"}}, {{"extra", "*", "22"}}}},
			trace: smallTrace("c/loop.c", "", "BREAK: loop body", "i", 0, 4, "done total=30"),
			watch: watchFixture{program: "c/watch.c", stopAt: "WATCH: set", expr: "counter", writes: "WATCH: writes",
				old: "1", new: "5", output: "watched counter=5 bumps=1"},
			frame: frameCase{program: "c/loop.c", mark: "int result = x * x", arg: "x", want: "0", caller: "i", was: "0", set: "3"},
			core: &coreCase{build: nativeCrash("c", "c/crash.c"), src: "c/crash.c", mark: "CRASH", signal: "SIGSEGV",
				locals: map[string]string{"k": "7"}, eval: "k + 1", evalWant: "8",
				other: func(t *testing.T) string { return nativeBinary(t, "c", td("c/loop.c")) }},
		},
		{
			name: "javascript", cmdline: "loop.js", require: requireNode,
			loop: loopFixture{program: "javascript/loop.js", mark: "BP:loop", step: 1,
				locals: map[string]string{"total": "0", "i": "0"},
				eval:   "total + 10", evalWant: "10", loopVar: "i", passes: [4]string{"0", "1", "2", "3"},
				output: "done 10"},
			setVar: setVar{name: "total", value: "100", output: "done 110"},
			fn: funcBreakpoint{program: "javascript/throw.js", name: "validate", mark: "if (n > 2)", arg: "n", want: "5",
				output: "caught value 5 is too large", start: map[string]any{"breakOnExceptions": "none"}},
			exc: exceptionCase{program: "javascript/throw.js", mode: "uncaught", mark: "BP:throw",
				message: []string{"value 3 is too large"}, eval: "n", want: "3",
				before: "caught value 5 is too large", after: "RangeError"},
			spin: spin{program: "javascript/spin.js"},
			attach: []attachWay{
				{by: "port", start: nodeTickerTarget("--inspect=127.0.0.1:%d")},
				{by: "processId", start: nodeTickerTarget("--inspect-port=127.0.0.1:%d")},
			},
			remote: &remoteWay{setup: nodeRemote},
			feat:   features{cond: "i === 3", n: "3", logNext: "lp 4", runTo: "console.log('done'", totalExpr: "total", total: "10"},
			echo:   echoCase{program: "javascript/echo.js"},
			attachBreak: &attachBreak{ways: []string{"port", "processId"}, mark: "n++", eval: "n > 0", want: "true",
				set: "n", value: "-1000000000", after: "tick -99"},
			caught:      nodeCaught("javascript/throw.js", "BP:throw"),
			attachCatch: nodeThrower("javascript/thrower.js", "javascript/thrower.js"),
			values:      nodeValues(),
			cannot:      map[string]refusal{"core": {code: "UNSUPPORTED", says: "llnode"}, "goto_line": {code: "UNSUPPORTED", says: "next statement"}, "watch": {code: "UNSUPPORTED", says: "CDP"}},
			changed: &changedCase{program: "javascript/changed.js", after: [][]changedWant{
				{{"count", "1", "2"}, {"label", "*", `"one"`}}, {{"count", "2", "20"}}, {{"extra", "*", "22"}}}},
			trace: traceLoop("javascript/trace.js"),
			frame: frameCase{program: "javascript/frames.js", mark: "FRAME: callee", arg: "x", want: "2", caller: "i", was: "0", set: "3"},
			reload: reloadCase{copy: copied("javascript/ticker.js"), fix: fixCase{copy: copied("javascript/price.js"),
				first: "const sum = qty * unit", bad: "return sum + 1;", good: "return sum;", right: "total=12 count=5", wrong: "total=13",
				refuse: []edit{{"return sum;", "return sum +;"}}, says: []string{"price.js", "CompileError"},
				// V8's throwOnSideEffect.
				safe: &safeCase{refused: []string{"obj.count++"}, says: "side-effect",
					evals: map[string]string{"obj.count + 1": "6"}, after: map[string]string{"obj.count": "5"}},
				restart: "let acc = 0", output: "countdown=6"}},
			safe:     &safeCase{refused: []string{"total++"}, says: "side-effect", after: map[string]string{"total": "0"}},
			children: &nodeChildCase,
		},
		{
			name: "typescript", cmdline: "count", require: requireNode, prepare: compileTS,
			loop: loopFixture{program: "javascript/ts/count.ts", mark: "BP:ts-loop", step: 1,
				locals: map[string]string{"total": "0", "i": "0"},
				eval:   "total + 10", evalWant: "10", loopVar: "i", passes: [4]string{"0", "1", "2", "3"},
				output: "counted total=30"},
			setVar: setVar{name: "total", value: "100", output: "counted total=130"},
			fn:     funcBreakpoint{name: "square", mark: "const result: number = x * x", arg: "x", want: "0", output: "counted total=30"},
			exc: exceptionCase{program: "javascript/ts/count.ts", args: []string{"throw"}, mode: "uncaught", mark: "BP:ts-throw",
				message: []string{"pass 2 is too far"}, eval: "i", want: "2", before: "pass i=1 total=1", after: "RangeError"},
			spin: spin{program: "javascript/ts/count.ts", args: []string{"forever"}},
			attach: []attachWay{
				{by: "port", start: tsCountTarget("--inspect=127.0.0.1:%d")},
				{by: "processId", start: tsCountTarget("--inspect-port=127.0.0.1:%d")},
			},
			feat: features{cond: "i === 3", n: "3", logNext: "lp 4", runTo: "console.log(`counted", totalExpr: "total", total: "30"},
			echo: echoCase{program: "javascript/ts/echo.ts"},
			attachBreak: &attachBreak{ways: []string{"port", "processId"}, src: "javascript/ts/count.ts", mark: "BP:ts-loop", eval: "i >= 0", want: "true",
				set: "i", value: "-1000000000", after: "tick i=-99"},
			caught:      nodeCaught("javascript/ts/caught.ts", "BP:ts-caught"),
			attachCatch: nodeThrower("javascript/build/thrower.js", "javascript/ts/thrower.ts"),
			values:      tsValues(),
			cannot:      map[string]refusal{"core": {code: "UNSUPPORTED", says: "llnode"}, "goto_line": {code: "UNSUPPORTED", says: "next statement"}, "watch": {code: "UNSUPPORTED", says: "CDP"}},
			trace:       smallTrace("javascript/ts/count.ts", "", "BP:ts-loop", "i", 0, 4, "counted total=30"),
			frame:       frameCase{program: "javascript/ts/count.ts", mark: "const result: number = x * x", arg: "x", want: "0", caller: "i", was: "0", set: "3"},
			// dbg rebuilds an edited .ts with the project's tsc and replaces
			// the script its source map names; a type error is refused.
			reload: reloadCase{copy: func(t *testing.T) string { return tsProject(t, "src/ticker.ts") },
				fix: fixCase{copy: func(t *testing.T) string { return tsProject(t, "src/price.ts") },
					first: "const sum: number", bad: "return sum + 1;", good: "return sum;", right: "total=12", wrong: "total=13",
					// tsc writes its output despite the error: the reload names
					// the .ts alone, or that output, changed too, would be replaced.
					refuse: []edit{{"return sum;", `return "x" + sum;`}}, says: []string{"price.ts", "TS2322"}, named: true}},
			safe:     &safeCase{refused: []string{"total++"}, says: "side-effect", after: map[string]string{"total": "0"}},
			children: &nodeChildCase,
			remote:   &remoteWay{setup: tsRemote},
		},
		{
			name: "python", cmdline: "loop.py", require: requireDebugpy,
			loop: loopFixture{program: "python/loop.py", mark: "BREAK", step: 1,
				locals: map[string]string{"total": "0", "i": "0"},
				eval:   "total + 10", evalWant: "10", loopVar: "i", output: "done total=3"},
			hit: &loopFixture{program: "python/count.py", mark: "BREAK: count", loopVar: "i",
				passes: [4]string{"0", "1", "2", "3"}, output: "counted total=10"},
			setVar: setVar{name: "total", value: "100", output: "done total=103"},
			fn:     funcBreakpoint{name: "add", mark: "def add(a, b)", arg: "a", want: "0", output: "done total=3"},
			exc: exceptionCase{program: "python/raises.py", mark: "return int(text)", message: []string{"ValueError"},
				eval: "text", want: "'not a number'", before: "about to fail"},
			spin: spin{program: "python/server.py"},
			attach: []attachWay{
				{by: "processId", start: pythonTarget(false), unless: pythonPIDRefusal},
				{by: "port", start: pythonTarget(true)},
			},
			remote: &remoteWay{setup: pythonRemote, given: true},
			feat:   features{cond: "i == 1", n: "1", logNext: "lp 2", runTo: `print(f"done`, totalExpr: "total", total: "3"},
			echo:   echoCase{program: "python/echo.py"},
			attachBreak: &attachBreak{ways: []string{"port"}, src: "python/server.py", mark: "# TICK", eval: "n >= 0", want: "True",
				set: "n", value: "1000000", after: "tick 1000010"},
			caught: &caughtCase{program: "python/caught.py", mark: "# RAISE", message: "value 5 is too large", eval: "v", want: "5",
				output: "caught value 5 is too large"},
			attachCatch: &attachCatch{start: portThrower("python3", td("python/thrower.py"), "--listen", "%d"), by: "port",
				src: "python/thrower.py", mark: "# THROW", message: "bad n "},
			values: pythonValues(),
			cannot: map[string]refusal{"core": {code: "UNSUPPORTED", says: "pystack"}, "reload": {code: "UNSUPPORTED", says: "replace code"}, "restart_frame": {code: "UNSUPPORTED", says: "restart a frame"}, "watch": {code: "UNSUPPORTED", says: "debugpy"}},
			changed: &changedCase{program: "python/changed.py", after: [][]changedWant{
				{{"count", "1", "2"}, {"label", "", "'one'"}}, {{"count", "2", "20"}}, {{"extra", "", "22"}}}},
			trace:    traceLoop("python/trace.py"),
			frame:    frameCase{program: "python/loop.py", mark: "total = a + b", arg: "a", want: "0", caller: "i", was: "0", set: "3"},
			children: &pythonChildCases[0],
		},
		{
			name: "go", require: requireDelve,
			loop: loopFixture{program: "go/loop/main.go", mark: "BREAK", step: 1,
				locals: map[string]string{"total": "0", "i": "0"},
				eval:   "total + 10", evalWant: "10", loopVar: "i", output: "done total=3",
				// delve stops on entry before goroutine 1 exists.
				entryStack: &refusal{code: "ADAPTER_FAILED", says: "unknown goroutine 1"}},
			hit: &loopFixture{program: "go/count/main.go", mark: "BREAK: count", loopVar: "i",
				passes: [4]string{"0", "1", "2", "3"}, output: "counted total=10"},
			setVar: setVar{name: "total", value: "100", output: "done total=103"},
			fn:     funcBreakpoint{name: "main.add", mark: "func add(a, b int)", arg: "a", want: "0", output: "done total=3"},
			exc: exceptionCase{program: "go/panic/main.go", mark: "return xs[i]", message: []string{"index out of range"},
				eval: "i", want: "5", before: "about to panic"},
			spin: spin{program: "go/server/main.go"},
			attach: []attachWay{
				{by: "processId", start: goServerTarget},
				// An HTTP service between requests: no thread runs Go code.
				{by: "processId", name: "processId/idle", start: goIdleTarget, flow: goIdleFlow},
			},
			remote: &remoteWay{setup: goRemote},
			feat:   features{cond: "i == 1", n: "1", logNext: "lp 2", runTo: `fmt.Printf("done`, totalExpr: "total", total: "3"},
			echo:   echoCase{program: "go/echo/main.go"},
			// Nothing set: delve writes n's stack slot (and reads the new
			// value back), but the code of tick uses the copy in a register
			// (Go's register ABI, even with -N -l): the program goes on
			// with the old value. The README's Go section says so.
			attachBreak: &attachBreak{ways: []string{"processId"}, src: "go/server/main.go", mark: "// TICK", eval: "n >= 0", want: "true"},
			values:      goValues(),
			safe:        &safeCase{refused: []string{"call add(1, 2)"}, says: "side effects"},
			cannot:      map[string]refusal{"caught": {says: "unrecovered-panic,runtime-fatal-throw"}, "attach_catch": {says: "unrecovered-panic,runtime-fatal-throw"}, "reload": {code: "UNSUPPORTED", says: "replace code"}, "restart_frame": {code: "UNSUPPORTED", says: "restart a frame"}, "goto_line": {code: "UNSUPPORTED", says: "next statement"}},
			changed: &changedCase{program: "go/changed/main.go", after: [][]changedWant{
				{{"count", "1", "2"}, {"label", "", `"one"`}}, {{"count", "2", "20"}}, {{"extra", "", "22"}}}},
			trace: traceLoop("go/trace/main.go"),
			// delve 1.27.2's DAP server has data breakpoints.
			watch: watchFixture{program: "go/watch/main.go", stopAt: "WATCH: set", expr: "c.n", writes: "WATCH: writes",
				old: "1", new: "5", output: "watched n=5"},
			frame:    frameCase{program: "go/loop/main.go", mark: "sum := a + b", arg: "a", want: "0", caller: "i", was: "0", set: "3"},
			children: &goChildCase,
			core: &coreCase{build: goCrash, env: []string{"GOTRACEBACK=crash"}, src: "go/crash/main.go", mark: "CRASH", signal: "SIGABRT",
				locals: map[string]string{"amount": "5", "label": `"rent"`}, eval: "amount + 1", evalWant: "6",
				other: func(t *testing.T) string { return goBinary(t, td("go/loop")) }},
		},
		{
			name: "mock", require: func(*testing.T) {}, noPID: true,
			loop: loopFixture{program: "mock/loop.mock", mark: "let total = add(total, i)", step: 1,
				locals: map[string]string{"total": "0", "i": "1"},
				eval:   "total + 10", evalWant: "11", loopVar: "i", output: "done total=6"},
			hit: &loopFixture{program: "mock/count.mock", mark: "let total = total + i", loopVar: "i",
				passes: [4]string{"1", "2", "3", "4"}, output: "counted total=15"},
			setVar: setVar{name: "total", value: "100", output: "done total=106"},
			fn:     funcBreakpoint{name: "add", mark: "let sum = a + b", arg: "a", want: "0", output: "done total=6"},
			exc: exceptionCase{program: "mock/throw.mock", mark: `throw "bad input`, message: []string{"bad input: 41"},
				eval: "x", want: "41", before: "about to fail"},
			spin: spin{program: "mock/forever.mock"},
			attach: []attachWay{
				{by: "port", refused: &refusal{code: "INVALID_ARGUMENT", says: "adapterConfig.program"}},
			},
			feat:   features{cond: "i == 2", n: "2", logNext: "lp 3", runTo: `print "done`, totalExpr: "total", total: "6"},
			echo:   echoCase{program: "mock/echo.mock"},
			values: mockValues(),
			cannot: map[string]refusal{"args_env_cwd": {says: "first-arg"}, "attach_break": {code: "INVALID_ARGUMENT", says: "adapterConfig.program"}, "caught": {says: "all,uncaught"}, "attach_catch": {says: "all,uncaught"}, "children": {code: "UNSUPPORTED", says: "childSession"}, "core": {code: "UNSUPPORTED", says: "no core files"}, "goto_line": {code: "UNSUPPORTED", says: "next statement"}, "reload": {code: "UNSUPPORTED", says: "replace code"}, "remote": {code: "UNSUPPORTED", says: "mock adapter runs its programs inside dbg"}},
			trace:  smallTrace("mock/loop.mock", "", "let total = add(total, i)", "i", 1, 3, "done total=6"),
			watch: watchFixture{program: "mock/watch.mock", stopAt: `print "watch-start"`, expr: "count",
				writes: "let count = count + 4", old: "1", new: "5", output: "watched count=5"},
			frame: frameCase{program: "mock/loop.mock", mark: "let sum = a + b", arg: "a", want: "0", caller: "i", was: "1", set: "3"},
		},
	}
}

// The targets attach scenarios start: each prints a marker line over and
// over until killed.

func javaSpinTarget(t *testing.T) target {
	src := td("java/Spin.java")
	classes := javaClasses(t, src)
	port := freePort(t)
	// In the fixture directory: attach by pid finds the sources there.
	cmd, out := startTargetIn(t, filepath.Dir(src), "tick", "java",
		fmt.Sprintf("-agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=127.0.0.1:%d", port),
		"-cp", classes, "Spin")
	return target{cmd: cmd, out: out, port: port, file: "Spin.java", marker: "tick"}
}

func nativeTarget(lang, program, file string) func(t *testing.T) target {
	return func(t *testing.T) target {
		bin := nativeBinary(t, lang, td(program))
		cmd, out := startTarget(t, "total=", bin, "forever")
		return target{cmd: cmd, out: out, file: file, marker: "total="}
	}
}

// cobolBinary builds a COBOL fixture once.
func cobolBinary(t testing.TB, src string) string {
	return buildOnce(t, "cobol:"+src, func() (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		prog, err := cobol.Build(ctx, src)
		if err != nil {
			return "", err
		}
		return prog.Binary, nil
	})
}

func cobolSpinTarget(t *testing.T) target {
	cmd, out := startTarget(t, "tick", cobolBinary(t, td("cobol/spin.cob")))
	return target{cmd: cmd, out: out, file: "spin.cob", marker: "tick"}
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

func nodeTickerTarget(flag string) func(t *testing.T) target {
	return func(t *testing.T) target {
		port := freePort(t)
		cmd, out := nodeTicker(t, fmt.Sprintf(flag, port))
		return target{cmd: cmd, out: out, port: port, file: "ticker.js", marker: "tick"}
	}
}

// tsCountTarget runs the compiled count.ts forever under node's
// inspector; its frames map back to the .ts source.
func tsCountTarget(flag string) func(t *testing.T) target {
	return func(t *testing.T) target {
		port := freePort(t)
		cmd, out := startTarget(t, "tick", "node", fmt.Sprintf(flag, port), td("javascript/build/count.js"), "forever")
		return target{cmd: cmd, out: out, port: port, file: "count.ts", marker: "tick"}
	}
}

func rubyTarget(t *testing.T) target {
	rdbg := requireRdbg(t)
	port := freePort(t)
	// rdbg announces its port before its session is ready: attach once the
	// program ticks.
	cmd, out := startTarget(t, "tick", rdbg, "--open", "--nonstop", "--host", "127.0.0.1", "--port", fmt.Sprint(port),
		"--", td("ruby/loop.rb"), "forever")
	return target{cmd: cmd, out: out, port: port, file: "loop.rb", marker: "tick"}
}

// pythonPIDRefusal is, where the server says no debugger can inject into
// a Python process on this machine, the refusal an attach by pid answers.
func pythonPIDRefusal(t *testing.T, c *client) *refusal {
	if via, why := pythonPIDAttach(t, c); via == "" {
		t.Logf("no injector works here: %s", why)
		return &refusal{code: "ATTACH_FAILED", says: "untouched"}
	}
	return nil
}

func pythonTarget(byPort bool) func(t *testing.T) target {
	return func(t *testing.T) target {
		if !byPort {
			cmd, out := startTarget(t, "ready", "python3", td("python/server.py"))
			return target{cmd: cmd, out: out, file: "server.py", marker: "tick"}
		}
		port := freePort(t)
		cmd, out := startTarget(t, "ready", "python3", td("python/server.py"), "--listen", fmt.Sprint(port))
		return target{cmd: cmd, out: out, port: port, file: "server.py", marker: "tick"}
	}
}

func goServerTarget(t *testing.T) target {
	cmd, out := startTarget(t, "ready", goBinary(t, td("go/server")))
	return target{cmd: cmd, out: out, file: "main.go", marker: "tick"}
}

// goIdleTarget is an HTTP server waiting in accept ("ready PID PORT").
func goIdleTarget(t *testing.T) target {
	cmd, out := startTarget(t, "ready", goBinary(t, td("go/idle")))
	var pid, port int
	if _, err := fmt.Sscanf(out.String(), "ready %d %d", &pid, &port); err != nil || port == 0 {
		t.Fatalf("the idle server's first line: %q (%v)", out.String(), err)
	}
	return target{cmd: cmd, out: out, port: port, file: "main.go"}
}
