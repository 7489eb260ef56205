package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// Live edits (docs/contract.md, "Beyond the peers") through MCP on real adapters: hot_reload and
// restart_frame in Java and Node, goto_line with lldb, evaluation
// without side effects. Each edit goes to a copy of the fixture.

// copyFixture copies testdata files into a temporary folder and returns
// the copy of the first.
func copyFixture(t *testing.T, rels ...string) string {
	t.Helper()
	dir := t.TempDir()
	var first string
	for _, rel := range rels {
		b, err := os.ReadFile(fixture(t, rel))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, filepath.Base(rel))
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if first == "" {
			first = p
		}
	}
	return first
}

// editFile replaces old with new in path.
func editFile(t *testing.T, path, old, new string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s has no %q", path, old)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// outputLacks checks that the session's output does not contain text.
func outputLacks(t *testing.T, c *client, id, text string) {
	t.Helper()
	if out := c.ok("get_output", map[string]any{"sessionId": id}).str("text"); strings.Contains(out, text) {
		t.Errorf("output %q contains %q", out, text)
	}
}

// liveCase is one language's fixture for the live-edit checks.
type liveCase struct {
	lang      string
	prog, src string // scriptPath, and the file edited (the same, or the .ts)
	first     string // a text on the first line of the wrong function
	bad, good string // the bug, and its fix
	right     string // printed once fixed
	wrong     string // printed while not
}

// liveFixed stops in the wrong function, fixes it in the copy, reloads
// with restartFrames and checks the program prints the right value.
func liveFixed(t *testing.T, lc liveCase) {
	c := startDbg(t)
	line := mcpLine(t, lc.src, "BP:wrong")
	id, st := mcpLaunch(t, c, lc.lang, lc.src, []int{line}, lc.prog, nil)
	if st.num("lastStop.location.line") != line {
		t.Fatalf("first stop %v, want line %d", st.get("lastStop"), line)
	}
	if got := mcpEval(t, c, id, "sum"); got != "12" {
		t.Fatalf("sum = %q at the stop, want 12", got)
	}
	editFile(t, lc.src, lc.bad, lc.good)
	r := c.ok("hot_reload", map[string]any{"sessionId": id, "files": []string{lc.src}, "restartFrames": true})
	if len(r.list("replaced")) == 0 || len(r.list("refused")) != 0 {
		t.Fatalf("hot_reload answered %v, want the file replaced and nothing refused", r)
	}
	if !strings.Contains(r.str("restartedFrame"), "total") || r.str("now.state") != "paused" {
		t.Fatalf("hot_reload answered %v, want the frame restarted and stopped", r)
	}
	if at, want := r.num("now.lastStop.location.line"), mcpLine(t, lc.src, lc.first); at != want {
		t.Errorf("the restarted frame stopped at line %d, want its first line %d (%v)", at, want, r.get("now"))
	}
	c.ok("clear_breakpoints", map[string]any{"sessionId": id})
	pids := mcpPIDs(t, c)
	mcpRunToEnd(t, c, id)
	mcpOutputHas(t, c, id, lc.right)
	outputLacks(t, c, id, lc.wrong)
	mcpClose(t, c, id, pids)
}

// liveRefused makes an edit the runtime cannot replace: hot_reload fails
// naming what it refused, and the program runs its old code.
func liveRefused(t *testing.T, lc liveCase, edit func(path string), says ...string) {
	c := startDbg(t)
	line := mcpLine(t, lc.src, "BP:wrong")
	id, _ := mcpLaunch(t, c, lc.lang, lc.src, []int{line}, lc.prog, nil)
	edit(lc.src)
	// No files: everything changed since the session started, the edit.
	r := c.fail("hot_reload", map[string]any{"sessionId": id, "restartFrames": true}, "UNSUPPORTED")
	for _, s := range says {
		if !strings.Contains(r.Error.Message, s) {
			t.Errorf("refusal %q does not say %q", r.Error.Message, s)
		}
	}
	d := obj(r.Data)
	if len(d.list("replaced")) != 0 || len(d.list("refused")) == 0 || d.str("now.state") != "paused" {
		t.Errorf("refused hot_reload answered %v, want nothing replaced, the refusal listed, still paused", d)
	}
	if got := mcpTop(t, c, id, lc.src, line); got == nil {
		t.Fatal("no top frame")
	}
	mcpFinish(t, c, id, lc.wrong)
}

// liveRestart stops in the loop of countdown on its second pass and
// restarts the frame: the stop is at the function's first line with the
// argument back at its entry value; the program then finishes as if the
// restart had not happened.
func liveRestart(t *testing.T, lang, src, first, output string) {
	c := startDbg(t)
	line := mcpLine(t, src, "BP:loop")
	id, st := mcpLaunch(t, c, lang, src, []int{line}, src, nil)
	if got := mcpEval(t, c, id, "i"); got != "3" {
		t.Fatalf("i = %q on the first pass, want 3 (%v)", got, st.get("lastStop"))
	}
	st = mcpPaused(t, c, id, c.ok("continue_execution", map[string]any{"sessionId": id}))
	if got := mcpEval(t, c, id, "i"); got != "2" || mcpEval(t, c, id, "acc") != "3" {
		t.Fatalf("i = %q on the second pass, want 2 (%v)", got, st.get("lastStop"))
	}
	frames := c.ok("get_stack_trace", map[string]any{"sessionId": id, "includeInternals": true}).list("stackFrames")
	if len(frames) < 2 {
		t.Fatalf("stack %v", frames)
	}
	bottom := frames[len(frames)-1]
	r := c.fail("restart_frame", map[string]any{"sessionId": id, "frameId": bottom.num("id")}, "INVALID_ARGUMENT")
	if !strings.Contains(r.Error.Message, "bottom") {
		t.Errorf("restarting the bottom frame: %q, want it named the bottom frame", r.Error.Message)
	}
	rs := c.ok("restart_frame", map[string]any{"sessionId": id, "frameId": frames[0].num("id")})
	if rs.str("state") != "paused" || rs.num("lastStop.location.line") != mcpLine(t, src, first) {
		t.Fatalf("restart_frame answered %v, want a stop at line %d", rs, mcpLine(t, src, first))
	}
	locals := mcpLocals(t, c, id)
	if got := locals["n"].str("value"); got != "3" {
		t.Errorf("n = %q after restart_frame, want its entry value 3", got)
	}
	if v, ok := locals["i"]; ok {
		t.Errorf("the loop's i is still a local after restart_frame: %v", v)
	}
	mcpFinish(t, c, id, output)
}

func javaCase(t *testing.T) liveCase {
	src := copyFixture(t, "java/Price.java")
	return liveCase{lang: "java", prog: src, src: src, first: "int sum = qty * unit", bad: "return sum + 1;", good: "return sum;",
		right: "total=12", wrong: "total=13"}
}

// TestMCPJavaHotReload fixes a wrong method while stopped in it: the
// class is recompiled and redefined, the frame restarted, and the program
// prints the right value.
func TestMCPJavaHotReload(t *testing.T) {
	t.Parallel()
	requireJava(t)
	liveFixed(t, javaCase(t))
}

// TestMCPJavaHotReloadRefused adds a field: the JVM refuses the schema
// change, the answer names the class, and the old code runs.
func TestMCPJavaHotReloadRefused(t *testing.T) {
	t.Parallel()
	requireJava(t)
	lc := javaCase(t)
	liveRefused(t, lc, func(p string) {
		editFile(t, p, "    static int total(", "    static int extra = 1;\n\n    static int total(")
		editFile(t, p, "return sum + 1;", "return sum + extra;")
	}, "Price", "schema change")
}

// TestMCPJavaRestartFrame restarts countdown in the middle of its loop.
func TestMCPJavaRestartFrame(t *testing.T) {
	t.Parallel()
	requireJava(t)
	liveRestart(t, "java", fixture(t, "java/Price.java"), "int acc = 0", "countdown=6 size=1")
}

// TestMCPJavaSafeEvaluate: without side effects, method calls (even
// size()) are refused; arithmetic on locals answers.
func TestMCPJavaSafeEvaluate(t *testing.T) {
	t.Parallel()
	requireJava(t)
	c := startDbg(t)
	src := fixture(t, "java/Price.java")
	line := mcpLine(t, src, "BP:main")
	id, _ := mcpLaunch(t, c, "java", src, []int{line}, src, nil)
	for _, expr := range []string{"list.add(1)", "list.size()", "a = 5"} {
		r := c.fail("evaluate_expression", map[string]any{"sessionId": id, "expression": expr, "sideEffects": false}, "INVALID_ARGUMENT")
		if !strings.Contains(r.Error.Message, "side effects") {
			t.Errorf("%s refused with %q, want it to say side effects", expr, r.Error.Message)
		}
	}
	if got := c.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "a + b", "sideEffects": false}).str("result"); got != "7" {
		t.Errorf("a + b = %q without side effects, want 7", got)
	}
	if got := mcpEval(t, c, id, "list.size()"); got != "1" {
		t.Errorf("list.size() = %q, want 1: the refused add ran", got)
	}
	st := c.ok("get_debug_tools_status", map[string]any{})
	want := map[string]any{"restartFrame": true, "hotReload": true, "gotoLine": false, "safeEvaluate": true}
	for k, v := range want {
		if got := st.get("sections.liveEdit." + id + "." + k); got != v {
			t.Errorf("status liveEdit.%s.%s = %v, want %v", id, k, got, v)
		}
	}
	mcpFinish(t, c, id, "countdown=6 size=1")
}

