package cobol

import (
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unicode"
)

// Cond is a parsed breakpoint condition written in COBOL terms:
//
//	WS-I = 3
//	WS-TOTAL > 100 AND WS-NAME NOT = "COBOL"
//	NOT (WS-I < 2 OR WS-I IS GREATER THAN 4)
//
// Relations: = EQUAL [TO], <> NOT =, < LESS [THAN], > GREATER [THAN],
// <= >= (and C's == != for convenience), combined with AND, OR, NOT and
// parentheses (&& || ! too). Operands are data item names, numbers,
// quoted text, ZERO(S)/ZEROES and SPACE(S).
type Cond struct {
	root condNode
	// Names are the data items the condition reads (upper case).
	Names []string
}

// condNode is one node of a condition's tree.
type condNode interface {
	eval(values map[string]string) (bool, error)
}

type condAnd struct{ a, b condNode }
type condOr struct{ a, b condNode }
type condNot struct{ a condNode }
type condRel struct {
	left, right condOperand
	op          string // = < > <= >= <>
}

// condOperand is a name (value looked up) or a literal.
type condOperand struct {
	name string // data item, upper case; "" for a literal
	lit  string // a literal's value, text unquoted
}

func (n condAnd) eval(v map[string]string) (bool, error) {
	a, err := n.a.eval(v)
	if err != nil || !a {
		return false, err
	}
	return n.b.eval(v)
}

func (n condOr) eval(v map[string]string) (bool, error) {
	a, err := n.a.eval(v)
	if err != nil || a {
		return a, err
	}
	return n.b.eval(v)
}

func (n condNot) eval(v map[string]string) (bool, error) {
	a, err := n.a.eval(v)
	return !a, err
}

func (n condRel) eval(v map[string]string) (bool, error) {
	l, err := n.left.value(v)
	if err != nil {
		return false, err
	}
	r, err := n.right.value(v)
	if err != nil {
		return false, err
	}
	c := compareValues(l, r)
	switch n.op {
	case "=":
		return c == 0, nil
	case "<>":
		return c != 0, nil
	case "<":
		return c < 0, nil
	case ">":
		return c > 0, nil
	case "<=":
		return c <= 0, nil
	case ">=":
		return c >= 0, nil
	}
	return false, fmt.Errorf("unknown relation %q", n.op)
}

func (o condOperand) value(v map[string]string) (string, error) {
	if o.name == "" {
		return o.lit, nil
	}
	s, ok := v[o.name]
	if !ok {
		return "", fmt.Errorf("no value for %s", o.name)
	}
	// Decoded text is quoted; compare its content.
	if uq, err := strconv.Unquote(s); err == nil {
		return uq, nil
	}
	return s, nil
}

// compareValues compares numerically when both sides are numbers, else
// as COBOL compares text: the shorter padded with spaces.
func compareValues(a, b string) int {
	ra, okA := new(big.Rat).SetString(strings.TrimSpace(a))
	rb, okB := new(big.Rat).SetString(strings.TrimSpace(b))
	if okA && okB {
		return ra.Cmp(rb)
	}
	for len(a) < len(b) {
		a += " "
	}
	for len(b) < len(a) {
		b += " "
	}
	return strings.Compare(a, b)
}

// Eval evaluates the condition with the decoded values of its Names
// (as [Decode] renders them).
func (c *Cond) Eval(values map[string]string) (bool, error) {
	return c.root.eval(values)
}

// ParseCond parses a condition; names are checked against known (a nil
// known accepts every name).
func ParseCond(src string, known func(name string) bool) (*Cond, error) {
	toks, err := condTokens(src)
	if err != nil {
		return nil, err
	}
	p := &condParser{toks: toks, known: known, names: map[string]bool{}}
	root, err := p.or()
	if err != nil {
		return nil, err
	}
	if p.pos < len(p.toks) {
		return nil, fmt.Errorf("unexpected %q in condition", p.toks[p.pos].text)
	}
	c := &Cond{root: root}
	for n := range p.names {
		c.Names = append(c.Names, n)
	}
	return c, nil
}

// condToken is a lexical token: kind 'w' word, 'n' number, 's' string,
// 'o' operator.
type condToken struct {
	kind byte
	text string
}

