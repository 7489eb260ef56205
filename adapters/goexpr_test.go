package adapters

import "testing"

func TestGoSideEffectFree(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		expr string
		ok   bool
	}{
		{"a + b", true},
		{"len(s) > 2", true},
		{"p.x * 2", true},
		{"m[\"k\"]", true},
		{"f(1)", false},
		{"s.Add(1)", false},
		{"call f()", false},
		{"x = 3", false},
		{"x++", false},
		{"a + g()", false},
	} {
		err := goSideEffectFree(tc.expr)
		if (err == nil) != tc.ok {
			t.Errorf("goSideEffectFree(%q) = %v, want ok=%v", tc.expr, err, tc.ok)
		}
	}
}