func nodeCase(t *testing.T) liveCase {
	src := copyFixture(t, "javascript/price.js")
	return liveCase{lang: "javascript", prog: src, src: src, first: "const sum = qty * unit", bad: "return sum + 1;", good: "return sum;",
		right: "total=12 count=5", wrong: "total=13"}
}

// TestMCPNodeHotReload fixes a wrong function while stopped in it: V8
// replaces the script and restarts the edited top frame.
func TestMCPNodeHotReload(t *testing.T) {
	t.Parallel()
	requireNode(t)
	liveFixed(t, nodeCase(t))
}

// TestMCPNodeHotReloadRefused makes an edit that does not compile: V8
// refuses it naming the script and the error, and the old code runs.
func TestMCPNodeHotReloadRefused(t *testing.T) {
	t.Parallel()
	requireNode(t)
	lc := nodeCase(t)
	liveRefused(t, lc, func(p string) { editFile(t, p, "return sum + 1;", "return sum +;") }, "price.js", "CompileError")
}

// TestMCPNodeRestartFrame restarts countdown in the middle of its loop.
func TestMCPNodeRestartFrame(t *testing.T) {
	t.Parallel()
	requireNode(t)
	liveRestart(t, "javascript", fixture(t, "javascript/price.js"), "let acc = 0", "countdown=6")
}

