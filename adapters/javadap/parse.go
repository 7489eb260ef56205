package javadap

import (
	"fmt"
	"strconv"
	"strings"
)

// The expression language of evaluate, conditions and log messages: a
// small subset of Java expressions.
//
//	expr    = or [ "?" expr ":" expr ]
//	or      = and { "||" and }          and = eq { "&&" eq }
//	eq      = rel { ("=="|"!=") rel }   rel = add { ("<"|"<="|">"|">=") add }
//	add     = mul { ("+"|"-") mul }     mul = unary { ("*"|"/"|"%") unary }
//	unary   = ("-"|"!") unary | "(" type ")" unary | postfix
//	postfix = primary { "." name [ "(" args ")" ] | "[" expr "]" }
//	primary = literal | name [ "(" args ")" ] | "(" expr ")"
//
// Names resolve to locals, then this, fields of this, static fields of the
// frame's class, and loaded classes (simple names also in java.lang and
// java.util). Method calls run on the stopped thread through JDWP
// InvokeMethod. Boxed values unbox for arithmetic; "+" with a string
// concatenates; unlike Java, "==" between two strings compares contents.

type expr interface{ String() string }

type litExpr struct {
	v   Value
	str string
	isS bool // a string literal (created in the VM when used)
}
type nameExpr struct{ name string }
type fieldExpr struct {
	x    expr
	name string
}
type callExpr struct {
	x    expr // nil: a method of this or of the frame's class
	name string
	args []expr
}
type indexExpr struct{ x, i expr }
type unaryExpr struct {
	op string
	x  expr
}
type condExpr struct{ c, x, y expr }
type castExpr struct {
	typ string // "int", "java.lang.String", ...
	x   expr
}

func (e *condExpr) String() string {
	return "(" + e.c.String() + " ? " + e.x.String() + " : " + e.y.String() + ")"
}
func (e *castExpr) String() string { return "((" + e.typ + ") " + e.x.String() + ")" }

type binaryExpr struct {
	op   string
	x, y expr
}

func (e *litExpr) String() string {
	if e.isS {
		return strconv.Quote(e.str)
	}
	if e.v.IsObject() {
		return "null"
	}
	return primitiveString(e.v)
}
func (e *nameExpr) String() string  { return e.name }
func (e *fieldExpr) String() string { return e.x.String() + "." + e.name }
func (e *callExpr) String() string {
	var a []string
	for _, x := range e.args {
		a = append(a, x.String())
	}
	s := e.name + "(" + strings.Join(a, ", ") + ")"
	if e.x != nil {
		s = e.x.String() + "." + s
	}
	return s
}
func (e *indexExpr) String() string { return e.x.String() + "[" + e.i.String() + "]" }
func (e *unaryExpr) String() string { return e.op + e.x.String() }
func (e *binaryExpr) String() string {
	return "(" + e.x.String() + " " + e.op + " " + e.y.String() + ")"
}

type token struct {
	kind string // "num", "str", "char", "id", "op", "eof"
	text string
	pos  int
}

