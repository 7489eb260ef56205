package testrun

import (
	"slices"
	"strings"
	"testing"

	"github.com/dbg-dev/dbg/toolkit"
)

func TestReadPytestConfigReadsPythonFilesAndTestpaths(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		file, text string
		files      []string
		paths      []string
	}{
		"ini":           {"pytest.ini", "[pytest]\npython_files = check_*.py\n    example_*.py\ntestpaths = tests\n", []string{"check_*.py", "example_*.py"}, []string{"tests"}},
		"empty ini":     {"pytest.ini", "", pytestDefaultFiles, nil},
		"toml":          {"pyproject.toml", "[project]\nname = 'x'\n[tool.pytest.ini_options]\npython_files = [\"check_*.py\", 'it_*.py']  # ours\ntestpaths = [\n  \"a\",\n  \"b\",\n]\n", []string{"check_*.py", "it_*.py"}, []string{"a", "b"}},
		"toml native":   {"pyproject.toml", "[tool.pytest]\npython_files = \"check_*.py\"\n", []string{"check_*.py"}, nil},
		"setup.cfg":     {"setup.cfg", "[metadata]\nname = x\n[tool:pytest]\npython_files=t_*.py\n", []string{"t_*.py"}, nil},
		"other section": {"tox.ini", "[tox]\npython_files = no.py\n", pytestDefaultFiles, nil},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			writeFile(t, dir, tc.file, tc.text)
			cfg := readPytestConfig(dir)
			if !slices.Equal(cfg.PythonFiles, tc.files) || !slices.Equal(cfg.TestPaths, tc.paths) {
				t.Fatalf("config = %+v, want python_files %q testpaths %q", cfg, tc.files, tc.paths)
			}
			if found := name != "other section"; cfg.Found != found {
				t.Fatalf("found = %v, want %v", cfg.Found, found)
			}
		})
	}
}

// The files pytest runs when they are named count, by name and by text:
// test.py and tests.py of unittest classes, the project's python_files;
// not a module named like a test that holds none, nor what lies in an
// environment or a hidden folder.
func TestPytestFilesAreTheTestModulesPytestRunsWhenNamed(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	unit := "import unittest\n\nclass TestX(unittest.TestCase):\n    def test_y(self):\n        pass\n"
	writeFile(t, dir, "test.py", unit)
	writeFile(t, dir, "pkg/tests.py", "from unittest import TestCase\n")
	writeFile(t, dir, "cart_test.py", "def test_total():\n    pass\n")
	writeFile(t, dir, "check_cart.py", "def test_c():\n    pass\n")
	writeFile(t, dir, "testing_utils.py", "def helper():\n    pass\n")
	writeFile(t, dir, "code.py", "def add(a, b):\n    return a + b\n")
	writeFile(t, dir, ".venv/lib/test_venv.py", unit)
	writeFile(t, dir, "env/pyvenv.cfg", "")
	writeFile(t, dir, "env/test_env.py", unit)
	cfg := pytestConfig{PythonFiles: []string{"check_*.py"}}
	got := pytestFiles(dir, cfg, 100)
	slices.Sort(got)
	want := []string{"cart_test.py", "check_cart.py", "pkg/tests.py", "test.py"}
	if !slices.Equal(got, want) {
		t.Fatalf("pytestFiles = %q, want %q", got, want)
	}
	if extra := pytestExtraFiles(got, cfg); !slices.Equal(extra, []string{"cart_test.py", "pkg/tests.py", "test.py"}) {
		t.Fatalf("extra files = %q", extra)
	}
	if extra := pytestExtraFiles(got, pytestConfig{PythonFiles: pytestDefaultFiles}); !slices.Equal(extra, []string{"check_cart.py", "pkg/tests.py", "test.py"}) {
		t.Fatalf("extra files with the default python_files = %q", extra)
	}
	if n := len(pytestFiles(dir, cfg, 1)); n != 1 {
		t.Fatalf("pytestFiles stopped at %d files, want 1", n)
	}
	if !detectPytest(dir) || detectPytest(t.TempDir()) {
		t.Fatal("detectPytest does not tell a project of unittest files from an empty one")
	}
}

