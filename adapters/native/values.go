package native

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"time"

	"github.com/dbg-dev/dbg/dap"
)

// refValueRE splits what lldb shows for a pointer with a summary: the
// address, then the summary dbg's formatters give it (what it points to).
var refValueRE = regexp.MustCompile(`^0x[0-9a-fA-F]+ (.+)$`)

// derefValue is the value a person reads for a variable of type typ whose
// lldb value is value: for a reference (C++ `T &`, and in Rust every
// pointer, which is how LLDB shows `&T`) the value it refers to, without
// the address in front; anything else as lldb shows it. A reference
// whose target has no summary keeps its address.
func derefValue(value, typ string, rust bool) string {
	value = strings.TrimLeft(value, " ")
	t := strings.TrimSpace(typ)
	if rust && (t == "char" || t == "char32_t") {
		// LLDB reads a Rust char as a UTF-32 code unit, its number then
		// its letter ("U+0x00000061 U'a'"), the number twice with its
		// summary: Rust writes 'a'.
		if m := rustCharRE.FindStringSubmatch(value); m != nil {
			return "'" + m[1] + "'"
		}
	}
	ref := strings.HasSuffix(t, "&") || (rust && strings.HasSuffix(t, "*"))
	if !ref {
		return value
	}
	if m := refValueRE.FindStringSubmatch(value); m != nil {
		return m[1]
	}
	return value
}

// rustCharRE is LLDB's value of a Rust char: its code point, once or
// twice, then the character as a C++ char32_t literal.
var rustCharRE = regexp.MustCompile(`^(?:U\+0x[0-9a-fA-F]+ )+U'(.*)'$`)

// rustHashRE is the hash rustc's legacy mangling puts at the end of a
// symbol, which LLDB keeps in a function's name.
var rustHashRE = regexp.MustCompile(`::h[0-9a-f]{16}$`)

// fixFrames gives a Rust stack's functions the names the program writes,
// without their symbol's hash (strsim::generic_jaro, not
// strsim::generic_jaro::h54cafb2e7e5544b7).
func (s *lldb) fixFrames(m *dap.Message) dap.Verdict {
	if !s.rust {
		return dap.Pass
	}
	var body map[string]any
	if m.DecodeBody(&body) != nil {
		return dap.Pass
	}
	frames, _ := body["stackFrames"].([]any)
	changed := false
	for _, f := range frames {
		fr, _ := f.(map[string]any)
		if name, _ := fr["name"].(string); name != "" {
			if clean := rustName(name); clean != name {
				fr["name"] = clean
				changed = true
			}
		}
	}
	if changed {
		m.Body, _ = json.Marshal(body)
	}
	return dap.Pass
}

// rustEscapes are the escapes of rustc's legacy mangling that LLDB
// leaves in a name (std::rt::lang_start::_$u7b$$u7b$closure$u7d$$u7d$).
var rustEscapes = strings.NewReplacer("$SP$", "@", "$BP$", "*", "$RF$", "&", "$LT$", "<", "$GT$", ">",
	"$LP$", "(", "$RP$", ")", "$C$", ",", "$u20$", " ", "$u22$", "\"", "$u27$", "'", "$u2b$", "+",
	"$u3b$", ";", "$u5b$", "[", "$u5d$", "]", "$u7b$", "{", "$u7d$", "}", "$u7e$", "~")

// rustName is a Rust function's name as the program writes it: without
// its symbol's hash, and with the escapes of legacy mangling read.
func rustName(name string) string {
	name = rustHashRE.ReplaceAllString(name, "")
	if !strings.Contains(name, "$") {
		return name
	}
	parts := strings.Split(name, "::")
	for i, p := range parts {
		if strings.HasPrefix(p, "_$") {
			p = p[1:] // a path part that would start with $ starts with _$
		}
		parts[i] = strings.ReplaceAll(rustEscapes.Replace(p), "..", "::") // a path inside a generic
	}
	return strings.Join(parts, "::")
}

// bareRE is lldb-dap's value of an aggregate that has no summary (a
// struct, an array): its type and address. The layer shows its first
// children instead, as {x: 3, y: 4}.
var bareRE = regexp.MustCompile(`^(.+) @ 0x[0-9a-fA-F]+$`)

// Previews: the children a preview shows, and how many values of one
// answer get one (the others keep lldb's type and address).
const (
	previewItems   = 5
	previewsPerAns = 32
	previewTimeout = 5 * time.Second
)

