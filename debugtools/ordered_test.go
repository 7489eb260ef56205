package debugtools

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestOrderedObjectKeepsOrder(t *testing.T) {
	t.Parallel()
	in := `{"z":{"type":"simple","content":"1"}, "a":2, "m":[1,2], "a":3}`
	o, err := ParseOrderedObject(in)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(o.Keys(), ","); got != "z,a,m" {
		t.Fatalf("keys %s", got)
	}
	b, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"z":{"type":"simple","content":"1"},"a":3,"m":[1,2]}` {
		t.Fatalf("marshal %s", b)
	}
}

func TestOrderedObjectEmptyAndErrors(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "  ", "{}", "null"} {
		o, err := ParseOrderedObject(s)
		if err != nil || o.Len() != 0 {
			t.Fatalf("%q: %v", s, err)
		}
	}
	for _, s := range []string{"[]", "{", `{"a":}`, `{"a":1} x`, `1`} {
		if _, err := ParseOrderedObject(s); err == nil {
			t.Fatalf("%q accepted", s)
		}
	}
	var z OrderedObject
	if b, _ := json.Marshal(z); string(b) != "{}" {
		t.Fatalf("zero %s", b)
	}
}

func FuzzOrderedObject(f *testing.F) {
	f.Add(`{"b":1,"a":{"x":[1,"2"]}}`)
	f.Add(`{}`)
	f.Add(`{"a":1,"a":2}`)
	f.Fuzz(func(t *testing.T, s string) {
		o, err := ParseOrderedObject(s)
		if err != nil {
			return
		}
		b, err := json.Marshal(o)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		o2, err := ParseOrderedObject(string(b))
		if err != nil {
			t.Fatalf("reparse %s: %v", b, err)
		}
		if strings.Join(o.Keys(), "\x00") != strings.Join(o2.Keys(), "\x00") {
			t.Fatal("order changed")
		}
	})
}