// TestMCPTypeScriptHotReload edits a .ts file of a copied project: dbg
// rebuilds it with the project's tsc and replaces the script its source
// map names.
func TestMCPTypeScriptHotReload(t *testing.T) {
	t.Parallel()
	requireNode(t)
	src := tsProject(t, "src/price.ts")
	liveFixed(t, liveCase{lang: "typescript", prog: src, src: src, first: "const sum: number", bad: "return sum + 1;", good: "return sum;",
		right: "total=12", wrong: "total=13"})
}

// tsProject copies the files of testdata/javascript/livets (paths under
// it) and its tsconfig.json into a project of its own, whose compiler is
// node_modules/.bin/tsc as in a real project, builds it and returns the
// copy of the first file.
func tsProject(t *testing.T, files ...string) string {
	t.Helper()
	dir := os.Getenv("DBG_TS_DIR")
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".cache", "dbg-test", "ts")
	}
	modules := filepath.Join(dir, "node_modules")
	if _, err := os.Stat(filepath.Join(modules, ".bin", "tsc")); err != nil {
		t.Skipf("tsc is not installed in %s (scripts/deps/node.sh installs it)", dir)
	}
	project := t.TempDir()
	for _, rel := range append([]string{"tsconfig.json"}, files...) {
		b, err := os.ReadFile(fixture(t, "javascript/livets/"+rel))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(project, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(modules, filepath.Join(project, "node_modules")); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(filepath.Join(modules, ".bin", "tsc"), "-p", project).CombinedOutput(); err != nil {
		t.Fatalf("tsc: %v\n%s", err, out)
	}
	return filepath.Join(project, files[0])
}

// TestMCPNodeSafeEvaluate: without side effects V8 refuses obj.count++
// and obj.count is unchanged; obj.count + 1 answers.
func TestMCPNodeSafeEvaluate(t *testing.T) {
	t.Parallel()
	requireNode(t)
	c := startDbg(t)
	src := fixture(t, "javascript/price.js")
	line := mcpLine(t, src, "BP:main")
	id, _ := mcpLaunch(t, c, "javascript", src, []int{line}, src, nil)
	r := c.fail("evaluate_expression", map[string]any{"sessionId": id, "expression": "obj.count++", "sideEffects": false}, "INVALID_ARGUMENT")
	if !strings.Contains(r.Error.Message, "side-effect") {
		t.Errorf("obj.count++ refused with %q, want V8's side-effect error", r.Error.Message)
	}
	if got := c.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "obj.count + 1", "sideEffects": false}).str("result"); got != "6" {
		t.Errorf("obj.count + 1 = %q without side effects, want 6", got)
	}
	if got := mcpEval(t, c, id, "obj.count"); got != "5" {
		t.Errorf("obj.count = %q after the refused increment, want 5", got)
	}
	mcpFinish(t, c, id, "total=13 count=5")
}

