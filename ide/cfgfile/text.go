package cfgfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// textEdit replaces src[pos:end] with text.
type textEdit struct {
	pos, end int
	text     string
}

// applyTextEdits applies non-overlapping edits; edits at the same position
// apply in the order given.
func applyTextEdits(src []byte, edits []textEdit) []byte {
	slices.SortStableFunc(edits, func(a, b textEdit) int { return a.pos - b.pos })
	var out []byte
	cur := 0
	for _, ed := range edits {
		out = append(out, src[cur:ed.pos]...)
		out = append(out, ed.text...)
		cur = ed.end
	}
	return append(out, src[cur:]...)
}

// newlineStyle is the line break src uses: "\r\n" when its first line
// ends so, else "\n".
func newlineStyle(src []byte) string {
	if i := bytes.IndexByte(src, '\n'); i > 0 && src[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// JSONQuote renders s as a JSON string, without HTML escaping.
func JSONQuote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

func isBareTOMLKey(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

// TOMLKey renders a key: bare when it can be, else a basic string.
func TOMLKey(s string) string {
	if isBareTOMLKey(s) {
		return s
	}
	return TOMLString(s)
}

// TOMLString renders s as a TOML basic string.
func TOMLString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		case r == utf8.RuneError:
			b.WriteString(`\uFFFD`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
