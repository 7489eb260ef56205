package ide

import (
	"errors"
)

// stripJSONC turns JSON with comments (// and /* */) and trailing commas
// into plain JSON. Strings are copied untouched; comments become spaces
// so byte offsets in later errors still point at the right place.
func stripJSONC(in []byte) ([]byte, error) {
	out := make([]byte, 0, len(in))
	// pendingComma is the index in out of a comma that is dropped if the
	// next significant character closes an object or array.
	pendingComma := -1
	for i := 0; i < len(in); i++ {
		c := in[i]
		switch {
		case c == '"':
			pendingComma = -1
			j := i + 1
			for ; j < len(in); j++ {
				if in[j] == '\\' {
					j++
					continue
				}
				if in[j] == '"' {
					break
				}
			}
			if j >= len(in) {
				return nil, errors.New("unterminated string")
			}
			out = append(out, in[i:j+1]...)
			i = j
		case c == '/' && i+1 < len(in) && in[i+1] == '/':
			for i < len(in) && in[i] != '\n' {
				out = append(out, ' ')
				i++
			}
			if i < len(in) {
				out = append(out, '\n')
			}
		case c == '/' && i+1 < len(in) && in[i+1] == '*':
			j := i + 2
			for ; j+1 < len(in) && !(in[j] == '*' && in[j+1] == '/'); j++ {
			}
			if j+1 >= len(in) {
				return nil, errors.New("unterminated comment")
			}
			for k := i; k <= j+1; k++ {
				if in[k] == '\n' {
					out = append(out, '\n')
				} else {
					out = append(out, ' ')
				}
			}
			i = j + 1
		case c == ',':
			pendingComma = len(out)
			out = append(out, c)
		case c == '}' || c == ']':
			if pendingComma >= 0 {
				out[pendingComma] = ' '
				pendingComma = -1
			}
			out = append(out, c)
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			out = append(out, c)
		default:
			pendingComma = -1
			out = append(out, c)
		}
	}
	return out, nil
}