// TestMCPNativeGotoLine jumps over a line that would crash: lldb's
// thread jump moves the pc, the answer is the stop at the new line, and
// the program finishes without the crash.
func TestMCPNativeGotoLine(t *testing.T) {
	t.Parallel()
	requireLLDB(t)
	c := startDbg(t)
	src := fixture(t, "c/jump.c")
	bin := nativeBinary(t, "c", src)
	line := mcpLine(t, src, "BP:before")
	id, st := mcpLaunch(t, c, "c", src, []int{line}, bin, nil)
	if st.num("lastStop.location.line") != line {
		t.Fatalf("first stop %v, want line %d", st.get("lastStop"), line)
	}
	after := mcpLine(t, src, "BP:after")
	r := c.ok("goto_line", map[string]any{"sessionId": id, "file": src, "line": after})
	if r.str("state") != "paused" || r.num("lastStop.location.line") != after || r.str("lastStop.reason") != "goto" {
		t.Fatalf("goto_line answered %v, want a goto stop at line %d", r, after)
	}
	if !strings.Contains(r.str("message"), "thread jump") {
		t.Errorf("goto_line's answer %q does not say it used lldb's thread jump", r.str("message"))
	}
	if top := mcpTop(t, c, id, src, after); top == nil {
		t.Fatal("no top frame")
	}
	mcpFinish(t, c, id, "x=1")
}

// TestMCPGoGotoLineUnsupported: delve has no goto; the answer says so.
func TestMCPGoGotoLineUnsupported(t *testing.T) {
	t.Parallel()
	requireDelve(t)
	c := startDbg(t)
	src := fixture(t, "go/loop/main.go")
	line := mcpLine(t, src, "BREAK")
	id, _ := mcpLaunch(t, c, "go", src, []int{line}, filepath.Dir(src), nil)
	r := c.fail("goto_line", map[string]any{"sessionId": id, "file": src, "line": line + 1}, "UNSUPPORTED")
	if !strings.Contains(r.Error.Message, "go") || r.Error.Hint == "" {
		t.Errorf("refusal %v, want it to name the adapter and a hint", r.Error)
	}
	hr := c.fail("hot_reload", map[string]any{"sessionId": id}, "UNSUPPORTED")
	if !strings.Contains(hr.Error.Hint, "restart_debugging") {
		t.Errorf("hot_reload refusal %v, want it to name restart_debugging", hr.Error)
	}
	if got := c.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "total + 10", "sideEffects": false}).str("result"); got != "10" {
		t.Errorf("total + 10 = %q without side effects, want 10", got)
	}
	c.fail("evaluate_expression", map[string]any{"sessionId": id, "expression": "call add(1, 2)", "sideEffects": false}, "INVALID_ARGUMENT")
	st := c.ok("get_debug_tools_status", map[string]any{"sessionId": id})
	for k, v := range map[string]any{"restartFrame": false, "hotReload": false, "gotoLine": false, "safeEvaluate": true} {
		if got := st.get("sections.liveEdit." + id + "." + k); got != v {
			t.Errorf("status liveEdit.%s.%s = %v, want %v", id, k, got, v)
		}
	}
	mcpFinish(t, c, id, "done total=3")
}

// TestFlagsNoSideEffects: dbg mcp and dbg serve take --no-side-effects,
// and the session manager they build then evaluates without side
// effects unless a call asks for them.
func TestFlagsNoSideEffects(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		newCmd func(f *factory, flags **serverFlags) *cobra.Command
	}{
		{"mcp", func(f *factory, flags **serverFlags) *cobra.Command {
			return newCmdMCP(f, func(_ context.Context, o *mcpOptions) error { *flags = o.server; return nil })
		}},
		{"serve", func(f *factory, flags **serverFlags) *cobra.Command {
			return newCmdServe(f, func(_ context.Context, o *serveOptions) error { *flags = o.server; return nil })
		}},
	} {
		for _, set := range []bool{false, true} {
			f, _, _ := cliFactory(t)
			var flags *serverFlags
			cmd := tc.newCmd(f, &flags)
			args := []string{}
			if set {
				args = append(args, "--no-side-effects")
			}
			cmd.SetArgs(args)
			if err := cmd.Execute(); err != nil {
				t.Fatalf("%s %v: %v", tc.name, args, err)
			}
			m := f.newManager(t.TempDir(), *flags, nil)
			if got := m.SideEffectsByDefault(); got == set {
				t.Errorf("%s %v: side effects by default = %v", tc.name, args, got)
			}
		}
	}
}
