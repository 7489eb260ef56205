package ide

import (
	"reflect"
	"testing"
)

func TestSplitArgs(t *testing.T) {
	cases := map[string][]string{
		``:                    nil,
		`  a  b `:             {"a", "b"},
		`-Dx="a b" c`:         {"-Dx=a b", "c"},
		`"" x`:                {"", "x"},
		`say \"hi\"`:          {"say", `"hi"`},
		"a\tb\nc":             {"a", "b", "c"},
		`"unterminated quote`: {"unterminated quote"},
	}
	for in, want := range cases {
		if got := splitArgs(in); !reflect.DeepEqual(got, want) {
			t.Errorf("splitArgs(%q) = %q, want %q", in, got, want)
		}
	}
}
