package testrun

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestVitestIDsAreFileAndFullName(t *testing.T) {
	t.Parallel()
	report := []byte(`[{"name":"total is wrong","file":"/p/test/cart.test.js"},{"name":"pairs > 2 + 3","file":"/p/test/cart.test.js","projectName":""}]`)
	ids, err := vitestIDs("/p", report)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, id := range ids {
		got = append(got, id.ID)
		if id.File != "test/cart.test.js" {
			t.Errorf("file of %s = %s", id.ID, id.File)
		}
	}
	if want := []string{"test/cart.test.js::total is wrong", "test/cart.test.js::pairs > 2 + 3"}; !slices.Equal(got, want) {
		t.Fatalf("ids = %q, want %q", got, want)
	}
	if _, err := vitestIDs("/p", []byte("not json")); err == nil {
		t.Fatal("a report that is not JSON was read")
	}
}

func TestVitestNamePatternMatchesOnlyTheFullName(t *testing.T) {
	t.Parallel()
	re := regexp.MustCompile(vitestNamePattern("pairs > 2 + 3"))
	// Vitest matches against the suites' and the test's names joined by
	// spaces.
	if !re.MatchString("pairs 2 + 3") {
		t.Fatalf("%s does not match the test's full name", re)
	}
	for _, other := range []string{"pairs 2 + 33", "pairs 2 3", "xpairs 2 + 3", "pairs 22 + 3"} {
		if re.MatchString(other) {
			t.Errorf("%s matches %q", re, other)
		}
	}
}

// project writes files (name → text) into a new project directory.
func project(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestVitestDetectionAndTheChoiceBetweenJestAndVitest(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string // the framework picked, "" when the choice is left to the caller
	}{
		{"vitest config", map[string]string{"vitest.config.ts": "export default {}"}, "vitest"},
		{"vite config with a test section", map[string]string{"vite.config.js": "export default { test: { globals: true } }"}, "vitest"},
		{"vite config without one", map[string]string{"vite.config.js": "export default { server: { port: 1 } }"}, "none"},
		{"dependency", map[string]string{"package.json": `{"devDependencies": {"vitest": "4.1.12"}}`}, "vitest"},
		{"a script", map[string]string{"package.json": `{"scripts": {"test": "vitest run"}}`}, "vitest"},
		{"a similar name is not vitest", map[string]string{"package.json": `{"devDependencies": {"vitest-mock": "1"}}`}, "none"},
		{"jest only", map[string]string{"package.json": `{"devDependencies": {"jest": "30"}}`}, "jest"},
		{"both, the test script runs vitest", map[string]string{"package.json": `{"scripts": {"test": "vitest"}, "devDependencies": {"jest": "30", "vitest": "4"}}`}, "vitest"},
		{"both, the test script runs jest", map[string]string{"package.json": `{"scripts": {"test": "jest --ci"}, "devDependencies": {"jest": "30", "vitest": "4"}}`}, "jest"},
		{"both, only a jest config", map[string]string{"package.json": `{"devDependencies": {"jest": "30", "vitest": "4"}}`, "jest.config.js": "module.exports = {}"}, "jest"},
		{"both, the tests import vitest", map[string]string{"package.json": `{"devDependencies": {"jest": "30", "vitest": "4"}}`,
			"test/a.test.js": "import { test } from 'vitest';\n"}, "vitest"},
		{"both, nothing tells", map[string]string{"package.json": `{"devDependencies": {"jest": "30", "vitest": "4"}}`}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fw, err := pickFramework(project(t, tc.files), "", "", "test/a.test.js::x", "")
			switch tc.want {
			case "none":
				if err == nil {
					t.Fatalf("picked %s in a project without tests", fw.Name)
				}
			case "":
				if err == nil {
					t.Fatalf("picked %s where the project does not tell", fw.Name)
				}
				if !strings.Contains(err.Error(), "several frameworks") {
					t.Fatalf("error %v, want the several frameworks one", err)
				}
			default:
				if err != nil || fw.Name != tc.want {
					t.Fatalf("picked %v, %v; want %s", fw, err, tc.want)
				}
			}
		})
	}
}

func TestVitestFixtureIsDetected(t *testing.T) {
	t.Parallel()
	fw, err := pickFramework(filepath.Join(fixtures(t), "vitest"), "", "", "", "")
	if err != nil || fw.Name != "vitest" {
		t.Fatalf("picked %v, %v; want vitest", fw, err)
	}
}

func TestVitestSkipFilesKeepChaiVisible(t *testing.T) {
	t.Parallel()
	dir := project(t, map[string]string{"node_modules/chai/index.js": "", "node_modules/vitest/vitest.mjs": "", "node_modules/@vitest/expect/index.js": ""})
	skip := jsSkipFiles(dir, vitestThrowers)
	for _, want := range []string{"<node_internals>/**", "**/node_modules/vitest/**", "**/node_modules/@vitest/expect/**"} {
		if !slices.Contains(skip, want) {
			t.Errorf("skipFiles %q lacks %s", skip, want)
		}
	}
	if slices.Contains(skip, "**/node_modules/chai/**") {
		t.Errorf("skipFiles %q hide chai, whose AssertionError is the failure", skip)
	}
}

func TestChaiTextDropsTheBundledClassName(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"_AssertionError: AssertionError: expected 5 to be 6": "AssertionError: expected 5 to be 6",
		"RangeError: percent 150 is out of range":             "RangeError: percent 150 is out of range",
		"_AssertionError: something else":                     "_AssertionError: something else",
	} {
		if got := chaiText(in); got != want {
			t.Errorf("chaiText(%q) = %q, want %q", in, got, want)
		}
	}
}
