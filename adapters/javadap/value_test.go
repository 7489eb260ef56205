package javadap

import (
	"math"
	"testing"
)

func TestJavaFloat(t *testing.T) {
	for _, tc := range []struct {
		f    float64
		bits int
		want string
	}{
		{9, 64, "9.0"}, {3.5, 64, "3.5"}, {-0.0, 64, "0.0"}, {math.Copysign(0, -1), 64, "-0.0"},
		{1e7, 64, "1.0E7"}, {1.5e-5, 64, "1.5E-5"}, {123456.75, 64, "123456.75"}, {0.001, 64, "0.001"},
		{float64(float32(0.1)), 32, "0.1"}, {math.NaN(), 64, "NaN"}, {math.Inf(-1), 64, "-Infinity"}, {2.5e300, 64, "2.5E300"},
	} {
		if got := javaFloat(tc.f, tc.bits); got != tc.want {
			t.Errorf("javaFloat(%v, %d) = %q, want %q", tc.f, tc.bits, got, tc.want)
		}
	}
}
