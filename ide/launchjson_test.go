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
