// Package bpcond holds what every adapter means by a breakpoint's hit
// condition and a logpoint's message, so that they read the same in every
// language (docs/contract.md, "Debug sessions").
//
// # Hit conditions
//
// A hit condition is compared with the number of times the breakpoint's
// location has been reached, counting from 1, and before its condition
// rules the hit out:
//
//	"3", "== 3", "=3"  the third hit only
//	">= 3"             the third hit and every one after it
//	"> 3", "< 3", "<= 3" as written
//	"% 3"              every third hit (3, 6, 9, ...)
//
// An empty hit condition passes every hit. Anything else is an error,
// which adapters report on the breakpoint (verified: false) rather than
// guessing.
//
// # Log messages
//
// A logpoint's message is literal text in which each {expression} is
// replaced by the expression's value where the breakpoint is hit. Braces
// nest, so {m["a"]} and {f({x: 1})} are single expressions; \{ and \}
// stand for literal braces, and a brace that is never closed is text.
package bpcond

import (
	"fmt"
	"strconv"
	"strings"
)

// Hit is a parsed hit condition. The zero Hit passes every hit.
type Hit struct {
	Op string // "", "==", ">=", ">", "<", "<=" or "%"
	N  int
}

// ParseHit parses a DAP hitCondition.
func ParseHit(s string) (Hit, error) {
	c := strings.TrimSpace(s)
	if c == "" {
		return Hit{}, nil
	}
	op := "=="
	for _, p := range []string{">=", "<=", "==", ">", "<", "%", "="} {
		if strings.HasPrefix(c, p) {
			op, c = p, strings.TrimSpace(c[len(p):])
			break
		}
	}
	if op == "=" {
		op = "=="
	}
	n, err := strconv.Atoi(c)
	if err != nil || n < 0 || strings.HasPrefix(c, "+") {
		return Hit{}, fmt.Errorf("hit condition %q: want a hit count such as 3 (the third hit), >= 3 (from the third on) or %% 3 (every third)", s)
	}
	if n == 0 && (op == "==" || op == "%") {
		return Hit{}, fmt.Errorf("hit condition %q: hits are counted from 1", s)
	}
	return Hit{Op: op, N: n}, nil
}

// Match reports whether the hits-th hit (counting from 1) passes.
func (h Hit) Match(hits int) bool {
	switch h.Op {
	case "==":
		return hits == h.N
	case ">=":
		return hits >= h.N
	case ">":
		return hits > h.N
	case "<":
		return hits < h.N
	case "<=":
		return hits <= h.N
	case "%":
		return h.N > 0 && hits%h.N == 0
	}
	return true
}

// IsZero reports whether h passes every hit.
func (h Hit) IsZero() bool { return h.Op == "" }

// Exact returns N when h passes the N-th hit only.
func (h Hit) Exact() (int, bool) { return h.N, h.Op == "==" }

// String gives h back in its canonical form ("== 3"), or "" for the zero Hit.
func (h Hit) String() string {
	if h.Op == "" {
		return ""
	}
	return h.Op + " " + strconv.Itoa(h.N)
}

// Part is a piece of a log message: literal text, or an expression to
// evaluate.
type Part struct {
	Text string
	Expr bool
}

// SplitLog cuts a log message into its literal and {expression} parts.
// Adjacent literal text is merged into one part; empty {} is text.
func SplitLog(msg string) []Part {
	var parts []Part
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			parts = append(parts, Part{Text: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(msg); i++ {
		c := msg[i]
		if c == '\\' && i+1 < len(msg) && (msg[i+1] == '{' || msg[i+1] == '}') {
			lit.WriteByte(msg[i+1])
			i++
			continue
		}
		if c == '{' {
			if end := closing(msg, i); end > i+1 {
				flush()
				parts = append(parts, Part{Text: msg[i+1 : end], Expr: true})
				i = end
				continue
			}
		}
		lit.WriteByte(c)
	}
	flush()
	return parts
}

// closing returns the index of the brace that closes the one at open, or
// -1 when it is never closed.
func closing(s string, open int) int {
	depth := 0
	for j := open; j < len(s); j++ {
		switch s[j] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// Interpolate replaces each {expression} of msg by eval's answer. An
// expression that fails to evaluate reads as <its error>.
func Interpolate(msg string, eval func(expr string) (string, error)) string {
	var b strings.Builder
	for _, p := range SplitLog(msg) {
		if !p.Expr {
			b.WriteString(p.Text)
			continue
		}
		v, err := eval(strings.TrimSpace(p.Text))
		if err != nil {
			v = "<" + err.Error() + ">"
		}
		b.WriteString(v)
	}
	return b.String()
}
