package ruby

import "testing"

// A hit condition that does not parse ("x", "% 0") always stops.
func TestRubyHitOK(t *testing.T) {
	for _, c := range []struct {
		cond string
		hits int
		want bool
	}{{"3", 3, true}, {"3", 2, false}, {"==3", 3, true}, {">=2", 2, true}, {">2", 2, false}, {"<2", 1, true}, {"<=2", 3, false}, {"%2", 4, true}, {"%2", 3, false}, {"% 0", 3, true}, {"x", 1, true}} {
		if got := hitPasses(c.cond, c.hits); got != c.want {
			t.Errorf("hitPasses(%q, %d) = %v", c.cond, c.hits, got)
		}
	}
}

func TestRubyEvalFailed(t *testing.T) {
	for _, c := range []struct {
		expr, result, typ string
		want              bool
	}{
		{"nosuch", "#<NameError: undefined local variable or method `nosuch' for main:Object>", "NameError", true},
		{"e", "#<NameError: undefined local variable or method `other' for main:Object>", "NameError", false},
		{"e", "#<ArgumentError: too large>", "ArgumentError", false},
		{"1/0", "#<ZeroDivisionError: divided by 0>", "ZeroDivisionError", true},
		{"x.foo", "#<NoMethodError: undefined method `foo' for 1:Integer>", "NoMethodError", true},
		{"total", "3", "Integer", false},
		{"s", `"#<NameError: x>"`, "String", false},
	} {
		if got := rubyEvalFailed(c.expr, c.result, c.typ); got != c.want {
			t.Errorf("rubyEvalFailed(%q, %q, %q) = %v", c.expr, c.result, c.typ, got)
		}
	}
}
