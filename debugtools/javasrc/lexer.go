package javasrc

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokKind classifies a token.
type tokKind uint8

const (
	tokEOF    tokKind = iota
	tokIdent          // identifiers and keywords
	tokString         // string literal or text block; text is the decoded value
	tokChar           // character literal; text is the decoded value
	tokNumber         // numeric literal, as written
	tokOp             // punctuation: one character, or "...", "::", "->"
)

// token is one lexical token. doc is the Javadoc comment that directly
// precedes it, if any.
type token struct {
	kind tokKind
	text string
	line int
	doc  string
}

// lex splits src into tokens, dropping whitespace and comments. It never
// fails: an unterminated literal or comment runs to the end of input, and
// a stray byte becomes a one-character operator.
func lex(src string) []token {
	l := lexer{src: src, line: 1}
	var out []token
	for {
		t := l.next()
		out = append(out, t)
		if t.kind == tokEOF {
			return out
		}
	}
}

type lexer struct {
	src  string
	pos  int
	line int
	doc  string // pending Javadoc
}

func (l *lexer) next() token {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case c == '\n':
			l.line++
			l.pos++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f':
			l.pos++
		case c == '/' && l.peek(1) == '/':
			for l.pos < len(l.src) && l.src[l.pos] != '\n' {
				l.pos++
			}
		case c == '/' && l.peek(1) == '*':
			start := l.pos
			end := strings.Index(l.src[l.pos+2:], "*/")
			if end < 0 {
				l.pos = len(l.src)
			} else {
				l.pos += 2 + end + 2
			}
			text := l.src[start:l.pos]
			l.line += strings.Count(text, "\n")
			if strings.HasPrefix(text, "/**") && text != "/**/" {
				l.doc = text
			}
		default:
			return l.token()
		}
	}
	return token{kind: tokEOF, line: l.line}
}

func (l *lexer) peek(off int) byte {
	if l.pos+off < len(l.src) {
		return l.src[l.pos+off]
	}
	return 0
}

func (l *lexer) token() token {
	t := token{line: l.line, doc: l.doc}
	l.doc = ""
	c := l.src[l.pos]
	switch {
	case c == '"' && l.peek(1) == '"' && l.peek(2) == '"':
		t.kind, t.text = tokString, l.textBlock()
	case c == '"':
		t.kind, t.text = tokString, l.quoted('"')
	case c == '\'':
		t.kind, t.text = tokChar, l.quoted('\'')
	case c >= '0' && c <= '9' || c == '.' && l.peek(1) >= '0' && l.peek(1) <= '9':
		t.kind, t.text = tokNumber, l.number()
	case isIdentStart(l.src, l.pos):
		start := l.pos
		for l.pos < len(l.src) && isIdentPart(l.src, l.pos) {
			_, n := utf8.DecodeRuneInString(l.src[l.pos:])
			l.pos += n
		}
		t.kind, t.text = tokIdent, l.src[start:l.pos]
	default:
		t.kind = tokOp
		switch {
		case strings.HasPrefix(l.src[l.pos:], "..."):
			t.text = "..."
		case strings.HasPrefix(l.src[l.pos:], "::"):
			t.text = "::"
		case strings.HasPrefix(l.src[l.pos:], "->"):
			t.text = "->"
		default:
			_, n := utf8.DecodeRuneInString(l.src[l.pos:])
			t.text = l.src[l.pos : l.pos+n]
		}
		l.pos += len(t.text)
	}
	return t
}

