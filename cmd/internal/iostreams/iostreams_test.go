package iostreams

import (
	"os"
	"testing"
)

func TestJSONOutput(t *testing.T) {
	ios, _, out, errOut := Test()
	if err := ios.PrintRawJSON([]byte(`{"b":1,"a":[true]}`)); err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"a\": [\n    true\n  ],\n  \"b\": 1\n}\n"; out.String() != want {
		t.Fatalf("got %q, want %q", out, want)
	}
	if errOut.Len() != 0 {
		t.Fatalf("status written: %q", errOut)
	}
	if err := ios.PrintRawJSON([]byte(`{bad`)); err == nil {
		t.Fatal("bad JSON printed without error")
	}
	if got := CompactJSON([]byte("{ \"x\" : 1 }")); got != `{"x":1}` {
		t.Fatalf("compact %q", got)
	}
	if got := CompactJSON([]byte("nope")); got != "nope" {
		t.Fatalf("compact of bad JSON %q", got)
	}
}

func TestTerminalChecks(t *testing.T) {
	ios, _, _, _ := Test()
	if ios.IsStdinTTY() || ios.IsStdoutTTY() || ios.IsStderrTTY() {
		t.Fatal("buffers count as terminals")
	}
	f, err := os.CreateTemp(t.TempDir(), "f")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ios.In = f
	if ios.IsStdinTTY() {
		t.Fatal("a regular file counts as a terminal")
	}
}
