package testrun

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/dbg-dev/dbg/sessions"
)

// jestBin is where a project's own Jest is.
const jestBin = "node_modules/jest/bin/jest.js"

// jestEnv keeps Jest's messages free of colour codes.
var jestEnv = map[string]string{"FORCE_COLOR": "0"}

// jestFramework runs the project's own Jest in one process
// (--runInBand) under the JavaScript adapter, caught like node:test: an
// expect() failure is a JestAssertionError thrown inside expect, taken in
// the test's frame; an error the code under test throws is taken where it
// is thrown.
func jestFramework() *Framework {
	return &Framework{
		Name:     "jest",
		Language: "javascript",
		Detect:   detectJest,
		List:     listJest,
		Plan:     planJest,
		Message:  jestMessage,
		UserFile: jsUserFile,
		Claims:   jsClaims,
		Accept:   jsAccept,
	}
}

func detectJest(dir string) bool {
	for _, f := range []string{"jest.config.js", "jest.config.cjs", "jest.config.mjs", "jest.config.ts", "jest.config.json"} {
		if exists(dir, f) {
			return true
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	return err == nil && regexp.MustCompile(`"jest"\s*:`).Match(b)
}

func jestEnvOf(p *Project) map[string]string { return mergeEnv(jestEnv, p.Env) }

// jestCommand is the project's Jest, or an error saying how to install it.
func jestCommand(p *Project) (string, error) {
	bin := filepath.Join(p.Dir, jestBin)
	if _, err := os.Stat(bin); err != nil {
		return "", fmt.Errorf("the project has no Jest installed (%s): run npm install in %s", jestBin, p.Dir)
	}
	return bin, nil
}

// jestReport is the part of `jest --json` that discovery reads.
type jestReport struct {
	TestResults []struct {
		Name             string `json:"name"`
		Message          string `json:"message"`
		AssertionResults []struct {
			AncestorTitles []string `json:"ancestorTitles"`
			Title          string   `json:"title"`
		} `json:"assertionResults"`
	} `json:"testResults"`
}

// listJest runs Jest with a name pattern no test matches: every test is
// reported, skipped, in its JSON report. path, when given, is the one
// test file run, else every test file is.
func listJest(ctx context.Context, p *Project, path string) ([]TestID, error) {
	bin, err := jestCommand(p)
	if err != nil {
		return nil, err
	}
	out := filepath.Join(os.TempDir(), fmt.Sprintf("dbg-jest-%d.json", os.Getpid()))
	defer os.Remove(out)
	argv := []string{"node", bin, "--ci", "--json", "--outputFile=" + out, "--testNamePattern=(?!)"}
	if path != "" {
		argv = append(argv, "--runTestsByPath", path)
	}
	res, err := run(ctx, p.Dir, jestEnvOf(p), argv)
	if err != nil {
		return nil, fmt.Errorf("jest: %w", err)
	}
	b, rerr := os.ReadFile(out)
	var rep jestReport
	if rerr != nil || json.Unmarshal(b, &rep) != nil {
		return nil, &BuildError{Tool: "jest", Output: res.Output, Usage: true}
	}
	var ids []TestID
	var broken []string
	for _, tr := range rep.TestResults {
		rel, _ := filepath.Rel(p.Dir, tr.Name)
		rel = filepath.ToSlash(rel)
		if len(tr.AssertionResults) == 0 && tr.Message != "" {
			broken = append(broken, tr.Message)
		}
		for _, a := range tr.AssertionResults {
			ids = append(ids, TestID{ID: rel + "::" + strings.Join(append(append([]string{}, a.AncestorTitles...), a.Title), " > "), File: rel})
		}
	}
	if len(broken) > 0 {
		return ids, &BuildError{Tool: "jest", Output: strings.Join(broken, "\n")}
	}
	return ids, nil
}

func planJest(_ context.Context, p *Project, id TestID, stopAt StopAt) (*Plan, error) {
	bin, err := jestCommand(p)
	if err != nil {
		return nil, err
	}
	file, name, _ := strings.Cut(id.ID, "::")
	parts := strings.Split(name, " > ")
	args := []string{"--runInBand", "--ci", "--testNamePattern=^" + regexp.QuoteMeta(strings.Join(parts, " ")) + "$", "--runTestsByPath", file}
	abs := filepath.Join(p.Dir, filepath.FromSlash(file))
	pl := &Plan{
		Create: sessions.CreateRequest{Language: "javascript", Name: "test " + id.ID},
		Start: sessions.StartRequest{ScriptPath: bin, Args: args, Cwd: p.Dir, Env: jestEnvOf(p),
			DAPLaunchArgs:    map[string]any{"skipFiles": jestSkipFiles(p.Dir)},
			ExceptionFilters: []string{"all"}},
		Command: append([]string{"node", jestBin}, args...),
	}
	if stopAt.Mode == StopStart {
		line, err := jsTestStart(abs, parts[len(parts)-1])
		if err != nil {
			return nil, err
		}
		pl.Breakpoints = append(pl.Breakpoints, sessions.BreakpointSpec{File: abs, Line: line})
	}
	return pl, nil
}

// jestThrowers are the packages whose throws are failures: expect's
// JestAssertionError.
var jestThrowers = map[string]bool{"expect": true}

// jestSkipFiles hides node's internals and every dependency but expect
// from the debugger: the inspector then neither stops on the errors
// Jest throws and catches inside itself nor shows its frames, while
// expect's assertion errors still stop.
func jestSkipFiles(dir string) []string {
	skip := []string{"<node_internals>/**"}
	nm := filepath.Join(dir, "node_modules")
	entries, _ := os.ReadDir(nm)
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, "@") {
			scoped, _ := os.ReadDir(filepath.Join(nm, name))
			for _, se := range scoped {
				skip = append(skip, "**/node_modules/"+name+"/"+se.Name()+"/**")
			}
			continue
		}
		if !jestThrowers[name] && !strings.HasPrefix(name, ".") {
			skip = append(skip, "**/node_modules/"+name+"/**")
		}
	}
	return skip
}

// jestMessage is the JestAssertionError's text, with the matcher's
// expected and received values read from the error expect throws.
func jestMessage(ctx context.Context, r *failureReader) Failure {
	f := jsMessage(ctx, r)
	for _, fr := range r.frames {
		if r.fw.UserFile(r.p, fr.File) {
			break
		}
		if v, err := r.s.Evaluate(ctx, "error.matcherResult.expected", fr.ID, sessions.EvalWatch); err == nil {
			f.Expected = v.Result
			if v, err := r.s.Evaluate(ctx, "error.matcherResult.actual", fr.ID, sessions.EvalWatch); err == nil {
				f.Actual = v.Result
			}
			break
		}
	}
	return f
}
