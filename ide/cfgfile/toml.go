package cfgfile

import (
	"bytes"
	"fmt"
	"strings"
)

// titem is one logical line of a TOML document.
type titem struct {
	start, end int // src[start:end], including the line break
	kind       byte
	path       []string // a header's table or a key/value's dotted key
	array      bool     // [[header]]
}

const (
	tBlank  byte = 'b' // blank or comment only
	tHeader byte = 'h'
	tKeyVal byte = 'k'
)

type tscanner struct {
	src []byte
	i   int
}

func (s *tscanner) errorf(format string, args ...any) error {
	line := 1 + bytes.Count(s.src[:min(s.i, len(s.src))], []byte("\n"))
	return fmt.Errorf("line %d: %s", line, fmt.Sprintf(format, args...))
}

func (s *tscanner) spaces() {
	for s.i < len(s.src) && (s.src[s.i] == ' ' || s.src[s.i] == '\t') {
		s.i++
	}
}

// lineRest passes optional whitespace and a comment up to and including
// the line break.
func (s *tscanner) lineRest() error {
	s.spaces()
	if s.i < len(s.src) && s.src[s.i] == '#' {
		for s.i < len(s.src) && s.src[s.i] != '\n' {
			s.i++
		}
	}
	if s.i < len(s.src) && s.src[s.i] == '\r' {
		s.i++
	}
	if s.i < len(s.src) {
		if s.src[s.i] != '\n' {
			return s.errorf("unexpected %q", s.src[s.i])
		}
		s.i++
	}
	return nil
}

// scanTOML splits src into logical lines, enough to find tables and keys
// without a full TOML parser.
func scanTOML(src []byte) ([]titem, error) {
	s := &tscanner{src: src}
	if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		s.i = 3
	}
	var items []titem
	for s.i < len(src) {
		it := titem{start: s.i}
		if len(items) == 0 {
			it.start = 0
		}
		s.spaces()
		switch {
		case s.i >= len(src) || src[s.i] == '\n' || src[s.i] == '\r' || src[s.i] == '#':
			it.kind = tBlank
			if err := s.lineRest(); err != nil {
				return nil, err
			}
		case src[s.i] == '[':
			it.kind = tHeader
			s.i++
			if s.i < len(src) && src[s.i] == '[' {
				it.array = true
				s.i++
			}
			path, err := s.key()
			if err != nil {
				return nil, err
			}
			it.path = path
			closing := "]"
			if it.array {
				closing = "]]"
			}
			if !bytes.HasPrefix(src[s.i:], []byte(closing)) {
				return nil, s.errorf("expected %q after the table name", closing)
			}
			s.i += len(closing)
			if err := s.lineRest(); err != nil {
				return nil, err
			}
		default:
			it.kind = tKeyVal
			path, err := s.key()
			if err != nil {
				return nil, err
			}
			it.path = path
			if s.i >= len(src) || src[s.i] != '=' {
				return nil, s.errorf("expected '=' after a key")
			}
			s.i++
			if err := s.value(); err != nil {
				return nil, err
			}
		}
		it.end = s.i
		items = append(items, it)
	}
	return items, nil
}

// key reads a dotted key and the whitespace after it.
func (s *tscanner) key() ([]string, error) {
	var path []string
	for {
		s.spaces()
		if s.i >= len(s.src) {
			return nil, s.errorf("unexpected end of file in a key")
		}
		switch c := s.src[s.i]; {
		case c == '"' || c == '\'':
			start := s.i
			if err := s.str(); err != nil {
				return nil, err
			}
			raw := string(s.src[start+1 : s.i-1])
			if c == '"' {
				raw = tomlUnescape(raw)
			}
			path = append(path, raw)
		default:
			start := s.i
			for s.i < len(s.src) && isBareTOMLKey(string(s.src[s.i])) {
				s.i++
			}
			if s.i == start {
				return nil, s.errorf("unexpected %q in a key", c)
			}
			path = append(path, string(s.src[start:s.i]))
		}
		s.spaces()
		if s.i < len(s.src) && s.src[s.i] == '.' {
			s.i++
			continue
		}
		return path, nil
	}
}

// str passes a one-line string, basic or literal.
func (s *tscanner) str() error {
	q := s.src[s.i]
	for j := s.i + 1; j < len(s.src); j++ {
		switch c := s.src[j]; {
		case c == '\\' && q == '"':
			j++
		case c == q:
			s.i = j + 1
			return nil
		case c == '\n':
			s.i = j
			return s.errorf("unterminated string")
		}
	}
	s.i = len(s.src)
	return s.errorf("unterminated string")
}

// value passes a value through the end of its (last) line: strings,
// multi-line strings, and arrays or inline tables spanning lines.
func (s *tscanner) value() error {
	depth := 0
	for s.i < len(s.src) {
		c := s.src[s.i]
		switch {
		case c == '"' || c == '\'':
			triple := string([]byte{c, c, c})
			if bytes.HasPrefix(s.src[s.i:], []byte(triple)) {
				j := s.i + 3
				for {
					if j >= len(s.src) {
						s.i = j
						return s.errorf("unterminated multi-line string")
					}
					if c == '"' && s.src[j] == '\\' {
						j += 2
						continue
					}
					if bytes.HasPrefix(s.src[j:], []byte(triple)) {
						j += 3
						// Up to two quotes may close the content.
						for k := 0; k < 2 && j < len(s.src) && s.src[j] == c; k++ {
							j++
						}
						break
					}
					j++
				}
				s.i = j
				continue
			}
			if err := s.str(); err != nil {
				return err
			}
		case c == '[' || c == '{':
			depth++
			s.i++
		case c == ']' || c == '}':
			depth--
			if depth < 0 {
				return s.errorf("unbalanced %q", c)
			}
			s.i++
		case c == '#':
			for s.i < len(s.src) && s.src[s.i] != '\n' {
				s.i++
			}
		case c == '\n':
			s.i++
			if depth == 0 {
				return nil
			}
		default:
			s.i++
		}
	}
	if depth != 0 {
		return s.errorf("unterminated array or inline table")
	}
	return nil
}

// tomlUnescape decodes a basic string's escapes; unknown ones stay as
// written.
func tomlUnescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 'b':
			b.WriteByte('\b')
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'f':
			b.WriteByte('\f')
		case 'r':
			b.WriteByte('\r')
		case '"', '\\':
			b.WriteByte(s[i])
		case 'u', 'U':
			n := 4
			if s[i] == 'U' {
				n = 8
			}
			var r rune
			ok := i+n < len(s)
			for k := 1; ok && k <= n; k++ {
				d := strings.IndexByte("0123456789abcdef", s[i+k]|0x20)
				ok = d >= 0
				r = r<<4 | rune(d)
			}
			if !ok {
				b.WriteString(`\` + s[i:i+1])
				continue
			}
			b.WriteRune(r)
			i += n
		default:
			b.WriteString(`\` + s[i:i+1])
		}
	}
	return b.String()
}
