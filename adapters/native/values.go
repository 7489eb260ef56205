package native

import (
	"encoding/json"
	"regexp"
	"strings"

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
	ref := strings.HasSuffix(t, "&") || (rust && strings.HasSuffix(t, "*"))
	if !ref {
		return value
	}
	if m := refValueRE.FindStringSubmatch(value); m != nil {
		return m[1]
	}
	return value
}

// fixValues rewrites the values of a variables answer (derefValue), and
// trims the blank lldb puts before a bare summary.
func (s *lldb) fixValues(m *dap.Message) {
	var body struct {
		Variables []map[string]any `json:"variables"`
	}
	if err := m.DecodeBody(&body); err != nil {
		return
	}
	changed := false
	for _, v := range body.Variables {
		str, _ := v["value"].(string)
		typ, _ := v["type"].(string)
		if fixed := derefValue(str, typ, s.rust); fixed != str {
			v["value"] = fixed
			changed = true
		}
	}
	if changed {
		m.Body, _ = json.Marshal(body)
	}
}

// fixResult is fixValues for an evaluate answer.
func (s *lldb) fixResult(m *dap.Message) {
	var body map[string]any
	if err := m.DecodeBody(&body); err != nil {
		return
	}
	str, _ := body["result"].(string)
	typ, _ := body["type"].(string)
	if fixed := derefValue(str, typ, s.rust); fixed != str {
		body["result"] = fixed
		m.Body, _ = json.Marshal(body)
	}
}
