package javasrc

import "testing"

func TestNormalizeAndSameType(t *testing.T) {
	for in, want := range map[string]string{
		"java.util.List<java.lang.String>": "java.util.List",
		" Map<K, List<V>> ":                "Map",
		"String...":                        "String[]",
		"a.Outer$Inner":                    "a.Outer.Inner",
		"int[][]":                          "int[][]",
	} {
		if got := normalizeTypeName(in); got != want {
			t.Errorf("normalize(%q) = %q, want %q", in, got, want)
		}
	}
	for _, c := range []struct {
		given, want string
		same        bool
	}{
		{"Long", "java.lang.Long", true},
		{"java.lang.Long", "java.lang.Long", true},
		{"java.util.Long", "java.lang.Long", false},
		{"List<User>", "java.util.List", true},
		{"User[]", "p.User[]", true},
		{"User", "p.User[]", false},
		{"p.Outer$Inner", "p.Outer.Inner", true},
		{"int", "long", false},
	} {
		if got := sameType(c.given, c.want); got != c.same {
			t.Errorf("sameType(%q, %q) = %v", c.given, c.want, got)
		}
	}
}
