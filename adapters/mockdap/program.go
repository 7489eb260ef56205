package mockdap

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// A program of the mock language. One statement per line; line numbers
// are the file's. Blank lines and lines starting with # are not code.
//
//	def add(a, b)        define a function (body up to "end")
//	  return a + b
//	end
//	let total = 0        assign (integers, strings, [lists], arithmetic)
//	for i in 1..3        counted loop, body up to "end"
//	  let total = add(total, i)
//	  print "i={i}"      output a line, {expr} interpolated
//	end
//	call f(x)            call a function for its effect
//	sleep 50             sleep ms (a long-running program can be paused)
//	throw "bad input"    raise an exception
type program struct {
	path  string
	lines []string // source lines (index 0 = line 1)
	code  []instr  // top-level code, then functions
	funcs map[string]*function
	entry int // first instruction of the top level
}

type function struct {
	name   string
	params []string
	start  int // first instruction
	line   int // the def line
}

type opcode int

const (
	opLet opcode = iota
	opPrint
	opForInit  // for v in a..b: set v = a
	opForCheck // if v > b jump to target
	opForNext  // v++; jump to check
	opCall     // call f(args) [into dest]
	opReturn   // return [expr]
	opThrow
	opSleep
	opHalt // end of top level
)

type instr struct {
	op     opcode
	line   int
	name   string // variable (let, for) or function (call)
	expr   string // expression text
	args   []string
	hi     string // loop bound
	target int    // jump target
	// synthetic instructions ("end" lines) are never stop points.
	synthetic bool
}

// maxProgramBytes bounds the programs the mock reads.
const maxProgramBytes = 16 << 20

// loadProgram reads and parses a program: a regular file of at most
// maxProgramBytes, never a device, pipe or kernel file.
func loadProgram(path string) (*program, error) {
	if st, err := os.Stat(path); err != nil {
		return nil, err
	} else if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path) // opening a FIFO would block
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	if st.Size() > maxProgramBytes {
		return nil, fmt.Errorf("%s is %d bytes; the limit is %d", path, st.Size(), maxProgramBytes)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxProgramBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxProgramBytes {
		return nil, fmt.Errorf("%s is over %d bytes", path, maxProgramBytes)
	}
	return parseProgram(path, string(b))
}

