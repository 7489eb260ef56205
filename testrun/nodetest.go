package testrun

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/dbg-dev/dbg/sessions"
)

// maxTestFiles bounds how many files a JavaScript discovery looks at.
const maxTestFiles = 500

// nodeTestFramework runs a node:test file directly with node (its tests
// then run in that process) under the JavaScript adapter. Exceptions
// stop where they are thrown, caught or not, since the test runner
// catches every failure; a stop is the failure when it is an assertion
// error or thrown by the user's own code, and the run goes on past any
// other (one node throws and catches inside itself).
func nodeTestFramework() *Framework {
	return &Framework{
		Name:     "node",
		Language: "javascript",
		Detect:   func(dir string) bool { return exists(dir, "package.json") && len(jsTestFiles(dir, "node:test", 1)) > 0 },
		List:     listNodeTest,
		Plan:     planNodeTest,
		Message:  jsMessage,
		UserFile: jsUserFile,
		Claims:   jsClaims,
		Accept:   jsAccept,
	}
}

// jsClaims: FILE::NAME with a JavaScript or TypeScript file.
func jsClaims(id string) bool {
	f, _, ok := strings.Cut(id, "::")
	return ok && regexp.MustCompile(`\.[cm]?[jt]sx?$`).MatchString(f)
}

var jsTestFile = regexp.MustCompile(`(^|/)(test/.*\.[cm]?js|[^/]*[._-]test\.[cm]?js|test-[^/]*\.[cm]?js|[^/]*\.spec\.[cm]?js)$`)

// jsTestFiles lists the project's test files (relative) whose text holds
// marker, at most n.
func jsTestFiles(dir, marker string, n int) []string {
	var out []string
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || len(out) >= n {
			return filepath.SkipDir
		}
		if d.IsDir() {
			if name := d.Name(); path != dir && (name == "node_modules" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		if !jsTestFile.MatchString(rel) {
			return nil
		}
		if b, err := os.ReadFile(path); err == nil && strings.Contains(string(b), marker) {
			out = append(out, rel)
		}
		return nil
	})
	return out
}

// listNodeTest runs each test file with a name pattern that matches no
// test: node then reports every test as skipped, by name, in TAP.
func listNodeTest(ctx context.Context, p *Project, _ string) ([]TestID, error) {
	var ids []TestID
	for _, f := range jsTestFiles(p.Dir, "node:test", maxTestFiles) {
		res, err := run(ctx, p.Dir, p.Env, []string{"node", "--test-reporter=tap", "--test-name-pattern=(?!)", f})
		if err != nil {
			return nil, fmt.Errorf("node %s: %w", f, err)
		}
		if res.ExitCode != 0 && !strings.Contains(res.Output, "TAP version") {
			return ids, &BuildError{Tool: "node", Output: res.Output}
		}
		for _, name := range tapTests(res.Output) {
			ids = append(ids, TestID{ID: f + "::" + name, File: f})
		}
	}
	return ids, nil
}

var tapSubtest = regexp.MustCompile(`^((?:    )*)# Subtest: (.*)$`)

// tapTests lists the leaf tests of a TAP report, nested names joined by
// " > ".
func tapTests(out string) []string {
	type entry struct {
		depth int
		name  string
	}
	var all []entry
	for _, l := range strings.Split(out, "\n") {
		if m := tapSubtest.FindStringSubmatch(l); m != nil {
			all = append(all, entry{len(m[1]) / 4, m[2]})
		}
	}
	var out2, path []string
	for i, e := range all {
		path = append(path[:min(e.depth, len(path))], e.name)
		if i+1 < len(all) && all[i+1].depth > e.depth {
			continue // a suite
		}
		out2 = append(out2, strings.Join(path, " > "))
	}
	return out2
}

func planNodeTest(_ context.Context, p *Project, id TestID, stopAt StopAt) (*Plan, error) {
	file, name, _ := strings.Cut(id.ID, "::")
	parts := strings.Split(name, " > ")
	pattern := "--test-name-pattern=^" + regexp.QuoteMeta(parts[len(parts)-1]) + "$"
	abs := filepath.Join(p.Dir, filepath.FromSlash(file))
	return jsPlan(p, id, stopAt, sessions.StartRequest{ScriptPath: abs, Env: p.Env,
		// node:assert throws inside node: keep its frames visible, or
		// the inspector would not stop on what it throws.
		DAPLaunchArgs: map[string]any{"runtimeArgs": []string{pattern, "--test-reporter=spec"}, "skipFiles": []string{}}},
		[]string{"node", pattern, "--test-reporter=spec", file})
}

// jsTestStart is the line after the one that declares the test named
// name (test('name', ...), it("name", ...)).
func jsTestStart(file, name string) (int, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return 0, fmt.Errorf("read %s: %w", file, err)
	}
	for i, l := range strings.Split(string(b), "\n") {
		for _, q := range []string{"'", `"`, "`"} {
			if strings.Contains(l, "("+q+name+q) {
				return i + 2, nil
			}
		}
	}
	return 0, fmt.Errorf("no test declared as %q in %s (a generated name: set a breakpoint instead)", name, filepath.Base(file))
}

// jsMessage is the thrown error's text, with node:assert's actual and
// expected values read from the frame that throws the AssertionError.
func jsMessage(ctx context.Context, r *failureReader) Failure {
	t := strings.TrimSpace(r.stop.Text)
	// The adapter names the class before the error's own text, which
	// often starts with it: "AssertionError: AssertionError [ERR_...]".
	if cls, rest, ok := strings.Cut(t, ": "); ok && strings.HasPrefix(rest, cls) {
		t = rest
	}
	f := Failure{Message: t}
	if len(r.frames) > 0 && r.frames[0].Name == "innerFail" && !r.fw.UserFile(r.p, r.frames[0].File) {
		id := r.frames[0].ID
		if v, err := r.s.Evaluate(ctx, "obj.actual", id, sessions.EvalWatch); err == nil {
			f.Actual = v.Result
		}
		if v, err := r.s.Evaluate(ctx, "obj.expected", id, sessions.EvalWatch); err == nil {
			f.Expected = v.Result
		}
	}
	return f
}

// jsUserFile: the project's files, not its dependencies'.
func jsUserFile(p *Project, file string) bool {
	return under(file, p.Dir) && !strings.Contains(file, string(filepath.Separator)+"node_modules"+string(filepath.Separator))
}

// jsAccept: an assertion error, or an error the user's code threw.
func jsAccept(r *failureReader) bool {
	t := r.stop.Text
	if strings.HasPrefix(t, "AssertionError") || strings.HasPrefix(t, "JestAssertionError") || strings.Contains(t, "ERR_ASSERTION") {
		return true
	}
	return len(r.frames) > 0 && r.frames[0].File != "" && r.fw.UserFile(r.p, r.frames[0].File)
}