func TestMatchesAnyMatchesNamesAndPaths(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		rel  string
		glob string
		want bool
	}{
		{"a/b/test_x.py", "test_*.py", true},
		{"a/b/x_test.py", "test_*.py", false},
		{"tests/it/check.py", "tests/*/check.py", true},
		{"other/it/check.py", "tests/*/check.py", false},
	} {
		if got := matchesAny(tc.rel, []string{tc.glob}); got != tc.want {
			t.Errorf("matchesAny(%s, %s) = %v", tc.rel, tc.glob, got)
		}
	}
}

func TestPytestEndedTellsMissingIdsFromCollectionErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		out     string
		code    int
		missing bool
		build   string // "", "build" or "usage"
	}{
		{"1 failed in 0.1s", 1, false, ""},
		{"1 passed", 0, false, ""},
		{"ERROR: not found: /p/t.py::test_nope\n(no match in any of [<Module t.py>])", 4, true, ""},
		{"ERROR: file or directory not found: t2.py::x", 4, true, ""},
		{"no tests ran", 5, true, ""},
		{"ERROR collecting t.py\nSyntaxError\nInterrupted: 1 error during collection", 2, false, "build"},
		{"ERROR collecting t.py\nERROR: found no collectors for /p/t.py::test_a", 4, false, "build"},
		{"ImportError while loading conftest '/p/conftest.py'.", 4, false, "build"},
		{"ERROR: usage: pytest [options]\npytest: error: unrecognized arguments: --bogus", 4, false, "usage"},
	} {
		missing, be := pytestEnded(tc.out, tc.code)
		got := ""
		if be != nil {
			got = map[bool]string{true: "usage", false: "build"}[be.Usage]
		}
		if missing != tc.missing || got != tc.build {
			t.Errorf("pytestEnded(%q, %d) = %v, %s; want %v, %s", strings.SplitN(tc.out, "\n", 2)[0], tc.code, missing, got, tc.missing, tc.build)
		}
	}
}

// A project with no runner's files still has a framework for an id only
// one syntax can mean; an id several syntaxes can mean is refused with
// them.
func TestPickFrameworkFromTheIdsSyntax(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fw, err := pickFramework(dir, "", "", "test.py::TestX::test_y", "")
	if err != nil || fw.Name != "pytest" {
		t.Fatalf("picked %v, %v; want pytest", fw, err)
	}
	_, err = pickFramework(dir, "", "", "test/a.test.js::adds", "")
	var te = asErr(t, err)
	if !slices.Contains(te.AvailableOptions, "jest") || !slices.Contains(te.AvailableOptions, "node") || !strings.Contains(te.Message, "syntax of several") {
		t.Fatalf("an id of several frameworks: %+v", te)
	}
}

func FuzzIniSection(f *testing.F) {
	f.Add("[pytest]\npython_files = a.py\n  b.py\n", "pytest")
	f.Add("[tool.pytest.ini_options]\ntestpaths = [\n\"a\",\n]\n", "tool.pytest.ini_options")
	f.Add("[x]\n=\n[\n", "x")
	f.Fuzz(func(t *testing.T, text, section string) {
		keys, _ := iniSection(text, section)
		for k, v := range keys {
			for _, w := range v {
				if w == "" || strings.ContainsAny(w, " \t\n[],\"'") {
					t.Fatalf("key %q has word %q", k, w)
				}
			}
		}
	})
}

// asErr is err as a tool error, or the test fails.
func asErr(t *testing.T, err error) *toolkit.ToolError {
	t.Helper()
	var te *toolkit.ToolError
	if !asToolError(err, &te) {
		t.Fatalf("%v is not a tool error", err)
	}
	return te
}
