package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Values a person reads, checked one by one on each LLDB the machine
// has (DBG_LLDB picks it): Rust's String, &str, Vec, HashMap, Option,
// Result, Box, Rc, Arc, enums with data and references; libstdc++'s
// string, vector, map, unordered_map, set, shared_ptr, unique_ptr,
// optional, variant, pointers and references; C's char * and int *.
// The fixtures are testdata/{rust/values,cpp/values.cpp,c/values.c}.

// lldbVersions are the LLDB versions the native value tests run on.
var lldbVersions = []string{"16", "14"}

// lldbInstalled reports whether LLDB major's DAP adapter is in PATH.
func lldbInstalled(major string) bool {
	for _, name := range []string{"lldb-dap-" + major, "lldb-vscode-" + major} {
		if _, err := exec.LookPath(name); err == nil {
			return true
		}
	}
	return false
}

// eachLLDB runs check in a dbg server for each LLDB version, at the stop
// on mark, then runs the program to its end, which prints output. A
// version that is not installed must be refused at start with the
// version named.
func eachLLDB(t *testing.T, lang, program, src, mark, output string, check func(t *testing.T, c *client, id string, l map[string]obj)) {
	for _, v := range lldbVersions {
		t.Run("lldb-"+v, func(t *testing.T) {
			c := startDbg(t, "DBG_LLDB="+v)
			id := c.ok("create_debug_session", map[string]any{"language": lang, "name": "values-" + lang}).str("sessionId")
			line := mcpLine(t, src, mark)
			c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": line})
			if !lldbInstalled(v) {
				r := c.call("start_debugging", map[string]any{"sessionId": id, "scriptPath": program})
				if r.Success || !strings.Contains(r.Error.Message, "LLDB "+v) {
					t.Fatalf("LLDB %s is not installed, yet start answered %+v", v, r)
				}
				return
			}
			st := mcpPaused(t, c, id, c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": program}))
			if st.num("lastStop.location.line") != line {
				t.Fatalf("stop %v, want line %d", st, line)
			}
			check(t, c, id, mcpLocals(t, c, id))
			mcpFinish(t, c, id, output)
		})
	}
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
	v := got.str("value")
	if re, isRE := strings.CutPrefix(want, "~"); isRE {
		if !regexp.MustCompile(re).MatchString(v) {
			t.Errorf("%s = %q, want it to match %s", name, v, re)
		}
		return
	}
	if v != want {
		t.Errorf("%s = %q, want %q", name, v, want)
	}
}

// wantChildren checks some children of a local by name.
func wantChildren(t *testing.T, c *client, id string, l map[string]obj, name string, want map[string]string) {
	t.Helper()
	v, ok := l[name]
	if !ok || v.num("variablesReference") == 0 {
		t.Errorf("%s has no children: %v", name, v)
		return
	}
	kids := mcpChildren(t, c, id, v)
	for k, w := range want {
		if re, isRE := strings.CutPrefix(w, "~"); isRE {
			if !regexp.MustCompile(re).MatchString(kids[k]) {
				t.Errorf("%s.%s = %q, want it to match %s (children %v)", name, k, kids[k], re, kids)
			}
		} else if kids[k] != w {
			t.Errorf("%s.%s = %q, want %q (children %v)", name, k, kids[k], w, kids)
		}
	}
}

func TestMCPNativeRustValueKinds(t *testing.T) {
	t.Parallel()
	requireCargo(t)
	dir := fixture(t, "rust/values")
	src := filepath.Join(dir, "src", "main.rs")
	eachLLDB(t, "rust", dir, src, "); // BREAK: values", "done values", func(t *testing.T, c *client, id string, l map[string]obj) {
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
		for expr, want := range map[string]string{"some": "Some(5)", "pref": "{x: 3, y: 4}", "greeting": `"hi there"`, "letter": "'a'"} {
			if got := mcpEval(t, c, id, expr); got != want {
				t.Errorf("evaluate %s = %q, want %q", expr, got, want)
			}
		}
		// `for w in &words`: w is a &&str and reads as the word.
		c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": mcpLine(t, src, "BREAK: word")})
		st := mcpPaused(t, c, id, c.ok("continue_execution", map[string]any{"sessionId": id}))
		if st.num("lastStop.location.line") != mcpLine(t, src, "BREAK: word") {
			t.Fatalf("stop %v, want the loop of show", st)
		}
		wantValue(t, mcpLocals(t, c, id), "w", `"alpha"`)
		// Functions read as written, without the hash of their symbol.
		if f := st.str("lastStop.location.function"); f != "dbgvalues::show" {
			t.Errorf("stopped in %q, want dbgvalues::show", f)
		}
		frames := c.ok("get_stack_trace", map[string]any{"sessionId": id}).list("stackFrames")
		if len(frames) < 2 || frames[0].str("name") != "dbgvalues::show" || frames[1].str("name") != "dbgvalues::main" {
			t.Errorf("frames %v, want dbgvalues::show called from dbgvalues::main", frames)
		}
	})
}

func TestMCPNativeCPPValueKinds(t *testing.T) {
	t.Parallel()
	requireLLDB(t)
	src := fixture(t, "cpp/values.cpp")
	eachLLDB(t, "cpp", src, src, "); // BREAK: values", "done values", func(t *testing.T, c *client, id string, l map[string]obj) {
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
		// A const std::string & and a const P * in a callee.
		c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": mcpLine(t, src, "BREAK: refs")})
		mcpPaused(t, c, id, c.ok("continue_execution", map[string]any{"sessionId": id}))
		in := mcpLocals(t, c, id)
		wantValue(t, in, "ref", `"hello"`)
		wantValue(t, in, "pp", "~^0x[0-9a-f]+ -> {x: 1, y: 2}$")
	})
}

func TestMCPNativeCValueKinds(t *testing.T) {
	t.Parallel()
	requireLLDB(t)
	src := fixture(t, "c/values.c")
	// dbg may put LLDB's Python on the adapter's PYTHONPATH; the program
	// still gets its own.
	env := os.Getenv("PYTHONPATH")
	if env == "" {
		env = "(unset)"
	}
	eachLLDB(t, "c", src, src, "/* BREAK: values */", "env PYTHONPATH="+env+"\ndone values", func(t *testing.T, c *client, id string, l map[string]obj) {
		wantValue(t, l, "msg", `~^0x[0-9a-f]+ "hello"$`)
		wantValue(t, l, "text", `~^0x[0-9a-f]+ "stack text"$`)
		wantValue(t, l, "buf", `"stack text"`)
		wantValue(t, l, "ip", "~^0x[0-9a-f]+ -> 5$")
		wantValue(t, l, "null", "0x0000000000000000")
		wantValue(t, l, "pt", "{x: 3, y: 4}")
		if got := mcpEval(t, c, id, "pt"); got != "{x: 3, y: 4}" {
			t.Errorf("evaluate pt = %q, want {x: 3, y: 4}", got)
		}
		wantValue(t, l, "pp", "~^0x[0-9a-f]+ -> {x: 3, y: 4}$")
		wantChildren(t, c, id, l, "pp", map[string]string{"x": "3", "y": "4"})
		if got := mcpEval(t, c, id, "*ip + 1"); got != "6" {
			t.Errorf("*ip + 1 = %q, want 6", got)
		}
	})
}
