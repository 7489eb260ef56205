package testrun

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dbg-dev/dbg/toolkit"
)

// A pytest id is looked up in its own file first, as the run collects
// only that file: a file elsewhere in the project that does not import
// does not stop it. An id of the broken file answers its error; an id
// that is not in its file, or whose file does not exist, answers the
// closest ids of the whole project.
func TestFindLooksAtThePytestIdsFileFirst(t *testing.T) {
	t.Parallel()
	if err := exec.Command("python3", "-m", "pytest", "--version").Run(); err != nil {
		t.Skip("pytest is not installed (scripts/install-test-deps.sh installs it)")
	}
	dir := t.TempDir()
	write := func(rel, text string) { writeFile(t, dir, rel, text) }
	write("tests/test_a.py", "def test_total():\n    assert 1 == 1\n")
	write("tests/test_b.py", "def test_other():\n    assert 1 == 1\n")
	x := &Tests{}
	p := &Project{Dir: dir, Python: "python3"}
	fw := pytestFramework()
	ctx := context.Background()
	find := func(id string) (TestID, *toolkit.ToolError) {
		t.Helper()
		got, err := x.find(ctx, p, fw, id, "")
		if err == nil {
			return got, nil
		}
		var te *toolkit.ToolError
		if !errors.As(err, &te) {
			t.Fatalf("find %s: %v", id, err)
		}
		return got, te
	}
	for _, id := range []string{"tests/test_a.py::test_totl", "tests/nope.py::test_total"} {
		if _, te := find(id); te == nil || te.Code != toolkit.CodeTestNotFound || !slices.Contains(te.AvailableOptions, "tests/test_a.py::test_total") {
			t.Errorf("find %s: %+v, want TEST_NOT_FOUND offering tests/test_a.py::test_total", id, te)
		}
	}
	write("tests/test_c.py", "def test_broken(:\n    pass\n")
	if got, te := find("tests/test_a.py::test_total"); te != nil || got.ID != "tests/test_a.py::test_total" || got.File != "tests/test_a.py" {
		t.Errorf("find with a broken file elsewhere: %+v %v", got, te)
	}
	if _, te := find("tests/test_c.py::test_broken"); te == nil || !strings.Contains(te.Message, "SyntaxError") {
		t.Errorf("find in the broken file: %+v, want its SyntaxError", te)
	}
}

// The same for a Jest id: its file alone is run for discovery, so a test
// file elsewhere that does not parse does not stop it; an id of a file
// that does not exist answers the closest ids.
func TestFindLooksAtTheJestIdsFileFirst(t *testing.T) {
	t.Parallel()
	jest := os.Getenv("DBG_JEST_DIR")
	if jest == "" {
		home, _ := os.UserHomeDir()
		jest = filepath.Join(home, ".cache", "dbg-test", "jest")
	}
	if _, err := os.Stat(filepath.Join(jest, "node_modules", "jest", "bin", "jest.js")); err != nil {
		t.Skip("jest is not installed (scripts/install-test-deps.sh installs it)")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed")
	}
	dir := t.TempDir()
	write := func(rel, text string) { writeFile(t, dir, rel, text) }
	write("package.json", `{"name": "f", "version": "1.0.0"}`)
	write("__tests__/a.test.js", "test('total', () => { expect(1).toBe(1); });\n")
	write("__tests__/b.test.js", "test('broken', () => {\n")
	if err := os.Symlink(filepath.Join(jest, "node_modules"), filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	x := &Tests{}
	p := &Project{Dir: dir}
	fw := jestFramework()
	ctx := context.Background()
	got, err := x.find(ctx, p, fw, "__tests__/a.test.js::total", "")
	if err != nil || got.ID != "__tests__/a.test.js::total" {
		t.Errorf("find with a broken file elsewhere: %+v %v", got, err)
	}
	if err := os.Remove(filepath.Join(dir, "__tests__/b.test.js")); err != nil {
		t.Fatal(err)
	}
	_, err = x.find(ctx, p, fw, "__tests__/nope.test.js::total", "")
	var te *toolkit.ToolError
	if !errors.As(err, &te) || te.Code != toolkit.CodeTestNotFound || !slices.Contains(te.AvailableOptions, "__tests__/a.test.js::total") {
		t.Errorf("find in a missing file: %v, want TEST_NOT_FOUND offering __tests__/a.test.js::total", err)
	}
}

// writeFile writes text to dir/rel, making its directory.
func writeFile(t *testing.T, dir, rel, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, rel), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
