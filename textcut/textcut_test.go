package textcut

import (
	"testing"
	"unicode/utf8"
)

func TestCuts(t *testing.T) {
	for _, tc := range []struct{ name, got, want string }{
		{"prefix fits", Prefix("abc", 5), "abc"},
		{"prefix mid-rune", Prefix("aé", 2), "a"},
		{"prefix zero", Prefix("abc", 0), ""},
		{"clip fits", Clip("abc", 3), "abc"},
		{"clip", Clip("abcdef", 3), "abc…"},
		{"clip mid-rune", Clip("€€", 4), "€…"},
		{"runes", Runes("ééé", 2), "éé…"},
		{"runes fit", Runes("éé", 2), "éé"},
		{"line", Line("one\ntwo"), "one…"},
		{"line whole", Line("one"), "one"},
		{"quote", Quote("abcdef", 3), `"abc"… (6 bytes)`},
		{"quote fits", Quote("a\"b", 9), `"a\"b"`},
		{"last lines", LastLines("a\nb\nc\n", 2), "b\nc"},
		{"last lines few", LastLines("a", 3), "a"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, tc.got, tc.want)
		}
	}
}

func TestTail(t *testing.T) {
	if s, cut := Tail("short", 10); s != "short" || cut {
		t.Fatalf("Tail kept %q, %v", s, cut)
	}
	if s, cut := Tail("one\ntwo\nthree", 9); s != "three" || !cut {
		t.Fatalf("Tail from a line start: %q, %v", s, cut)
	}
	if s, _ := Tail("€€€", 5); s != "€" {
		t.Fatalf("Tail from a rune start: %q", s)
	}
}

func FuzzCuts(f *testing.F) {
	f.Add("héllo\nwörld", 3)
	f.Fuzz(func(t *testing.T, s string, n int) {
		n = n % 64
		if !utf8.ValidString(s) {
			return
		}
		for _, out := range []string{Prefix(s, n), Clip(s, n), Runes(s, n), LastLines(s, n)} {
			if !utf8.ValidString(out) {
				t.Fatalf("cut %q to %d gave invalid UTF-8 %q", s, n, out)
			}
		}
		if tail, _ := Tail(s, n); !utf8.ValidString(tail) || len(tail) > max(n, 0) && len(s) > n {
			t.Fatalf("Tail(%q, %d) = %q", s, n, tail)
		}
		if p := Prefix(s, n); len(p) > max(n, 0) {
			t.Fatalf("Prefix(%q, %d) = %q, longer than %d", s, n, p, n)
		}
	})
}