func parseProgram(path, src string) (*program, error) {
	p := &program{path: path, lines: strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n"), funcs: map[string]*function{}}
	type block struct {
		kind  string // "for" or "def"
		check int    // for: index of the check instruction
		fn    *function
	}
	var top, funcs []instr
	var stack []block
	inFunc := func() bool {
		for _, b := range stack {
			if b.kind == "def" {
				return true
			}
		}
		return false
	}
	emit := func(in instr) int {
		if inFunc() {
			funcs = append(funcs, in)
			return len(funcs) - 1
		}
		top = append(top, in)
		return len(top) - 1
	}
	cur := func() []instr {
		if inFunc() {
			return funcs
		}
		return top
	}
	for i, raw := range p.lines {
		ln := i + 1
		s := strings.TrimSpace(raw)
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		word, rest, _ := strings.Cut(s, " ")
		rest = strings.TrimSpace(rest)
		bad := func(msg string) error { return fmt.Errorf("%s:%d: %s", path, ln, msg) }
		switch word {
		case "def":
			if inFunc() {
				return nil, bad("nested def")
			}
			name, params, err := parseCall(rest)
			if err != nil {
				return nil, bad(err.Error())
			}
			fn := &function{name: name, params: params, start: len(funcs), line: ln}
			p.funcs[name] = fn
			stack = append(stack, block{kind: "def", fn: fn})
		case "end":
			if len(stack) == 0 {
				return nil, bad("end without def or for")
			}
			b := stack[len(stack)-1]
			if b.kind == "def" {
				emit(instr{op: opReturn, line: ln, synthetic: true})
				stack = stack[:len(stack)-1]
				continue
			}
			code := cur()
			emit(instr{op: opForNext, line: ln, name: code[b.check].name, target: b.check, synthetic: true})
			stack = stack[:len(stack)-1]
			code = cur()
			code[b.check].target = len(code)
		case "for":
			v, rng, ok := strings.Cut(rest, " in ")
			lo, hi, ok2 := strings.Cut(rng, "..")
			if !ok || !ok2 {
				return nil, bad("want: for VAR in LO..HI")
			}
			emit(instr{op: opForInit, line: ln, name: strings.TrimSpace(v), expr: strings.TrimSpace(lo)})
			check := emit(instr{op: opForCheck, line: ln, name: strings.TrimSpace(v), hi: strings.TrimSpace(hi)})
			stack = append(stack, block{kind: "for", check: check})
		case "let":
			name, expr, ok := strings.Cut(rest, "=")
			if !ok {
				return nil, bad("want: let NAME = EXPR")
			}
			name, expr = strings.TrimSpace(name), strings.TrimSpace(expr)
			if !isIdent(name) || expr == "" {
				return nil, bad("want: let NAME = EXPR")
			}
			if fn, args, err := parseCall(expr); err == nil && isIdent(fn) && strings.HasSuffix(expr, ")") && !strings.HasPrefix(expr, "(") {
				emit(instr{op: opCall, line: ln, name: fn, args: args, expr: name})
				continue
			}
			emit(instr{op: opLet, line: ln, name: name, expr: expr})
		case "print":
			emit(instr{op: opPrint, line: ln, expr: rest})
		case "call":
			fn, args, err := parseCall(rest)
			if err != nil {
				return nil, bad(err.Error())
			}
			emit(instr{op: opCall, line: ln, name: fn, args: args})
		case "return":
			emit(instr{op: opReturn, line: ln, expr: rest})
		case "throw":
			emit(instr{op: opThrow, line: ln, expr: rest})
		case "sleep":
			emit(instr{op: opSleep, line: ln, expr: rest})
		default:
			return nil, bad(fmt.Sprintf("unknown statement %q", word))
		}
	}
	if len(stack) > 0 {
		return nil, fmt.Errorf("%s: missing end", path)
	}
	top = append(top, instr{op: opHalt, line: len(p.lines)})
	// Lay out: top level first, then functions (offset their jumps).
	off := len(top)
	for i := range funcs {
		if funcs[i].op == opForCheck || funcs[i].op == opForNext {
			funcs[i].target += off
		}
	}
	for _, fn := range p.funcs {
		fn.start += off
	}
	p.code = append(top, funcs...)
	for _, in := range p.code {
		if in.op == opCall {
			if _, ok := p.funcs[in.name]; !ok {
				return nil, fmt.Errorf("%s:%d: unknown function %q", path, in.line, in.name)
			}
		}
	}
	return p, nil
}

// parseCall splits "f(a, b)" into "f" and ["a", "b"].
func parseCall(s string) (string, []string, error) {
	open := strings.IndexByte(s, '(')
	if open < 0 || !strings.HasSuffix(s, ")") {
		return "", nil, fmt.Errorf("want NAME(ARGS): %q", s)
	}
	name := strings.TrimSpace(s[:open])
	inner := strings.TrimSpace(s[open+1 : len(s)-1])
	var args []string
	if inner != "" {
		depth, start := 0, 0
		for i, c := range inner {
			switch c {
			case '(', '[':
				depth++
			case ')', ']':
				depth--
			case ',':
				if depth == 0 {
					args = append(args, strings.TrimSpace(inner[start:i]))
					start = i + 1
				}
			}
		}
		args = append(args, strings.TrimSpace(inner[start:]))
	}
	return name, args, nil
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// codeLines returns the set of lines that hold code.
func (p *program) codeLines() map[int]bool {
	out := map[int]bool{}
	for _, in := range p.code {
		if in.op != opHalt && !in.synthetic {
			out[in.line] = true
		}
	}
	for _, fn := range p.funcs {
		out[fn.line] = false
	}
	for l, ok := range out {
		if !ok {
			delete(out, l)
		}
	}
	return out
}

func atoiOr(s string, d int) int {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return d
	}
	return n
}
