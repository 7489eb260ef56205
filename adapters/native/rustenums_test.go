package native

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// valuesBinary builds the Rust values fixture and returns its binary.
func valuesBinary(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("cargo"); err != nil {
		t.Skip("cargo is not installed (the CI image ships rustup)")
	}
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "testdata", "rust", "values")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "cargo", "build", "-q")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("cargo build: %v\n%s", err, out)
	}
	return filepath.Join(dir, "target", "debug", "dbgvalues")
}

func TestRustEnumsLayouts(t *testing.T) {
	table, err := RustEnums(valuesBinary(t))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"core::option::Option<i32>": `{"discr":{"offset":0,"size":4},"variants":[{"name":"None","value":0,"fields":[]},` +
			`{"name":"Some","value":1,"fields":[{"name":"__0","offset":4,"type":{"name":"i32","base":"int","size":4}}]}]}`,
		// A niche layout: Ok is the one niche value of the String's
		// capacity, Err the dataful default.
		"core::result::Result<i32, alloc::string::String>": `{"discr":{"offset":0,"size":8},"variants":[` +
			`{"name":"Ok","value":9223372036854775808,"fields":[{"name":"__0","offset":8,"type":{"name":"i32","base":"int","size":4}}]},` +
			`{"name":"Err","fields":[{"name":"__0","offset":0,"type":{"name":"alloc::string::String","size":24}}]}]}`,
		"dbgvalues::Shape": `{"discr":{"offset":0,"size":4},"variants":[{"name":"Empty","value":0,"fields":[]},` +
			`{"name":"Circle","value":1,"fields":[{"name":"__0","offset":4,"type":{"name":"i32","base":"int","size":4}}]},` +
			`{"name":"Rect","value":2,"fields":[{"name":"w","offset":4,"type":{"name":"i32","base":"int","size":4}},` +
			`{"name":"h","offset":8,"type":{"name":"i32","base":"int","size":4}}]}]}`,
	} {
		got, _ := json.Marshal(table.Enums[name])
		if string(got) != want {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
	// LLDB 14 names every Option core::option::Option<>: the locals are
	// found by their declaration, and the short name of a size shared by
	// several Options names none.
	if got := table.Decl["main.rs:37:some"]; got != "core::option::Option<i32>" {
		t.Errorf("declaration of some → %q", got)
	}
	if got, ok := table.Alias["core::option::Option<>#8"]; !ok || got != "" {
		t.Errorf("Option<>#8 → %q (present %v), want ambiguous", got, ok)
	}
}

func TestShortName(t *testing.T) {
	for in, want := range map[string]string{
		"core::option::Option<i32>":                         "core::option::Option<>",
		"core::result::Result<alloc::vec::Vec<u8>, String>": "core::result::Result<>",
		"dbgvalues::Shape":                                  "dbgvalues::Shape",
	} {
		if got := shortName(in); got != want {
			t.Errorf("shortName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDerefValue(t *testing.T) {
	for _, c := range []struct {
		value, typ string
		rust       bool
		want       string
	}{
		{`0x00007ffc "alpha"`, "&str *", true, `"alpha"`},
		{"0x00007ffc 42", "int *", true, "42"},
		{"0x0000000000000000", "int *", true, "0x0000000000000000"},
		{"0x00007ffc -> 8", "int *", false, "0x00007ffc -> 8"},
		{`0x00007ffc "hello"`, "const std::string &", false, `"hello"`},
		{"0x00007ffc 8", "int &", false, "8"},
		{"0x00007ffc", "int &", false, "0x00007ffc"},
		{` "hello"`, "alloc::string::String", true, `"hello"`},
	} {
		if got := derefValue(c.value, c.typ, c.rust); got != c.want {
			t.Errorf("derefValue(%q, %q, %v) = %q, want %q", c.value, c.typ, c.rust, got, c.want)
		}
	}
}
