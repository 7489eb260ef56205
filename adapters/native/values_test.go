package native

import (
	"encoding/json"
	"testing"

	"github.com/dbg-dev/dbg/dap"
)

// A Rust char reads as Rust writes it; a C++ char32_t keeps LLDB's view.
func TestRustCharValue(t *testing.T) {
	for _, c := range []struct {
		value, typ string
		rust       bool
		want       string
	}{
		{"U+0x00000061 U+0x00000061 U'a'", "char32_t", true, "'a'"},
		{"U+0x00000061 U'a'", "char", true, "'a'"},
		{`U+0x0000000a U'\n'`, "char32_t", true, `'\n'`},
		{"U+0x000000e9 U'é'", "char32_t", true, "'é'"},
		{"U+0x00000061 U'a'", "char32_t", false, "U+0x00000061 U'a'"},
		{"97 'a'", "char", false, "97 'a'"},
	} {
		if got := derefValue(c.value, c.typ, c.rust); got != c.want {
			t.Errorf("%q (%s, rust %v) = %q, want %q", c.value, c.typ, c.rust, got, c.want)
		}
	}
}

// Rust frames lose their symbol's hash; other names stay.
func TestRustFrameNames(t *testing.T) {
	body := `{"stackFrames":[{"id":1,"name":"strsim::generic_jaro::h54cafb2e7e5544b7"},{"id":2,"name":"main"},{"id":3,"name":"a::b::hzz"},` +
		`{"id":4,"name":"std::rt::lang_start::_$u7b$$u7b$closure$u7d$$u7d$::h0123456789abcdef"},{"id":5,"name":"_$LT$T$u20$as$u20$x..Y$GT$::f"}]}`
	m := &dap.Message{Type: "response", Command: "stackTrace", Body: json.RawMessage(body)}
	(&lldb{rust: true}).fixFrames(m)
	var got struct{ StackFrames []struct{ Name string } }
	_ = json.Unmarshal(m.Body, &got)
	want := []string{"strsim::generic_jaro", "main", "a::b::hzz", "std::rt::lang_start::{{closure}}", "<T as x::Y>::f"}
	if len(got.StackFrames) != len(want) {
		t.Fatalf("%s", m.Body)
	}
	for i, w := range want {
		if got.StackFrames[i].Name != w {
			t.Errorf("frame %d: %q, want %q", i, got.StackFrames[i].Name, w)
		}
	}
	m = &dap.Message{Type: "response", Command: "stackTrace", Body: json.RawMessage(body)}
	(&lldb{}).fixFrames(m)
	if string(m.Body) != body {
		t.Fatalf("a C++ stack changed: %s", m.Body)
	}
}