func isIdentStart(s string, i int) bool {
	c := s[i]
	if c < utf8.RuneSelf {
		return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return unicode.IsLetter(r)
}

func isIdentPart(s string, i int) bool {
	c := s[i]
	if c < utf8.RuneSelf {
		return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// quoted reads a string or character literal and returns its decoded
// value. A literal ends at its closing quote or at the end of the line.
func (l *lexer) quoted(q byte) string {
	l.pos++ // opening quote
	var b strings.Builder
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		if c == q {
			l.pos++
			return b.String()
		}
		if c == '\n' {
			return b.String()
		}
		if c == '\\' {
			l.escape(&b)
			continue
		}
		b.WriteByte(c)
		l.pos++
	}
	return b.String()
}

// escape decodes one escape sequence at l.pos (which holds the backslash).
func (l *lexer) escape(b *strings.Builder) {
	l.pos++
	if l.pos >= len(l.src) {
		return
	}
	c := l.src[l.pos]
	l.pos++
	switch c {
	case 'n':
		b.WriteByte('\n')
	case 't':
		b.WriteByte('\t')
	case 'r':
		b.WriteByte('\r')
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 's':
		b.WriteByte(' ')
	case '0', '1', '2', '3', '4', '5', '6', '7':
		v := int(c - '0')
		for k := 0; k < 2 && l.pos < len(l.src) && l.src[l.pos] >= '0' && l.src[l.pos] <= '7' && v*8 < 256; k++ {
			v = v*8 + int(l.src[l.pos]-'0')
			l.pos++
		}
		b.WriteRune(rune(v))
	case 'u':
		for l.pos < len(l.src) && l.src[l.pos] == 'u' {
			l.pos++
		}
		v, n := 0, 0
		for ; n < 4 && l.pos < len(l.src); n++ {
			d := hexVal(l.src[l.pos])
			if d < 0 {
				break
			}
			v = v*16 + d
			l.pos++
		}
		if n == 4 {
			b.WriteRune(rune(v))
		}
	case '\n':
		l.line++ // line continuation in a text block
	default:
		b.WriteByte(c)
	}
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// textBlock reads a """ text block and returns its content with the
// incidental indentation removed, then escapes decoded (JLS 3.10.6).
func (l *lexer) textBlock() string {
	l.pos += 3
	start := l.pos
	end := len(l.src)
	for l.pos < len(l.src) {
		if strings.HasPrefix(l.src[l.pos:], `"""`) {
			end = l.pos
			l.pos += 3
			break
		}
		if l.src[l.pos] == '\\' && l.pos+1 < len(l.src) {
			l.pos++
		}
		l.pos++
	}
	if l.pos > len(l.src) {
		l.pos = len(l.src)
	}
	raw := l.src[start:end]
	l.line += strings.Count(l.src[start:l.pos], "\n")
	return decodeEscapes(stripIndent(raw))
}

// decodeEscapes decodes the escape sequences of s.
func decodeEscapes(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	d := lexer{src: s}
	var b strings.Builder
	for d.pos < len(d.src) {
		if d.src[d.pos] == '\\' {
			d.escape(&b)
			continue
		}
		b.WriteByte(d.src[d.pos])
		d.pos++
	}
	return b.String()
}

// stripIndent removes the first line (the rest of the opening delimiter's
// line) and the common leading whitespace of the remaining lines.
func stripIndent(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	lines := strings.Split(s, "\n")
	common := -1
	for i, ln := range lines {
		if strings.TrimSpace(ln) == "" && i != len(lines)-1 {
			continue
		}
		n := len(ln) - len(strings.TrimLeft(ln, " \t"))
		if common < 0 || n < common {
			common = n
		}
	}
	for i, ln := range lines {
		if len(ln) >= common && common > 0 {
			lines[i] = ln[common:]
		} else {
			lines[i] = strings.TrimLeft(ln, " \t")
		}
	}
	return strings.Join(lines, "\n")
}

func (l *lexer) number() string {
	start := l.pos
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_', c == '.':
			l.pos++
		case (c == '+' || c == '-') && l.pos > start && (l.src[l.pos-1] == 'e' || l.src[l.pos-1] == 'E' || l.src[l.pos-1] == 'p' || l.src[l.pos-1] == 'P') &&
			!strings.HasPrefix(strings.ToLower(l.src[start:l.pos]), "0x") || (c == '+' || c == '-') && l.pos > start && (l.src[l.pos-1] == 'p' || l.src[l.pos-1] == 'P'):
			l.pos++
		default:
			return l.src[start:l.pos]
		}
	}
	return l.src[start:l.pos]
}
