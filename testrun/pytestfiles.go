package testrun

import (
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
)

// pytestNamed are the file names pytest runs when a file is named on its
// command line and that projects give their tests: test*.py (test.py,
// tests.py, test_cart.py) and *_test.py. A file pytest would not collect
// by itself (test.py, outside python_files) is still one of the
// project's test files when it is named.
var pytestNamed = []string{"test*.py", "*_test.py"}

// pytestSkipDirs are the folders pytest does not recurse into by default
// (norecursedirs), with the caches and environments of Python projects.
var pytestSkipDirs = map[string]bool{"node_modules": true, "venv": true, "build": true, "dist": true, "CVS": true,
	"_darcs": true, "{arch}": true, "__pycache__": true, "site-packages": true}

// maxPytestWalk bounds how many entries a look for test files visits.
const maxPytestWalk = 20000

// pythonTestText is what a test module's text holds: an import of
// unittest or pytest, or a test function or class.
var pythonTestText = regexp.MustCompile(`(?m)^\s*(import\s+(unittest|pytest)\b|from\s+(unittest|pytest)\b|(async\s+)?def\s+test|class\s+Test)`)

// pytestFiles lists (relative, slash-separated) at most n of the
// project's test files: those named as pytest collects them or runs
// them when named (pytestNamed, the configuration's python_files) whose
// text is a test module's.
func pytestFiles(dir string, cfg pytestConfig, n int) []string {
	var out []string
	visited := 0
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		visited++
		if len(out) >= n || visited > maxPytestWalk {
			return filepath.SkipAll
		}
		if err != nil {
			return nil // an unreadable entry: skip it
		}
		name := d.Name()
		if d.IsDir() {
			if p != dir && (strings.HasPrefix(name, ".") || pytestSkipDirs[name] || strings.HasSuffix(name, ".egg") || exists(p, "pyvenv.cfg")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".py") {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if !matchesAny(rel, pytestNamed) && !matchesAny(rel, cfg.PythonFiles) {
			return nil
		}
		if looksLikeTests(p) {
			out = append(out, rel)
		}
		return nil
	})
	return out
}

// matchesAny reports whether the file rel matches one of the globs: a
// glob without a slash matches the file's name, one with a slash its
// path, as pytest matches python_files.
func matchesAny(rel string, globs []string) bool {
	for _, g := range globs {
		target := path.Base(rel)
		if strings.Contains(g, "/") {
			target = rel
		}
		if ok, _ := path.Match(g, target); ok {
			return true
		}
	}
	return false
}

// looksLikeTests reports whether the start of file is a test module's.
func looksLikeTests(file string) bool {
	f, err := os.Open(file)
	if err != nil {
		return false
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, 64<<10))
	return pythonTestText.Match(b)
}

// pytestExtraFiles are the test files pytest collects only when they are
// named: those outside the configuration's python_files.
func pytestExtraFiles(files []string, cfg pytestConfig) []string {
	var out []string
	for _, f := range files {
		if !matchesAny(f, cfg.PythonFiles) {
			out = append(out, f)
		}
	}
	return out
}