// bare reports whether a value is lldb's type-and-address of its type.
func bare(value, typ string) bool {
	if !strings.Contains(value, " @ 0x") {
		return false // what bareRE needs, found without it
	}
	m := bareRE.FindStringSubmatch(value)
	return m != nil && strings.TrimSpace(m[1]) == strings.TrimSpace(typ)
}

// fixValues rewrites the values of a variables answer (derefValue), and
// trims the blank lldb puts before a bare summary. Aggregates without a
// summary get a preview of their children: the answer is then held
// until the layer has read them.
func (s *lldb) fixValues(r *dap.Request, m *dap.Message) dap.Verdict {
	if s.valuesAsShown(m) {
		return dap.Pass
	}
	var body struct {
		Variables []map[string]any `json:"variables"`
	}
	if err := m.DecodeBody(&body); err != nil {
		return dap.Pass
	}
	var todo []map[string]any
	changed := false
	for _, v := range body.Variables {
		str, _ := v["value"].(string)
		typ, _ := v["type"].(string)
		if fixed := derefValue(str, typ, s.rust); fixed != str {
			v["value"] = fixed
			str = fixed
			changed = true
		}
		if ref, _ := v["variablesReference"].(float64); ref > 0 && bare(str, typ) && len(todo) < previewsPerAns {
			todo = append(todo, v)
		}
	}
	if changed {
		m.Body, _ = json.Marshal(body)
	}
	if len(todo) == 0 {
		return dap.Pass
	}
	s.link.Go(func() {
		ctx, cancel := context.WithTimeout(s.link.Context(), previewTimeout)
		defer cancel()
		for _, v := range todo {
			ref, _ := v["variablesReference"].(float64)
			if p := s.preview(ctx, int(ref)); p != "" {
				v["value"] = p
			}
		}
		m.Body, _ = json.Marshal(body)
		r.Reply(m)
	})
	return dap.Hold
}

// valuesAsShown reports whether a variables answer needs none of
// fixValues' changes, read without decoding each variable into a map
// (which only an answer to change needs). An answer it cannot read so
// is not vouched for.
func (s *lldb) valuesAsShown(m *dap.Message) bool {
	var body struct {
		Variables []struct {
			Value string  `json:"value"`
			Type  string  `json:"type"`
			Ref   float64 `json:"variablesReference"`
		} `json:"variables"`
	}
	if m.DecodeBody(&body) != nil {
		return false
	}
	for _, v := range body.Variables {
		if derefValue(v.Value, v.Type, s.rust) != v.Value || v.Ref > 0 && bare(v.Value, v.Type) {
			return false
		}
	}
	return true
}

// preview reads the first children of variablesReference ref and shows
// them as {name: value, ...} ({1, 2, ...} for elements), or "" when they
// cannot be read.
func (s *lldb) preview(ctx context.Context, ref int) string {
	resp, err := s.link.Call(ctx, "variables", map[string]any{"variablesReference": ref, "start": 0, "count": previewItems + 1})
	if err != nil {
		return ""
	}
	var body struct {
		Variables []struct {
			Name  string `json:"name"`
			Value string `json:"value"`
			Type  string `json:"type"`
		} `json:"variables"`
	}
	if resp.DecodeBody(&body) != nil || len(body.Variables) == 0 {
		return ""
	}
	var parts []string
	for i, c := range body.Variables {
		if i == previewItems {
			parts = append(parts, "...")
			break
		}
		val := derefValue(c.Value, c.Type, s.rust)
		if bare(val, c.Type) {
			val = "{...}"
		}
		if strings.HasPrefix(c.Name, "[") {
			parts = append(parts, val)
		} else {
			parts = append(parts, c.Name+": "+val)
		}
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// fixResult is fixValues for an evaluate answer.
func (s *lldb) fixResult(r *dap.Request, m *dap.Message) dap.Verdict {
	var body map[string]any
	if err := m.DecodeBody(&body); err != nil {
		return dap.Pass
	}
	str, _ := body["result"].(string)
	typ, _ := body["type"].(string)
	if fixed := derefValue(str, typ, s.rust); fixed != str {
		body["result"] = fixed
		str = fixed
	}
	m.Body, _ = json.Marshal(body)
	ref, _ := body["variablesReference"].(float64)
	if ref <= 0 || !bare(str, typ) {
		return dap.Pass
	}
	s.link.Go(func() {
		ctx, cancel := context.WithTimeout(s.link.Context(), previewTimeout)
		defer cancel()
		if p := s.preview(ctx, int(ref)); p != "" {
			body["result"] = p
			m.Body, _ = json.Marshal(body)
		}
		r.Reply(m)
	})
	return dap.Hold
}
