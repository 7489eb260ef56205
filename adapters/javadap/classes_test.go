package javadap

import (
	"os"
	"path/filepath"
	"testing"
)

func TestClassNames(t *testing.T) {
	if got := packageDir("La/b/C$D;"); got != "a/b" {
		t.Errorf("packageDir = %q", got)
	}
	if got := packageDir("LMain;"); got != "" {
		t.Errorf("packageDir of the default package = %q", got)
	}
	if got := simpleClassName("La/b/C$D;"); got != "D" {
		t.Errorf("simpleClassName = %q", got)
	}
	for _, tc := range []struct {
		name, sig string
		want      bool
	}{
		{"a.b.C", "La/b/C;", true}, {"C", "La/b/C;", true}, {"b.C", "La/b/C;", true},
		{"Outer.Inner", "La/Outer$Inner;", true}, {"Outer$Inner", "La/Outer$Inner;", true},
		{"Inner", "La/Outer$Inner;", true}, {"D", "La/b/C;", false}, {"x.C", "La/b/C;", false},
	} {
		if got := classMatches(tc.name, tc.sig); got != tc.want {
			t.Errorf("classMatches(%q, %q) = %v", tc.name, tc.sig, got)
		}
	}
	if !isJDKClass("Ljava/util/ArrayList;") || isJDKClass("Lcom/example/App;") || !isJDKClass("Ljdk/internal/misc/Unsafe;") {
		t.Error("isJDKClass")
	}
}

func TestSourceMapper(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"A.java", "B.java"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("package a.b;"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	m := newSourceMapper(nil)
	if got := m.resolve("a/b", "B.java"); got != "" {
		t.Errorf("resolved with no roots: %q", got)
	}
	// A breakpoint's file implies its source root; siblings then map.
	m.addKnown(filepath.Join(dir, "A.java"), "a/b")
	if got := m.resolve("a/b", "B.java"); got != filepath.Join(dir, "B.java") {
		t.Errorf("sibling = %q", got)
	}
	if got := m.resolve("a/b", "A.java"); got != filepath.Join(dir, "A.java") {
		t.Errorf("known = %q", got)
	}
	if got := m.resolve("x/y", "A.java"); got != "" {
		t.Errorf("wrong package resolved to %q", got)
	}
}
