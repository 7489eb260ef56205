package mockdap

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/dbg-dev/dbg/adapters/bpcond"
	"github.com/dbg-dev/dbg/textcut"
)

// value is an int64, a string, or a []value.
type value any

func formatValue(v value) string {
	switch x := v.(type) {
	case int64:
		return strconv.FormatInt(x, 10)
	case string:
		return strconv.Quote(x)
	case []value:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = formatValue(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case nil:
		return "nil"
	}
	return fmt.Sprint(v)
}

func typeName(v value) string {
	switch v.(type) {
	case int64:
		return "int"
	case string:
		return "string"
	case []value:
		return "list"
	}
	return "nil"
}

func truthy(v value) bool {
	switch x := v.(type) {
	case int64:
		return x != 0
	case string:
		return x != ""
	case []value:
		return len(x) > 0
	}
	return false
}

// lookup resolves a variable name.
type lookup func(name string) (value, bool)

// Bounds of one evaluation: how deep expressions nest, how many bytes of
// values it may build, and how long it may run.
const (
	maxExprDepth = 200
	maxExprWork  = 64 << 20
	evalTimeout  = 5 * time.Second
)

// evalExpr evaluates a small expression language: integers, "strings",
// [lists], variables, xs[i], len(xs), + - * / %, comparisons, parentheses.
func evalExpr(src string, vars lookup) (value, error) {
	return evalExprCtx(context.Background(), src, vars)
}

// evalExprCtx is evalExpr that stops when ctx ends or after evalTimeout.
// Lexing is linear in the source; nesting and the bytes of values built
// are bounded, so no expression can burn a core for long.
func evalExprCtx(ctx context.Context, src string, vars lookup) (value, error) {
	ctx, cancel := context.WithTimeout(ctx, evalTimeout)
	defer cancel()
	p := &exprParser{src: src, vars: vars, ctx: ctx}
	p.next()
	v, err := p.parseCompare()
	if p.err != nil {
		return nil, p.err
	}
	if err != nil {
		return nil, err
	}
	if p.tok != "" {
		return nil, fmt.Errorf("unexpected %s in the expression", clip(p.tok))
	}
	return v, nil
}

// clip quotes a token for an error, cut to 40 bytes.
func clip(s string) string { return textcut.Quote(s, 40) }

type exprParser struct {
	src   string
	pos   int
	tok   string
	kind  byte // 'n' number, 's' string, 'i' ident, 'o' operator, 0 end
	vars  lookup
	ctx   context.Context
	err   error // set when the evaluation was stopped: ends the token stream
	depth int
	work  int
	toks  int
}

// stop ends the evaluation with err: the token stream ends, so every
// parse function returns at once.
func (p *exprParser) stop(err error) {
	if p.err == nil {
		p.err = err
	}
	p.tok, p.kind, p.pos = "", 0, len(p.src)
}

// spend charges n bytes of built values to the evaluation's budget.
func (p *exprParser) spend(n int) bool {
	p.work += n
	if p.work > maxExprWork {
		p.stop(fmt.Errorf("the expression builds more than %d bytes of values", maxExprWork))
		return false
	}
	return true
}

// enter and leave bound the nesting depth.
func (p *exprParser) enter() bool {
	p.depth++
	if p.depth > maxExprDepth {
		p.stop(fmt.Errorf("the expression nests more than %d levels deep", maxExprDepth))
		return false
	}
	return true
}

func (p *exprParser) leave() { p.depth-- }

func (p *exprParser) next() {
	if p.err != nil {
		return
	}
	if p.toks++; p.toks%256 == 0 && p.ctx.Err() != nil {
		p.stop(fmt.Errorf("the evaluation was stopped: %w", p.ctx.Err()))
		return
	}
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
		p.pos++
	}
	if p.pos >= len(p.src) {
		p.tok, p.kind = "", 0
		return
	}
	c := p.src[p.pos]
	start := p.pos
	switch {
	case c >= '0' && c <= '9':
		for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
			p.pos++
		}
		p.kind = 'n'
	case c == '"':
		p.pos++
		for p.pos < len(p.src) && p.src[p.pos] != '"' {
			if p.src[p.pos] == '\\' {
				p.pos++
			}
			p.pos++
		}
		p.pos++
		if p.pos > len(p.src) {
			p.pos = len(p.src)
		}
		p.kind = 's'
	case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		for p.pos < len(p.src) && isIdentByte(p.src[p.pos]) {
			p.pos++
		}
		p.kind = 'i'
	default:
		p.pos++
		if p.pos < len(p.src) && strings.Contains("=!<>", string(c)) && p.src[p.pos] == '=' {
			p.pos++
		}
		p.kind = 'o'
	}
	p.tok = p.src[start:p.pos]
}

