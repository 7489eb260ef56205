package testrun

import (
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// subtestSource covers the shapes the reading knows and those it must
// call incomplete.
const subtestSource = `package x

import (
	"fmt"
	"testing"
)

var shared = []struct {
	label string
	n     int
}{{label: "first one", n: 1}, {label: "second", n: 2}}

func TestLiteral(t *testing.T) {
	t.Parallel()
	t.Run("a", func(t *testing.T) {
		t.Run("inner", func(t *testing.T) {})
	})
	t.Run("a", func(t *testing.T) {})
	t.Run("", func(t *testing.T) {})
	t.Run("", func(t *testing.T) {})
}

func TestTable(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		want int
	}{{"ones", 2}, {"with\ttab", 6}}
	for _, c := range cases {
		c := c
		t.Run(c.name, func(t *testing.T) { _ = c })
	}
}

func TestShared(t *testing.T) {
	t.Parallel()
	for _, tc := range shared {
		t.Run(tc.label, func(t *testing.T) {})
	}
}

func TestMap(t *testing.T) {
	t.Parallel()
	for name, v := range map[string]int{"m1": 1, "m2": 2} {
		t.Run(name, func(t *testing.T) { _ = v })
	}
}

func TestDynamic(t *testing.T) {
	t.Parallel()
	for i := 0; i < 2; i++ {
		t.Run(fmt.Sprint("n", i), func(t *testing.T) {})
	}
}

func TestHelper(t *testing.T) {
	t.Parallel()
	t.Run("seen", func(t *testing.T) {})
	helper(t)
}

func helper(t *testing.T) { t.Run("hidden", func(t *testing.T) {}) }

func TestClosure(t *testing.T) {
	t.Parallel()
	run := func(name string) { t.Run(name, func(t *testing.T) {}) }
	run("late")
}

func TestNone(t *testing.T) {}
`

func TestReadGoSubtestsNamesWhatGoTestRuns(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not installed")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module x\n\ngo 1.21\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "x_test.go"), []byte(subtestSource), 0o644); err != nil {
		t.Fatal(err)
	}
	st := readGoSubtests(dir)
	wantComplete := map[string]bool{"TestLiteral": true, "TestTable": true, "TestShared": true, "TestMap": true,
		"TestDynamic": false, "TestHelper": false, "TestClosure": false, "TestNone": true}
	for name, want := range wantComplete {
		if st.complete[name] != want {
			t.Errorf("%s complete = %v, want %v (subtests %q)", name, st.complete[name], want, st.names[name])
		}
	}
	cmd := exec.Command("go", "test", "-count=1", "-v", ".")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test: %v\n%s", err, out)
	}
	ran := map[string][]string{}
	for _, l := range strings.Split(string(out), "\n") {
		if name, ok := strings.CutPrefix(l, "=== RUN   "); ok {
			if top, _, sub := strings.Cut(name, "/"); sub {
				ran[top] = append(ran[top], name)
			}
		}
	}
	for name, complete := range wantComplete {
		got, want := slices.Clone(st.names[name]), ran[name]
		sort.Strings(got)
		sort.Strings(want)
		if complete && !slices.Equal(got, want) {
			t.Errorf("%s: read %q, go test ran %q", name, got, want)
		}
		for _, g := range got {
			if !slices.Contains(want, g) {
				t.Errorf("%s: read %q, which go test never ran (%q)", name, g, want)
			}
		}
	}
	if !slices.Contains(st.names["TestHelper"], "TestHelper/seen") {
		t.Errorf("TestHelper's literal subtest is not read: %q", st.names["TestHelper"])
	}
}

func FuzzReadGoSubtests(f *testing.F) {
	f.Add(subtestSource)
	f.Add("package x\nfunc TestX(t *testing.T) { for _, c := range x { t.Run(c.n, nil) } }")
	f.Fuzz(func(t *testing.T, src string) {
		st := goSubtests{names: map[string][]string{}, complete: map[string]bool{}}
		st.read(token.NewFileSet(), "x_test.go", []byte(src))
		for top, subs := range st.names {
			for _, s := range subs {
				if !strings.HasPrefix(s, top+"/") {
					t.Fatalf("subtest %q is not under %q", s, top)
				}
			}
		}
	})
}