func condTokens(s string) ([]condToken, error) {
	var out []condToken
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(s) && s[j] != c {
				j++
			}
			if j >= len(s) {
				return nil, errors.New("unterminated text in condition")
			}
			out = append(out, condToken{'s', s[i+1 : j]})
			i = j + 1
		case c >= '0' && c <= '9' || ((c == '-' || c == '+' || c == '.') && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' && condNumberMayStart(out)):
			j := i + 1
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.') {
				j++
			}
			// A name may start with a digit (1ST-ITEM).
			if j < len(s) && (unicode.IsLetter(rune(s[j])) || s[j] == '-') && c >= '0' && c <= '9' {
				k := j
				for k < len(s) && condNameByte(s[k]) {
					k++
				}
				out = append(out, condToken{'w', strings.ToUpper(s[i:k])})
				i = k
				continue
			}
			out = append(out, condToken{'n', s[i:j]})
			i = j
		case condNameByte(c):
			j := i
			for j < len(s) && condNameByte(s[j]) {
				j++
			}
			out = append(out, condToken{'w', strings.ToUpper(strings.TrimRight(s[i:j], "-"))})
			i = j
		default:
			for _, op := range []string{"<=", ">=", "<>", "==", "!=", "&&", "||", "=", "<", ">", "(", ")", "!"} {
				if strings.HasPrefix(s[i:], op) {
					out = append(out, condToken{'o', op})
					i += len(op)
					goto next
				}
			}
			return nil, fmt.Errorf("unexpected %q in condition", string(c))
		next:
		}
	}
	return out, nil
}

// condNumberMayStart: a sign starts a number only where an operand may
// begin (not after a name or number: "A-1" is a name).
func condNumberMayStart(prev []condToken) bool {
	if len(prev) == 0 {
		return true
	}
	last := prev[len(prev)-1]
	return last.kind == 'o' && last.text != ")" || last.kind == 'w' && condKeywords[last.text]
}

func condNameByte(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}

var condKeywords = map[string]bool{"AND": true, "OR": true, "NOT": true, "IS": true, "EQUAL": true, "EQUALS": true,
	"TO": true, "GREATER": true, "LESS": true, "THAN": true}

type condParser struct {
	toks  []condToken
	pos   int
	known func(string) bool
	names map[string]bool
}

func (p *condParser) peek() (condToken, bool) {
	if p.pos < len(p.toks) {
		return p.toks[p.pos], true
	}
	return condToken{}, false
}

// accept consumes the next token when it is one of words (keywords or
// operators).
func (p *condParser) accept(words ...string) bool {
	t, ok := p.peek()
	if !ok || t.kind == 'n' || t.kind == 's' {
		return false
	}
	for _, w := range words {
		if t.text == w {
			p.pos++
			return true
		}
	}
	return false
}

func (p *condParser) or() (condNode, error) {
	n, err := p.and()
	for err == nil && p.accept("OR", "||") {
		var m condNode
		if m, err = p.and(); err == nil {
			n = condOr{n, m}
		}
	}
	return n, err
}

func (p *condParser) and() (condNode, error) {
	n, err := p.unary()
	for err == nil && p.accept("AND", "&&") {
		var m condNode
		if m, err = p.unary(); err == nil {
			n = condAnd{n, m}
		}
	}
	return n, err
}

func (p *condParser) unary() (condNode, error) {
	if p.accept("NOT", "!") {
		n, err := p.unary()
		return condNot{n}, err
	}
	if p.accept("(") {
		n, err := p.or()
		if err != nil {
			return nil, err
		}
		if !p.accept(")") {
			return nil, errors.New("missing ) in condition")
		}
		return n, nil
	}
	return p.relation()
}

func (p *condParser) relation() (condNode, error) {
	left, err := p.operand()
	if err != nil {
		return nil, err
	}
	p.accept("IS")
	negate := p.accept("NOT")
	var op string
	switch {
	case p.accept("=", "=="):
		op = "="
	case p.accept("EQUAL", "EQUALS"):
		p.accept("TO")
		op = "="
	case p.accept("<>", "!="):
		op = "<>"
	case p.accept("<="):
		op = "<="
	case p.accept(">="):
		op = ">="
	case p.accept("<"):
		op = "<"
	case p.accept(">"):
		op = ">"
	case p.accept("LESS"):
		p.accept("THAN")
		op = "<"
	case p.accept("GREATER"):
		p.accept("THAN")
		op = ">"
	default:
		return nil, errors.New("a condition compares two values (WS-I = 3)")
	}
	right, err := p.operand()
	if err != nil {
		return nil, err
	}
	var n condNode = condRel{left: left, right: right, op: op}
	if negate {
		n = condNot{n}
	}
	return n, nil
}

func (p *condParser) operand() (condOperand, error) {
	t, ok := p.peek()
	if !ok {
		return condOperand{}, errors.New("condition ends too early")
	}
	p.pos++
	switch t.kind {
	case 'n':
		return condOperand{lit: t.text}, nil
	case 's':
		return condOperand{lit: t.text}, nil
	case 'w':
		switch t.text {
		case "ZERO", "ZEROS", "ZEROES":
			return condOperand{lit: "0"}, nil
		case "SPACE", "SPACES":
			return condOperand{lit: ""}, nil
		}
		if condKeywords[t.text] {
			return condOperand{}, fmt.Errorf("unexpected %s in condition", t.text)
		}
		if p.known != nil && !p.known(t.text) {
			return condOperand{}, fmt.Errorf("no data item %s", t.text)
		}
		p.names[t.text] = true
		return condOperand{name: t.text}, nil
	}
	return condOperand{}, fmt.Errorf("unexpected %q in condition", t.text)
}
