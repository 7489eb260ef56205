package cfgfile

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestStandardize(t *testing.T) {
	in := `{
  // line comment with "quote"
  "a": "x // not a comment", /* block
  comment */ "b": [1, 2, ],
  "c": {"d": "\"/*\"",},
}`
	out, err := Standardize([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		A string
		B []int
		C map[string]string
	}
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if v.A != "x // not a comment" || len(v.B) != 2 || v.C["d"] != `"/*"` {
		t.Errorf("got %+v", v)
	}
	if len(out) != len(in) || strings.Count(string(out), "\n") != strings.Count(in, "\n") {
		t.Errorf("offsets moved: %d vs %d bytes", len(out), len(in))
	}
	for _, bad := range []string{`{"a": "x`, `{ /* x `, `{"a" 1}`, `[1 2]`, `{"a": tru}`, "{\"a\": \"\x01\"}", `{} x`} {
		if _, err := Standardize([]byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	// A byte-order mark is whitespace; a document of comments is empty.
	if out, err := Standardize([]byte("\xef\xbb\xbf{}")); err != nil || string(out) != "   {}" {
		t.Errorf("BOM: %q %v", out, err)
	}
	if out, err := Standardize([]byte("// c\n")); err != nil || strings.TrimSpace(string(out)) != "" {
		t.Errorf("comments only: %q %v", out, err)
	}
}

func TestUnmarshal(t *testing.T) {
	var doc struct {
		Configurations []map[string]any `json:"configurations"`
	}
	src := "{\n  \"configurations\": [\n    {\"name\": \"a\", \"port\": 9229}, // first\n  ],\n}\n"
	if err := Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Configurations) != 1 || doc.Configurations[0]["name"] != "a" || doc.Configurations[0]["port"] != 9229.0 {
		t.Fatalf("decoded %+v", doc)
	}
	if err := Unmarshal([]byte("// nothing\n"), &doc); err == nil {
		t.Fatal("an empty document decoded")
	}
	if err := Unmarshal([]byte(`{"configurations": {}}`), &doc); err == nil {
		t.Fatal("a type mismatch decoded")
	}
}

func TestParseTree(t *testing.T) {
	src := []byte(`{"a": [1, {"b": null}], "a": "again", "c": true}`)
	root, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	if root.Kind != '{' || len(root.Members) != 3 || root.Members[0].Val.Kind != '[' || len(root.Members[0].Val.Elems) != 2 {
		t.Fatalf("tree %+v", root)
	}
	if _, err := root.Member("a"); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Fatalf("duplicate key: %v", err)
	}
	if m, err := root.Member("c"); err != nil || string(src[m.Val.Start:m.Val.End]) != "true" {
		t.Fatalf("member c: %+v %v", m, err)
	}
	if m, _ := root.Member("z"); m != nil {
		t.Fatalf("member z: %+v", m)
	}
	v, err := root.Decode(src)
	if err != nil {
		t.Fatal(err)
	}
	var want any
	_ = json.Unmarshal(src, &want) // encoding/json: the last duplicate wins
	if !reflect.DeepEqual(v, want) {
		t.Fatalf("decoded %v, want %v", v, want)
	}
	if _, err := Parse([]byte(strings.Repeat("[", maxDepth+1))); err == nil || !strings.Contains(err.Error(), "nested") {
		t.Fatalf("deep nesting: %v", err)
	}
	if _, err := Parse([]byte("{\n\n  \"a\" 1}")); err == nil || !strings.HasPrefix(err.Error(), "line 3: ") {
		t.Fatalf("error without its line: %v", err)
	}
}

func FuzzStandardize(f *testing.F) {
	f.Add([]byte(`{"a": [1,], /* c */ "b": "//" // x
}`))
	f.Add([]byte(`"\\`))
	f.Add([]byte("\xef\xbb\xbf[1,\n/*\n*/]"))
	f.Fuzz(func(t *testing.T, b []byte) {
		out, err := Standardize(b)
		if err != nil {
			return
		}
		if len(out) != len(b) {
			t.Fatalf("length changed: %d -> %d", len(b), len(out))
		}
		if json.Valid(b) && !json.Valid(out) {
			t.Fatalf("valid JSON became invalid: %q -> %q", b, out)
		}
		if root, _ := Parse(b); root != nil && !json.Valid(out) {
			t.Fatalf("parsed JSONC standardized to invalid JSON: %q -> %q", b, out)
		}
	})
}
