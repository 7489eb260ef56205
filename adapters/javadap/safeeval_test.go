package javadap

import "testing"

func TestSideEffectFree(t *testing.T) {
	for _, tc := range []struct {
		src string
		ok  bool
	}{
		{"a + b", true},
		{"list == null ? 0 : n", true},
		{"arr[i] * 2", true},
		{`s == "a=b"`, true},
		{"a <= b && b >= c && a != c", true},
		{"list.add(1)", false},
		{"list.size()", false},
		{"a + compute(b)", false},
		{"x = 5", false},
		{"x += 1", false},
		{"count++", false},
		{"--count", false},
	} {
		err := sideEffectFree(tc.src)
		if (err == nil) != tc.ok {
			t.Errorf("sideEffectFree(%q) = %v, want ok=%v", tc.src, err, tc.ok)
		}
	}
}
