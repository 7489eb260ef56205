package ide

import (
	"path/filepath"
	"reflect"
	"testing"
)

func TestParseEnvFile(t *testing.T) {
	t.Parallel()
	got := parseEnvFile([]byte("# comment\nA=1\nexport B = two words \nC=\"x\\ny\"\nD='$lit'\nE=v # note\nbad line\n=nokey\n"))
	want := map[string]string{"A": "1", "B": "two words", "C": "x\ny", "D": "$lit", "E": "v"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestLaunchEnvFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, ".env"), "FROM_FILE=1\nBOTH=file\n")
	b := []byte(`{"configurations": [{"type": "node", "request": "launch", "name": "n", "program": "a.js",
	  "envFile": "${workspaceFolder}/.env", "env": {"BOTH": "entry"}}]}`)
	cfgs, err := parseLaunchJSON(b, dir, func(string) string { return "" })
	if err != nil || len(cfgs) != 1 {
		t.Fatalf("%v %v", cfgs, err)
	}
	if want := map[string]string{"FROM_FILE": "1", "BOTH": "entry"}; !reflect.DeepEqual(cfgs[0].Env, want) {
		t.Errorf("env = %v, want %v", cfgs[0].Env, want)
	}
	// A missing envFile is a warning-free no-op, as in VS Code.
	b = []byte(`{"configurations": [{"type": "node", "request": "launch", "name": "n", "program": "a.js", "envFile": "/nonexistent/.env"}]}`)
	if cfgs, err = parseLaunchJSON(b, dir, func(string) string { return "" }); err != nil || cfgs[0].Env != nil {
		t.Errorf("missing envFile: %v %v", cfgs, err)
	}
}

func FuzzParseEnvFile(f *testing.F) {
	f.Add([]byte("A=1\nexport B='x'\nC=\"a\\nb\" # c\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for k := range parseEnvFile(b) {
			if k == "" {
				t.Fatal("empty key")
			}
		}
	})
}
