package main

import (
	"path/filepath"
	"testing"
)

// The Java row's own values: expressions on collections and fields,
// statics, array paging, threads, lambdas, inner and anonymous classes,
// and main classes launched by name.

func javaValues() []valueCase {
	return []valueCase{
		{name: "graph", program: "java/Graph.java", marks: []string{"BP:graph"}, stops: []valueStop{{
			mark: "BP:graph",
			locals: map[string]string{"a": "3", "b": "4", "message": `"hello"`,
				"list": `ArrayList size=2 ["a", "b"]`, "map": `HashMap size=1 {"k"=5}`},
			children: map[string]map[string]string{"g": {"name": `"root"`, "boxed": "42"}},
			statics:  map[string]string{"counter": "7"},
			evals: map[string]string{"list.size()": "2", `map.get("k")`: "5", "a + b * 2": "11",
				"g.name": `"root"`, "g.total()": "6"},
			fails: []string{"nosuch"},
			sets:  []valueSet{{in: "statics", name: "counter", value: "counter + 2", want: "9", evals: map[string]string{"counter * 2": "18"}}},
			check: javaArrayPaging,
			step:  &valueStep{lines: 1, evals: map[string]string{"r": "6"}},
		}}, output: "message=hello a=3 r=6"},
		{name: "string", program: "java/Loop.java", marks: []string{"BP:print"}, stops: []valueStop{{
			mark: "BP:print",
			sets: []valueSet{{name: "label", value: `"changed"`, evals: map[string]string{"label": `"changed"`}}},
		}}, output: "changed=5"},
		{name: "threads", program: "java/Threads.java", marks: []string{"BP:worker", "BP:main"}, stops: []valueStop{
			{mark: "BP:worker", thread: "worker-1", locals: map[string]string{"local": "10"}},
			{mark: "BP:main", evals: map[string]string{"shared": "10"}},
		}, output: "shared=10"},
		{name: "inner_classes_and_lambdas", program: "java/Inner.java", marks: []string{"BP:inner", "BP:lambda", "BP:anon"}, stops: []valueStop{
			{mark: "BP:inner", evals: map[string]string{"by": "2"}},
			// c is a local the anonymous class captures.
			{mark: "BP:anon", evals: map[string]string{"this.getClass().getName()": `"Inner$1"`, "c.count": "2"}},
			{mark: "BP:lambda", evals: map[string]string{"x": "21"}},
		}, output: "twice=42"},
		{name: "class_and_classpath", program: "java/demo/app/Helper.java", launch: javaPackageMain, marks: []string{"BP:helper"},
			stops:  []valueStop{{mark: "BP:helper", locals: map[string]string{"name": `"dbg"`}, check: javaPackageCaller}},
			output: "hello, dbg"},
		{name: "default_package_class", program: "java/Loop.java", launch: javaDefaultPackage, marks: []string{"BP:square"},
			stops:  []valueStop{{mark: "BP:square", locals: map[string]string{"x": "0"}}},
			output: "total=5"},
	}
}

// javaArrayPaging reads the 250-element arr through get_variables: the
// first answer is capped with a truncation note, start pages on.
func javaArrayPaging(t *testing.T, c *client, at stopAt) {
	id := at.id
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
}

// javaPackageMain compiles the demo.app package and launches its main
// class by name with adapterLaunchConfig.classpath; the sources are found
// under cwd.
func javaPackageMain(t *testing.T) (string, map[string]any) {
	root := td("java")
	classes := javaClasses(t, filepath.Join(root, "demo", "app", "Main.java"), filepath.Join(root, "demo", "app", "Helper.java"))
	return "demo.app.Main", map[string]any{"cwd": root, "args": []string{"dbg"}, "adapterLaunchConfig": map[string]any{"classpath": classes}}
}

// javaPackageCaller: Helper.greet is called from Main, and step_out
// returns there.
func javaPackageCaller(t *testing.T, c *client, at stopAt) {
	main := td("java/demo/app/Main.java")
	caller := mcpLine(t, main, "BP:pkgmain")
	frames := c.ok("get_stack_trace", map[string]any{"sessionId": at.id}).list("stackFrames")
	if len(frames) < 2 || frames[0].str("file") != at.src || frames[1].str("file") != main || frames[1].num("line") != caller {
		t.Fatalf("stack %v, want Helper.greet called from %s:%d", frames, main, caller)
	}
	out := c.ok("step_out", map[string]any{"sessionId": at.id})
	if out.num("lastStop.location.line") != caller || out.str("lastStop.location.file") != main {
		t.Errorf("step_out: %v, want %s:%d", out, main, caller)
	}
}

// javaDefaultPackage launches Loop, a main class of the default package,
// by name.
func javaDefaultPackage(t *testing.T) (string, map[string]any) {
	src := td("java/Loop.java")
	return "Loop", map[string]any{"cwd": filepath.Dir(src), "adapterLaunchConfig": map[string]any{"classpath": javaClasses(t, src)}}
}
