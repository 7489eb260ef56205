package mockdap

import (
	"strings"
	"testing"
)

func TestParseProgramAndCodeLines(t *testing.T) {
	src := "# comment\ndef f(a)\n  return a * 2\nend\n\nlet x = f(3)\nfor i in 1..2\n  print \"{i}\"\nend\n"
	p, err := parseProgram("t.mock", src)
	if err != nil {
		t.Fatal(err)
	}
	lines := p.codeLines()
	for _, l := range []int{3, 6, 7, 8} {
		if !lines[l] {
			t.Errorf("line %d should hold code", l)
		}
	}
	for _, l := range []int{1, 2, 4, 5, 9} {
		if lines[l] {
			t.Errorf("line %d should not hold code", l)
		}
	}
	for _, bad := range []string{"end\n", "def f(\n", "for x\nend\n", "let = \n", "call g()\n", "frobnicate\n", "def f()\n"} {
		if _, err := parseProgram("bad.mock", bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestEvalExpr(t *testing.T) {
	vars := func(n string) (value, bool) {
		v, ok := map[string]value{"x": int64(4), "s": "ab", "xs": []value{int64(1), int64(2)}}[n]
		return v, ok
	}
	cases := map[string]string{
		"x * 2 + 1": "9", "(x + 1) * 2": "10", "s + x": `"ab4"`, "xs[1]": "2", "len(xs)": "2",
		"x >= 4": "1", "x == 5": "0", "-x": "-4", "[x, s]": `[4, "ab"]`, "7 % 4": "3",
	}
	for expr, want := range cases {
		v, err := evalExpr(expr, vars)
		if err != nil || formatValue(v) != want {
			t.Errorf("%s = %v (%v), want %s", expr, formatValue(v), err, want)
		}
	}
	for _, bad := range []string{"y", "x / 0", "xs[9]", "s - 1", "(x", "x +", "\"unterminated"} {
		if _, err := evalExpr(bad, vars); err == nil {
			t.Errorf("%s evaluated", bad)
		}
	}
	if got := interpolate(`"x={x} bad={nope}"`, vars); !strings.HasPrefix(got, "x=4 bad=<") {
		t.Errorf("interpolate: %q", got)
	}
}

func FuzzParseProgram(f *testing.F) {
	f.Add("let x = 1\nprint \"{x}\"\n")
	f.Add("def f(a, b)\n  return a + b\nend\nlet y = f(1, [2, 3])\n")
	f.Add("for i in 1..3\n  sleep 1\nend\nthrow \"x\"\n")
	f.Fuzz(func(t *testing.T, src string) {
		p, err := parseProgram("f.mock", src)
		if err != nil {
			return
		}
		_ = p.codeLines()
		for _, in := range p.code {
			if (in.op == opForCheck || in.op == opForNext) && (in.target < 0 || in.target > len(p.code)) {
				t.Fatalf("jump out of range: %+v", in)
			}
		}
	})
}

func FuzzEvalExpr(f *testing.F) {
	for _, s := range []string{"1 + 2 * 3", "[1, [2]][0]", "len(\"ab\")", "((", "-\"x\""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		_, _ = evalExpr(src, func(string) (value, bool) { return int64(1), true })
	})
}
