package ide

import (
	"path/filepath"
	"reflect"
	"testing"
)

func TestSplitArgs(t *testing.T) {
	t.Parallel()
	cases := map[string][]string{
		``:                    nil,
		`  a  b `:             {"a", "b"},
		`-Dx="a b" c`:         {"-Dx=a b", "c"},
		`"" x`:                {"", "x"},
		`say \"hi\"`:          {"say", `"hi"`},
		"a\tb\nc":             {"a", "b", "c"},
		`"unterminated quote`: {"unterminated quote"},
	}
	for in, want := range cases {
		if got := splitArgs(in); !reflect.DeepEqual(got, want) {
			t.Errorf("splitArgs(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPythonPrefersTheProjectVenv(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	b := []byte(`{"configurations": [{"type": "python", "request": "launch", "name": "p", "program": "a.py"}]}`)
	cfgs, _ := parseLaunchJSON(b, dir, func(string) string { return "" })
	if cfgs[0].Command[0] != "python3" {
		t.Errorf("without a venv: %q", cfgs[0].Command)
	}
	venv := filepath.Join(dir, ".venv", "bin", "python")
	writeFile(t, venv, "")
	cfgs, _ = parseLaunchJSON(b, dir, func(string) string { return "" })
	if cfgs[0].Command[0] != venv || cfgs[0].interpreter != venv {
		t.Errorf("with .venv: %q", cfgs[0].Command)
	}
	// An interpreter named by the configuration wins.
	b = []byte(`{"configurations": [{"type": "python", "request": "launch", "name": "p", "program": "a.py", "python": "/opt/py/bin/python3"}]}`)
	cfgs, _ = parseLaunchJSON(b, dir, func(string) string { return "" })
	if cfgs[0].Command[0] != "/opt/py/bin/python3" {
		t.Errorf("explicit: %q", cfgs[0].Command)
	}
}
