package testrun

import (
	"os"
	"path/filepath"
	"strings"
)

// pytestConfig is what discovery reads of a project's pytest
// configuration.
type pytestConfig struct {
	// Found: the project has a pytest configuration.
	Found bool
	// PythonFiles are the python_files globs (pytest's default when the
	// configuration sets none).
	PythonFiles []string
	// TestPaths are the testpaths folders, or none.
	TestPaths []string
}

// pytestDefaultFiles is pytest's own python_files.
var pytestDefaultFiles = []string{"test_*.py", "*_test.py"}

// pytestConfigFiles are the files pytest reads its configuration from,
// in its order, each with the section that holds it.
var pytestConfigFiles = []struct{ file, section string }{
	{"pytest.ini", "pytest"},
	{".pytest.ini", "pytest"},
	{"pyproject.toml", "tool.pytest.ini_options"},
	{"pyproject.toml", "tool.pytest"},
	{"tox.ini", "pytest"},
	{"setup.cfg", "tool:pytest"},
}

// readPytestConfig reads the configuration of the project at dir: the
// first file that holds pytest's section, as pytest picks it.
func readPytestConfig(dir string) pytestConfig {
	c := pytestConfig{PythonFiles: pytestDefaultFiles}
	for _, f := range pytestConfigFiles {
		b, err := os.ReadFile(filepath.Join(dir, f.file))
		if err != nil {
			continue
		}
		keys, ok := iniSection(string(b), f.section)
		// A pytest.ini is pytest's even without its section.
		if !ok && !strings.HasSuffix(f.file, "pytest.ini") {
			continue
		}
		c.Found = true
		if v := keys["python_files"]; len(v) > 0 {
			c.PythonFiles = v
		}
		c.TestPaths = keys["testpaths"]
		return c
	}
	return c
}

// iniSection reads the keys of one section of an INI or TOML file as
// lists of words: "a b" and "a\n  b" in INI, ["a", "b"] or "a" in TOML.
// ok reports whether the section is there.
func iniSection(text, section string) (map[string][]string, bool) {
	keys := map[string][]string{}
	in, found := false, false
	var key string // the key whose value continues on indented lines
	var array bool // inside a TOML array that spans lines
	for _, raw := range strings.Split(text, "\n") {
		line := strings.TrimRight(raw, "\r")
		t := strings.TrimSpace(line)
		if t == "" || t[0] == '#' || t[0] == ';' {
			continue
		}
		if strings.HasPrefix(t, "[") && !array {
			name := strings.TrimSpace(strings.Trim(t, "[]"))
			in = name == section
			found = found || in
			key = ""
			continue
		}
		if !in {
			continue
		}
		if key != "" && (array || line[0] == ' ' || line[0] == '\t') {
			keys[key] = append(keys[key], words(t)...)
			if array && strings.Contains(t, "]") {
				array, key = false, ""
			}
			continue
		}
		k, v, ok := cutAssign(t)
		if !ok {
			key = ""
			continue
		}
		key = k
		keys[k] = words(v)
		array = strings.HasPrefix(v, "[") && !strings.Contains(v, "]")
	}
	return keys, found
}

// cutAssign splits "key = value" (or "key: value").
func cutAssign(line string) (string, string, bool) {
	i := strings.IndexAny(line, "=:")
	if i <= 0 {
		return "", "", false
	}
	return strings.TrimSpace(line[:i]), strings.TrimSpace(line[i+1:]), true
}

// words splits a value into its words, dropping TOML's brackets, quotes
// and commas, and a trailing comment.
func words(v string) []string {
	if i := strings.Index(v, " #"); i >= 0 {
		v = v[:i]
	}
	v = strings.NewReplacer("[", " ", "]", " ", ",", " ", `"`, " ", "'", " ").Replace(v)
	return strings.Fields(v)
}
