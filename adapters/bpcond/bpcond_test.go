package bpcond

import (
	"errors"
	"strings"
	"testing"
)

func TestParseHitMatches(t *testing.T) {
	// hits 1..7 that pass each condition
	cases := []struct {
		cond string
		pass []int
	}{
		{"", []int{1, 2, 3, 4, 5, 6, 7}},
		{"3", []int{3}},
		{" 3 ", []int{3}},
		{"==3", []int{3}},
		{"= 3", []int{3}},
		{">= 3", []int{3, 4, 5, 6, 7}},
		{">3", []int{4, 5, 6, 7}},
		{"< 3", []int{1, 2}},
		{"<=3", []int{1, 2, 3}},
		{"% 3", []int{3, 6}},
		{">= 0", []int{1, 2, 3, 4, 5, 6, 7}},
	}
	for _, c := range cases {
		h, err := ParseHit(c.cond)
		if err != nil {
			t.Fatalf("ParseHit(%q): %v", c.cond, err)
		}
		var got []int
		for n := 1; n <= 7; n++ {
			if h.Match(n) {
				got = append(got, n)
			}
		}
		if !equal(got, c.pass) {
			t.Errorf("%q passes hits %v, want %v", c.cond, got, c.pass)
		}
	}
}

func TestParseHitRejects(t *testing.T) {
	for _, c := range []string{"x", "3x", ">=", "-1", "% 0", "0", "== 0", "!= 3", "+3", "3.5", "> > 3"} {
		if h, err := ParseHit(c); err == nil {
			t.Errorf("ParseHit(%q) = %+v, want an error", c, h)
		}
	}
}

func TestHitString(t *testing.T) {
	for in, want := range map[string]string{"3": "== 3", ">=4": ">= 4", "": "", "%2": "% 2"} {
		h, err := ParseHit(in)
		if err != nil || h.String() != want {
			t.Errorf("ParseHit(%q).String() = %q, %v; want %q", in, h.String(), err, want)
		}
	}
	if n, ok := (Hit{Op: "==", N: 4}).Exact(); !ok || n != 4 {
		t.Errorf("Exact of == 4 = %d, %v", n, ok)
	}
	if _, ok := (Hit{Op: ">=", N: 4}).Exact(); ok {
		t.Error(">= 4 is not exact")
	}
}

func TestSplitLog(t *testing.T) {
	cases := map[string][]Part{
		"i={i} of {n}":      {{Text: "i="}, {Text: "i", Expr: true}, {Text: " of "}, {Text: "n", Expr: true}},
		"plain":             {{Text: "plain"}},
		"m={m[\"}\"]}":      {{Text: "m="}, {Text: "m[\"", Expr: true}, {Text: "\"]}"}},
		"f={f({a: 1})}!":    {{Text: "f="}, {Text: "f({a: 1})", Expr: true}, {Text: "!"}},
		`lit \{x\} {y}`:     {{Text: "lit {x} "}, {Text: "y", Expr: true}},
		"open {never":       {{Text: "open {never"}},
		"empty {} braces":   {{Text: "empty {} braces"}},
		"":                  nil,
		"{a}{b}":            {{Text: "a", Expr: true}, {Text: "b", Expr: true}},
		"close } alone {x}": {{Text: "close } alone "}, {Text: "x", Expr: true}},
	}
	for in, want := range cases {
		got := SplitLog(in)
		if len(got) != len(want) {
			t.Errorf("SplitLog(%q) = %+v, want %+v", in, got, want)
			continue
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("SplitLog(%q)[%d] = %+v, want %+v", in, i, got[i], want[i])
			}
		}
	}
}

func TestInterpolate(t *testing.T) {
	vals := map[string]string{"i": "3", "name": `"ann"`}
	eval := func(e string) (string, error) {
		if v, ok := vals[e]; ok {
			return v, nil
		}
		return "", errors.New("no " + e)
	}
	got := Interpolate("i={ i } name={name} bad={zz}", eval)
	if want := `i=3 name="ann" bad=<no zz>`; got != want {
		t.Errorf("Interpolate = %q, want %q", got, want)
	}
}

func FuzzParseHit(f *testing.F) {
	for _, s := range []string{"", "3", ">= 3", "%2", "<=  10", "x", "-1", "== 0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h, err := ParseHit(s)
		if err != nil {
			if !h.IsZero() {
				t.Fatalf("an error came with a non-zero Hit %+v", h)
			}
			return
		}
		again, err := ParseHit(h.String())
		if err != nil || again != h {
			t.Fatalf("ParseHit(%q) = %+v, whose String %q parses to %+v, %v", s, h, h.String(), again, err)
		}
		for n := 1; n < 20; n++ {
			h.Match(n)
		}
	})
}

func FuzzSplitLog(f *testing.F) {
	for _, s := range []string{"", "a{b}c", `\{x\}`, "{{}}", "{a{b}", "}{"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		parts := SplitLog(s)
		var text int
		for _, p := range parts {
			if p.Text == "" {
				t.Fatalf("SplitLog(%q) gave an empty part: %+v", s, parts)
			}
			text += len(p.Text)
		}
		if text > len(s) {
			t.Fatalf("SplitLog(%q) parts hold more text than the message", s)
		}
		if !strings.ContainsAny(s, "{}") && (len(parts) > 1 || (len(parts) == 1 && parts[0].Text != s)) {
			t.Fatalf("a message without braces must come back whole: %+v", parts)
		}
	})
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
