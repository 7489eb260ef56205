package ide

import (
	"encoding/json"
	"testing"
)

func TestStripJSONC(t *testing.T) {
	in := `{
  // line comment with "quote"
  "a": "x // not a comment", /* block
  comment */ "b": [1, 2, ],
  "c": {"d": "\"/*\"",},
}`
	out, err := stripJSONC([]byte(in))
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
	if len(out) != len(in) {
		t.Errorf("offsets moved: %d vs %d", len(out), len(in))
	}
	for _, bad := range []string{`{"a": "x`, `{ /* x `} {
		if _, err := stripJSONC([]byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func FuzzStripJSONC(f *testing.F) {
	f.Add([]byte(`{"a": [1,], /* c */ "b": "//" // x
}`))
	f.Add([]byte(`"\\`))
	f.Fuzz(func(t *testing.T, b []byte) {
		out, err := stripJSONC(b)
		if err == nil && len(out) != len(b) {
			t.Fatalf("length changed: %d -> %d", len(b), len(out))
		}
		if err == nil && json.Valid(b) && !json.Valid(out) {
			t.Fatalf("valid JSON became invalid: %q -> %q", b, out)
		}
	})
}