// isIdentByte reports whether c may continue an identifier.
func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func (p *exprParser) parseCompare() (value, error) {
	if !p.enter() {
		return nil, p.err
	}
	defer p.leave()
	l, err := p.parseSum()
	if err != nil {
		return nil, err
	}
	for p.kind == 'o' && (p.tok == "==" || p.tok == "!=" || p.tok == "<" || p.tok == ">" || p.tok == "<=" || p.tok == ">=") {
		op := p.tok
		p.next()
		r, err := p.parseSum()
		if err != nil {
			return nil, err
		}
		var res bool
		li, lok := l.(int64)
		ri, rok := r.(int64)
		switch {
		case lok && rok:
			res = map[string]bool{"==": li == ri, "!=": li != ri, "<": li < ri, ">": li > ri, "<=": li <= ri, ">=": li >= ri}[op]
		case op == "==":
			res = formatValue(l) == formatValue(r)
		case op == "!=":
			res = formatValue(l) != formatValue(r)
		default:
			return nil, fmt.Errorf("cannot compare %s and %s with %s", typeName(l), typeName(r), op)
		}
		l = boolInt(res)
	}
	return l, nil
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func (p *exprParser) parseSum() (value, error) {
	l, err := p.parseProduct()
	if err != nil {
		return nil, err
	}
	for p.kind == 'o' && (p.tok == "+" || p.tok == "-") {
		op := p.tok
		p.next()
		r, err := p.parseProduct()
		if err != nil {
			return nil, err
		}
		li, lok := l.(int64)
		ri, rok := r.(int64)
		switch {
		case lok && rok && op == "+":
			l = li + ri
		case lok && rok:
			l = li - ri
		case op == "+":
			ls, rs := plain(l), plain(r)
			if !p.spend(len(ls) + len(rs)) {
				return nil, p.err
			}
			l = ls + rs
		default:
			return nil, fmt.Errorf("cannot subtract %s from %s", typeName(r), typeName(l))
		}
	}
	return l, nil
}

func plain(v value) string {
	if s, ok := v.(string); ok {
		return s
	}
	return formatValue(v)
}

func (p *exprParser) parseProduct() (value, error) {
	l, err := p.parseUnary()
	if err != nil {
		return nil, err
	}
	for p.kind == 'o' && (p.tok == "*" || p.tok == "/" || p.tok == "%") {
		op := p.tok
		p.next()
		r, err := p.parseUnary()
		if err != nil {
			return nil, err
		}
		li, lok := l.(int64)
		ri, rok := r.(int64)
		if !lok || !rok {
			return nil, fmt.Errorf("%s needs integers, got %s and %s", op, typeName(l), typeName(r))
		}
		switch op {
		case "*":
			l = li * ri
		default:
			if ri == 0 {
				return nil, fmt.Errorf("division by zero")
			}
			if op == "/" {
				l = li / ri
			} else {
				l = li % ri
			}
		}
	}
	return l, nil
}

func (p *exprParser) parseUnary() (value, error) {
	if p.kind == 'o' && p.tok == "-" {
		if !p.enter() {
			return nil, p.err
		}
		defer p.leave()
		p.next()
		v, err := p.parseUnary()
		if err != nil {
			return nil, err
		}
		i, ok := v.(int64)
		if !ok {
			return nil, fmt.Errorf("cannot negate %s", typeName(v))
		}
		return -i, nil
	}
	return p.parsePostfix()
}

func (p *exprParser) parsePostfix() (value, error) {
	v, err := p.parsePrimary()
	if err != nil {
		return nil, err
	}
	for p.kind == 'o' && p.tok == "[" {
		idx, err := p.enclosed("]")
		if err != nil {
			return nil, err
		}
		list, ok := v.([]value)
		i, iok := idx.(int64)
		if !ok || !iok {
			return nil, fmt.Errorf("cannot index %s with %s", typeName(v), typeName(idx))
		}
		if i < 0 || int(i) >= len(list) {
			return nil, fmt.Errorf("index %d out of range (len %d)", i, len(list))
		}
		v = list[i]
	}
	return v, nil
}

// enclosed parses the expression after the opening token p stands on,
// up to and past the closing token close.
func (p *exprParser) enclosed(close string) (value, error) {
	p.next()
	v, err := p.parseCompare()
	if err != nil {
		return nil, err
	}
	if p.tok != close {
		return nil, fmt.Errorf("missing %s", close)
	}
	p.next()
	return v, nil
}

func (p *exprParser) parsePrimary() (value, error) {
	switch p.kind {
	case 'n':
		n, err := strconv.ParseInt(p.tok, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("bad number %s", clip(p.tok))
		}
		p.next()
		return n, nil
	case 's':
		s, err := strconv.Unquote(p.tok)
		if err != nil {
			return nil, fmt.Errorf("bad string %s", clip(p.tok))
		}
		p.next()
		return s, nil
	case 'i':
		name := p.tok
		p.next()
		if name == "len" && p.tok == "(" {
			v, err := p.enclosed(")")
			if err != nil {
				return nil, err
			}
			switch x := v.(type) {
			case []value:
				return int64(len(x)), nil
			case string:
				return int64(len(x)), nil
			}
			return nil, fmt.Errorf("len of %s", typeName(v))
		}
		v, ok := p.vars(name)
		if !ok {
			return nil, fmt.Errorf("undefined: %s", clip(name))
		}
		return v, nil
	case 'o':
		switch p.tok {
		case "(":
			return p.enclosed(")")
		case "[":
			p.next()
			var list []value
			for p.tok != "]" {
				if p.kind == 0 {
					return nil, fmt.Errorf("missing ]")
				}
				v, err := p.parseCompare()
				if err != nil {
					return nil, err
				}
				list = append(list, v)
				if p.tok == "," {
					p.next()
				}
			}
			p.next()
			if list == nil {
				list = []value{}
			}
			return list, nil
		}
	case 0:
		return nil, fmt.Errorf("incomplete expression")
	}
	return nil, fmt.Errorf("unexpected %s", clip(p.tok))
}

// interpolate replaces each {expression} of a quoted or bare text with
// its value.
func interpolate(text string, vars lookup) string {
	if s, err := strconv.Unquote(text); err == nil {
		text = s
	}
	return bpcond.Interpolate(text, func(expr string) (string, error) {
		v, err := evalExpr(expr, vars)
		if err != nil {
			return "", err
		}
		return plain(v), nil
	})
}