func tokenize(src string) ([]token, error) {
	var out []token
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c >= '0' && c <= '9' || (c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9'):
			j := i
			for j < len(src) && (isIdentByte(src[j]) || src[j] == '.' ||
				((src[j] == '+' || src[j] == '-') && j > i && (src[j-1] == 'e' || src[j-1] == 'E') && !strings.HasPrefix(src[i:], "0x"))) {
				j++
			}
			out = append(out, token{"num", src[i:j], i})
			i = j
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(src) && src[j] != c {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(src) {
				return nil, fmt.Errorf("unterminated literal at column %d", i+1)
			}
			kind := "str"
			if c == '\'' {
				kind = "char"
			}
			out = append(out, token{kind, src[i : j+1], i})
			i = j + 1
		case isIdentByte(c) || c >= 0x80:
			j := i
			for j < len(src) && (isIdentByte(src[j]) || src[j] >= 0x80) {
				j++
			}
			out = append(out, token{"id", src[i:j], i})
			i = j
		default:
			op := ""
			for _, o := range []string{"&&", "||", "==", "!=", "<=", ">=", "+", "-", "*", "/", "%", "<", ">", "!", "(", ")", "[", "]", ".", ",", "?", ":"} {
				if strings.HasPrefix(src[i:], o) {
					op = o
					break
				}
			}
			if op == "" {
				return nil, fmt.Errorf("unexpected %q at column %d", c, i+1)
			}
			out = append(out, token{"op", op, i})
			i += len(op)
		}
	}
	return append(out, token{"eof", "", len(src)}), nil
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

type parser struct {
	toks []token
	i    int
}

// parseExpr parses one expression.
func parseExpr(src string) (expr, error) {
	toks, err := tokenize(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	e, err := p.expr()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != "eof" {
		return nil, fmt.Errorf("unexpected %q at column %d", t.text, t.pos+1)
	}
	return e, nil
}

func (p *parser) expr() (expr, error) {
	c, err := p.binary(0)
	if err != nil || !p.accept("?") {
		return c, err
	}
	x, err := p.expr()
	if err != nil {
		return nil, err
	}
	if !p.accept(":") {
		return nil, fmt.Errorf("missing ':' at column %d", p.peek().pos+1)
	}
	y, err := p.expr()
	if err != nil {
		return nil, err
	}
	return &condExpr{c: c, x: x, y: y}, nil
}

func (p *parser) peek() token { return p.toks[p.i] }
func (p *parser) next() token {
	t := p.toks[p.i]
	if p.i < len(p.toks)-1 {
		p.i++
	}
	return t
}
func (p *parser) accept(op string) bool {
	if t := p.peek(); t.kind == "op" && t.text == op {
		p.next()
		return true
	}
	return false
}

var precedence = [][]string{{"||"}, {"&&"}, {"==", "!="}, {"<", "<=", ">", ">="}, {"+", "-"}, {"*", "/", "%"}}

func (p *parser) binary(level int) (expr, error) {
	if level == len(precedence) {
		return p.unary()
	}
	x, err := p.binary(level + 1)
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		matched := false
		if t.kind == "op" {
			for _, op := range precedence[level] {
				if t.text == op {
					matched = true
				}
			}
		}
		if !matched {
			return x, nil
		}
		p.next()
		y, err := p.binary(level + 1)
		if err != nil {
			return nil, err
		}
		x = &binaryExpr{op: t.text, x: x, y: y}
	}
}

// castType recognises "(" type ")" followed by the start of an operand
// and returns the type and the number of tokens it spans.
func (p *parser) castType() (string, int) {
	if t := p.peek(); t.kind != "op" || t.text != "(" {
		return "", 0
	}
	i := p.i + 1
	var parts []string
	for {
		if i >= len(p.toks) || p.toks[i].kind != "id" {
			return "", 0
		}
		parts = append(parts, p.toks[i].text)
		i++
		if i < len(p.toks) && p.toks[i].kind == "op" && p.toks[i].text == "." {
			i++
			continue
		}
		break
	}
	if i >= len(p.toks) || p.toks[i].text != ")" || p.toks[i].kind != "op" {
		return "", 0
	}
	i++
	typ := strings.Join(parts, ".")
	next := p.toks[i]
	primitive := map[string]bool{"int": true, "long": true, "double": true, "float": true, "short": true, "byte": true, "char": true, "boolean": true}[typ]
	switch {
	case next.kind == "eof":
		return "", 0
	case next.kind == "op" && (next.text == "(" || next.text == "!"):
	case next.kind == "op" && next.text == "-" && primitive:
	case next.kind == "op":
		return "", 0
	case !primitive && !(typ[0] >= 'A' && typ[0] <= 'Z') && !strings.Contains(typ, "."):
		return "", 0 // "(x) y" is not a cast unless x looks like a type
	}
	return typ, i - p.i
}

func (p *parser) unary() (expr, error) {
	if typ, n := p.castType(); n > 0 {
		p.i += n
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		return &castExpr{typ: typ, x: x}, nil
	}
	if t := p.peek(); t.kind == "op" && (t.text == "-" || t.text == "!") {
		p.next()
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		return &unaryExpr{op: t.text, x: x}, nil
	}
	return p.postfix()
}

func (p *parser) postfix() (expr, error) {
	x, err := p.primary()
	if err != nil {
		return nil, err
	}
	for {
		switch {
		case p.accept("."):
			t := p.next()
			if t.kind != "id" {
				return nil, fmt.Errorf("expected a name after '.' at column %d", t.pos+1)
			}
			if p.accept("(") {
				args, err := p.args()
				if err != nil {
					return nil, err
				}
				x = &callExpr{x: x, name: t.text, args: args}
			} else {
				x = &fieldExpr{x: x, name: t.text}
			}
		case p.accept("["):
			i, err := p.expr()
			if err != nil {
				return nil, err
			}
			if !p.accept("]") {
				return nil, fmt.Errorf("missing ']' at column %d", p.peek().pos+1)
			}
			x = &indexExpr{x: x, i: i}
		default:
			return x, nil
		}
	}
}

func (p *parser) args() ([]expr, error) {
	var out []expr
	if p.accept(")") {
		return out, nil
	}
	for {
		a, err := p.expr()
		if err != nil {
			return nil, err
		}
		out = append(out, a)
		if p.accept(")") {
			return out, nil
		}
		if !p.accept(",") {
			return nil, fmt.Errorf("expected ',' or ')' at column %d", p.peek().pos+1)
		}
	}
}

func (p *parser) primary() (expr, error) {
	t := p.next()
	switch t.kind {
	case "num":
		return parseNumber(t.text)
	case "str":
		s, err := unquoteJava(t.text)
		if err != nil {
			return nil, fmt.Errorf("bad string literal %s: %w", t.text, err)
		}
		return &litExpr{str: s, isS: true}, nil
	case "char":
		s, err := unquoteJava(t.text)
		r := []rune(s)
		if err != nil || len(r) != 1 {
			return nil, fmt.Errorf("bad char literal %s", t.text)
		}
		return &litExpr{v: Value{Tag: TagChar, Long: int64(r[0])}}, nil
	case "id":
		switch t.text {
		case "true":
			return &litExpr{v: Value{Tag: TagBoolean, Long: 1}}, nil
		case "false":
			return &litExpr{v: Value{Tag: TagBoolean}}, nil
		case "null":
			return &litExpr{v: Value{Tag: TagObject}}, nil
		}
		if p.accept("(") {
			args, err := p.args()
			if err != nil {
				return nil, err
			}
			return &callExpr{name: t.text, args: args}, nil
		}
		return &nameExpr{name: t.text}, nil
	case "op":
		if t.text == "(" {
			x, err := p.expr()
			if err != nil {
				return nil, err
			}
			if !p.accept(")") {
				return nil, fmt.Errorf("missing ')' at column %d", p.peek().pos+1)
			}
			return x, nil
		}
	case "eof":
		return nil, fmt.Errorf("unexpected end of expression")
	}
	return nil, fmt.Errorf("unexpected %q at column %d", t.text, t.pos+1)
}

func parseNumber(s string) (expr, error) {
	t := strings.ReplaceAll(s, "_", "")
	lower := strings.ToLower(t)
	isHex := strings.HasPrefix(lower, "0x")
	switch {
	case strings.HasSuffix(lower, "l"):
		n, err := strconv.ParseInt(t[:len(t)-1], 0, 64)
		if err != nil {
			return nil, fmt.Errorf("bad long literal %s", s)
		}
		return &litExpr{v: Value{Tag: TagLong, Long: n}}, nil
	case !isHex && (strings.HasSuffix(lower, "f")):
		f, err := strconv.ParseFloat(t[:len(t)-1], 32)
		if err != nil {
			return nil, fmt.Errorf("bad float literal %s", s)
		}
		return &litExpr{v: Value{Tag: TagFloat, Double: f}}, nil
	case !isHex && (strings.HasSuffix(lower, "d") || strings.ContainsAny(lower, ".e")):
		f, err := strconv.ParseFloat(strings.TrimSuffix(lower, "d"), 64)
		if err != nil {
			return nil, fmt.Errorf("bad double literal %s", s)
		}
		return &litExpr{v: Value{Tag: TagDouble, Double: f}}, nil
	}
	n, err := strconv.ParseInt(t, 0, 64)
	if err != nil || n > 1<<31-1 || n < -(1<<31) {
		return nil, fmt.Errorf("bad int literal %s", s)
	}
	return &litExpr{v: Value{Tag: TagInt, Long: n}}, nil
}

// unquoteJava decodes a Java string or char literal.
func unquoteJava(lit string) (string, error) {
	body := lit[1 : len(lit)-1]
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(body) {
			return "", fmt.Errorf("dangling backslash")
		}
		switch body[i] {
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
		case '0':
			b.WriteByte(0)
		case '\\', '\'', '"':
			b.WriteByte(body[i])
		case 'u':
			if i+5 > len(body) {
				return "", fmt.Errorf("short \\u escape")
			}
			n, err := strconv.ParseUint(body[i+1:i+5], 16, 16)
			if err != nil {
				return "", fmt.Errorf("bad \\u escape")
			}
			b.WriteRune(rune(n))
			i += 4
		default:
			return "", fmt.Errorf("unknown escape \\%c", body[i])
		}
	}
	return b.String(), nil
}
