package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Java checks beyond the conformance table: expressions on collections
// and fields, statics, threads, lambdas, inner and anonymous classes,
// array paging, main classes by name, attach without pause.

// TestMCPJavaInspect evaluates Java expressions on collections, arithmetic
// and fields, and reads collections and objects as locals.
func TestMCPJavaInspect(t *testing.T) {
	t.Parallel()
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

// TestMCPJavaSetString changes a String local and sees the program print
// it (the table changes an int).
func TestMCPJavaSetString(t *testing.T) {
	t.Parallel()
	requireJava(t)
	c := startDbg(t)
	prog := fixture(t, "java/Loop.java")
	line := mcpLine(t, prog, "BP:print")
	id, st := mcpLaunch(t, c, "java", prog, []int{line}, prog, nil)
	if st.num("lastStop.location.line") != line {
		t.Fatalf("first stop %v, want line %d", st, line)
	}
	if sv := c.ok("set_variable", map[string]any{"sessionId": id, "name": "label", "value": `"changed"`}); sv.str("result") != `"changed"` {
		t.Errorf("set_variable label: %v", sv)
	}
	if got := mcpEval(t, c, id, "label"); got != `"changed"` {
		t.Errorf("label after set_variable = %q", got)
	}
	mcpFinish(t, c, id, "changed=5")
}

// TestMCPJavaExceptionModes: breakOnExceptions all stops on the caught
// exception first (the table checks the uncaught one).
func TestMCPJavaExceptionModes(t *testing.T) {
	t.Parallel()
	requireJava(t)
	c := startDbg(t)
	prog := fixture(t, "java/Exceptions.java")
	// breakOnExceptions all stops on the caught one first.
	id, st := mcpLaunch(t, c, "java", prog, nil, prog, map[string]any{"breakOnExceptions": "all"})
	if st.str("lastStop.reason") != "exception" || !strings.Contains(st.str("lastStop.text")+st.str("lastStop.description"), "caught one") {
		t.Fatalf("stop %v, want the caught exception", st)
	}
	if got := mcpEval(t, c, id, "why"); got != `"caught one"` {
		t.Errorf("why = %q at the first exception", got)
	}
	c.ok("set_exception_breakpoints", map[string]any{"sessionId": id, "breakOnExceptions": "none"})
	mcpFinish(t, c, id, "caught: caught one")
}

// TestMCPJavaClassAndClasspath launches a compiled main class of a
// package by name with adapterLaunchConfig.classpath; the sources are
// found under cwd.
func TestMCPJavaClassAndClasspath(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
	requireJava(t)
	for _, by := range []string{"port", "processId"} {
		t.Run(by, func(t *testing.T) { javaAttachBreakpoint(t, by) })
	}
}

func javaAttachBreakpoint(t *testing.T, by string) {
	tg := javaSpinTarget(t)
	src := fixture(t, "java/Spin.java")
	c := startDbg(t)
	id := mcpAttachRunning(t, c, tg.attachArgs("java", by))
	line := mcpLine(t, src, "BP:spin")
	if bp := mcpBreakRunning(t, c, id, src, line); bp.get("verified") != true {
		t.Errorf("breakpoint in the attached JVM: %v", bp)
	}
	mcpTop(t, c, id, src, line)
	if got := mcpEval(t, c, id, "n > 0"); got != "true" {
		t.Errorf("n > 0 = %q", got)
	}
	c.ok("set_variable", map[string]any{"sessionId": id, "name": "n", "value": "1000000019"})
	mcpDetachRuns(t, c, id, tg, "tick 1000000020")
}

// TestMCPJavaArrayPaging reads a 250-element array through get_variables:
// the first answer is capped with a truncation note, start pages on.
func TestMCPJavaArrayPaging(t *testing.T) {
	t.Parallel()
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

// TestMCPJavaThreadsAndLambdas stops in a named thread's lambda, inside an
// inner class, a lambda and an anonymous class, reading each frame.
func TestMCPJavaThreadsAndLambdas(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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

func TestMCPJavaArgsEnvCwd(t *testing.T) {
	t.Parallel()
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

// TestMCPJavaStatics reads and changes a static field through its scope.
func TestMCPJavaStatics(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
	id := mcpAttachCatches(t, c, map[string]any{"language": "java", "port": port, "sourcePaths": []string{dir}}, src, "n % 2")
	mcpDetachRuns(t, c, id, target{cmd: cmd, out: out, marker: "tick"}, "")
}
