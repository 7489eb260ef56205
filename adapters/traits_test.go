package adapters

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestTraitsNamesTarget(t *testing.T) {
	t.Parallel()
	cases := []struct {
		a    Adapter
		cfg  map[string]any
		want bool
	}{
		{Go{}, nil, false},
		{Go{}, map[string]any{"processId": 12}, true},
		{Python{}, map[string]any{"port": 5678}, true},
		{Python{}, map[string]any{"port": ""}, false},
		{Python{}, map[string]any{"processId": nil}, false},
		{Python{}, map[string]any{"justMyCode": true}, false},
		{Node{}, map[string]any{"websocketAddress": "ws://127.0.0.1:9229/x"}, true},
		{Python{}, map[string]any{"websocketAddress": "ws://127.0.0.1:9229/x"}, false},
		{NewDart(), map[string]any{"vmServiceUri": "ws://127.0.0.1:8181/ws"}, true},
		{NewDart(), map[string]any{"vmServiceInfoFile": "/tmp/vm.json"}, true},
		{NewDart(), map[string]any{"deviceId": "linux"}, true},
		{NewC(), map[string]any{"vmServiceUri": "ws://127.0.0.1:8181/ws"}, false},
	}
	for _, c := range cases {
		if got := NamesTarget(c.a, c.cfg); got != c.want {
			t.Errorf("NamesTarget(%s, %v) = %v, want %v", c.a.Language(), c.cfg, got, c.want)
		}
	}
}

func TestTraitsIsPath(t *testing.T) {
	t.Parallel()
	cases := []struct {
		a       Adapter
		program string
		want    bool
	}{
		{Java{}, "com.example.Main", false},
		{Java{}, "Main", false},
		{Java{}, "Outer$Inner", false},
		{Java{}, "Main.java", true},
		{Java{}, "app.jar", true},
		{Java{}, "src/Main", true},
		{Java{}, "com.example.main", true},
		{Java{}, "com..Main", true},
		{Java{}, "com.1x.Main", true},
		{Python{}, "-m http.server", false},
		{Python{}, "app.py", true},
		{Python{}, "Main", true}, // a class name only for Java
		{Go{}, "-m pkg", true},   // a module only for Python
		{Go{}, ".", true},
	}
	for _, c := range cases {
		if got := IsPath(c.a, c.program); got != c.want {
			t.Errorf("IsPath(%s, %q) = %v, want %v", c.a.Language(), c.program, got, c.want)
		}
	}
}

// A program's language is told by its extension, or for a directory by
// the project file it holds.
func TestRegistryForFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	goDir, rustDir := filepath.Join(dir, "g"), filepath.Join(dir, "r")
	for d, f := range map[string]string{goDir: "go.mod", rustDir: "Cargo.toml"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	reg := Default()
	for p, want := range map[string]string{"a.go": "go", "A.PY": "python", "x.ts": "javascript", "x.mjs": "javascript", "x.jar": "java",
		"x.cpp": "cpp", "x.cc": "cpp", "x.rb": "ruby", "x.cbl": "cobol", "x.cob": "cobol", "x.mock": "mock", "x.c": "c", "x.rs": "rust",
		"x.txt": "", "Makefile": "", goDir: "go", rustDir: "rust", dir: ""} {
		got := ""
		if a, ok := reg.ForFile(p); ok {
			got = a.Language()
		}
		if got != want {
			t.Errorf("%s: %q, want %q", p, got, want)
		}
	}
}

// The launch.json types, the built-in servers and the per-language
// abilities are found by what the adapters declare.
func TestRegistryDeclarations(t *testing.T) {
	t.Parallel()
	reg := Default()
	for typ, want := range map[string]string{"debugpy": "python", "python": "python", "pwa-node": "javascript", "node": "javascript",
		"node2": "javascript", "go": "go", "java": "java", "cppdbg": "", "": ""} {
		got := ""
		if a, ok := reg.ForLaunchType(typ); ok {
			got = a.Language()
		}
		if got != want {
			t.Errorf("launch type %q: %q, want %q", typ, got, want)
		}
	}
	if got := strings.Join(reg.Builtins(), ","); got != "mock,java,node" {
		t.Errorf("built-ins %s", got)
	}
	if _, ok := reg.Builtin("cobol"); ok {
		t.Error("cobol is built in")
	}
	var native, held, probes []string
	for _, a := range reg.All() {
		tr := a.Traits()
		if tr.Native {
			native = append(native, a.Language())
		}
		if tr.HeldLogpoints {
			held = append(held, a.Language())
		}
		if tr.ProbeCondition != nil {
			probes = append(probes, a.Language())
		}
	}
	for what, got := range map[string][]string{"native": native, "held logpoints": held, "probe conditions": probes} {
		want := map[string]string{"native": "c,cpp,rust,cobol", "held logpoints": "go,java,javascript", "probe conditions": "python"}[what]
		if strings.Join(got, ",") != want {
			t.Errorf("%s: %v, want %s", what, got, want)
		}
	}
}

// Python's probe condition, run by a real interpreter, writes one record
// with each value's repr (or the error reading it raised), and is false;
// its guard keeps it from recording.
func TestPythonProbeCondition(t *testing.T) {
	t.Parallel()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Fatal(err)
	}
	cond := pythonProbeCondition("t1.2", []string{"i", "nosuch", "s"}, " i > 1 ")
	script := "import sys\ni, s = 2, 'x'\nr = eval(sys.argv[1])\nprint(r)\ni = 0\nprint(eval(sys.argv[1]))\n"
	out, err := exec.Command(py, "-c", script, cond).CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	want := ProbeMarker + "t1.2" + ProbeSep + "2" + ProbeSep + ProbeError + "NameError: name 'nosuch' is not defined" + ProbeSep + "'x'\nFalse\nFalse\n"
	if string(out) != want {
		t.Errorf("output %q, want %q", out, want)
	}
}
