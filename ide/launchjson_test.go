package ide

import (
	"os"
	"reflect"
	"testing"
)

func FuzzParseLaunchJSON(f *testing.F) {
	f.Add([]byte(`{"configurations":[{"type":"node","request":"launch","name":"a","program":"${workspaceFolder}/x.js","args":"a b"}],"compounds":[{"name":"c","configurations":["a",{"name":"b"}]}]}`))
	f.Add([]byte(`{"configurations":[{"type":"go","request":"launch","name":"g","mode":"exec","env":{"A":1}}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = parseLaunchJSON(b, "/p", func(string) string { return "" })
	})
}

func TestLaunchVariables(t *testing.T) {
	t.Parallel()
	home, _ := os.UserHomeDir()
	b := []byte(`{"configurations": [{"type": "python", "request": "launch", "name": "v",
	  "program": "${workspaceFolder}/${workspaceFolderBasename}.py",
	  "args": "--home ${userHome} --x ${env:X} --in ${input:pick}",
	  "cwd": "sub"}]}`)
	cfgs, err := parseLaunchJSON(b, "/p/proj", func(k string) string { return map[string]string{"X": "ex"}[k] })
	if err != nil || len(cfgs) != 1 {
		t.Fatalf("%v %v", cfgs, err)
	}
	c := cfgs[0]
	if c.Program != "/p/proj/proj.py" || c.Cwd != "/p/proj/sub" {
		t.Errorf("program %q cwd %q", c.Program, c.Cwd)
	}
	if want := []string{"--home", home, "--x", "ex", "--in", "${input:pick}"}; !reflect.DeepEqual(c.Args, want) {
		t.Errorf("args %q, want %q", c.Args, want)
	}
}

func TestLaunchRuntimeExecutable(t *testing.T) {
	t.Parallel()
	b := []byte(`{"configurations": [
	  {"type": "node", "request": "launch", "name": "npm", "runtimeExecutable": "npm", "runtimeArgs": ["run", "dev"]},
	  {"type": "go", "request": "launch", "name": "bin", "mode": "exec", "program": "./bin/app", "args": ["-v"]},
	  {"type": "cppdbg", "request": "launch", "name": "c", "program": "a.out"}
	]}`)
	cfgs, err := parseLaunchJSON(b, "/p", func(string) string { return "" })
	if err != nil || len(cfgs) != 3 {
		t.Fatalf("%v %v", cfgs, err)
	}
	if !reflect.DeepEqual(cfgs[0].Command, []string{"npm", "run", "dev"}) {
		t.Errorf("npm = %q", cfgs[0].Command)
	}
	if !reflect.DeepEqual(cfgs[1].Command, []string{"/p/bin/app", "-v"}) {
		t.Errorf("exec = %q", cfgs[1].Command)
	}
	if cfgs[2].Runnable() || cfgs[2].Unsupported == "" || cfgs[2].TypeID != "cppdbg" {
		t.Errorf("cppdbg = %+v", cfgs[2])
	}
}

// A launch.json entry is read as the kind of the adapter that declares
// its type, and debugged in that adapter's language; the kinds' own
// launch types are all declared by an adapter, so the tables cannot drift
// from the declarations.
func TestLaunchTypesComeFromTheDeclarations(t *testing.T) {
	t.Parallel()
	for typ, want := range map[string][2]string{
		"node": {KindNode, "Node.js"}, "pwa-node": {KindNode, "Node.js"}, "node2": {KindNode, "Node.js"},
		"python": {KindPython, "Python"}, "debugpy": {KindPython, "Python"}, "go": {KindGo, "Go"}, "java": {KindApplication, "Java"},
		"cppdbg": {KindOther, "cppdbg"},
	} {
		b := []byte(`{"configurations": [{"type": "` + typ + `", "request": "launch", "name": "x", "program": "a", "mainClass": "A"}]}`)
		cfgs, err := parseLaunchJSON(b, "/p", func(string) string { return "" })
		if err != nil || len(cfgs) != 1 {
			t.Fatalf("%s: %v %v", typ, cfgs, err)
		}
		if got := [2]string{cfgs[0].Kind, cfgs[0].TypeName}; got != want {
			t.Errorf("type %s: kind %q, want %q", typ, got, want)
		}
	}
	for kind, want := range map[string]string{KindNode: "javascript", KindPython: "python", KindGo: "go", KindGoTest: "go",
		KindApplication: "java", KindSpringBoot: "java", KindRemoteJVM: "java", KindNpm: "", KindOther: ""} {
		if got, _ := debugLanguage(RunConfiguration{Kind: kind}); got != want {
			t.Errorf("kind %s debugs as %q, want %q", kind, got, want)
		}
	}
}
