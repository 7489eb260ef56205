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
		Detect:   func(dir string) bool { return detectJest(dir) && jsRunner(dir) != "vitest" },
		List:     listJest,
		Plan:     planJest,
		Message:  jestMessage,
		UserFile: jsUserFile,
		Claims:   jsClaims,
		FileIDs:  true,
		Accept:   jsAccept,
	}
}

// detectJest: a Jest config, or jest in package.json.
func detectJest(dir string) bool {
	if anyExists(dir, jestConfigs) {
		return true
	}
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	return err == nil && regexp.MustCompile(`"jest"\s*:`).Match(b)
}

func jestEnvOf(p *Project) map[string]string { return mergeEnv(jestEnv, p.Env) }

// jestCommand is the project's Jest, or an error saying how to install it.
func jestCommand(p *Project) (string, error) { return projectBin(p, "Jest", jestBin) }

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
	out, err := reportFile("jest")
	if err != nil {
		return nil, err
	}
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
	return jsPlan(p, id, stopAt, sessions.StartRequest{ScriptPath: bin, Args: args, Env: jestEnvOf(p),
		DAPLaunchArgs: map[string]any{"skipFiles": jsSkipFiles(p.Dir, jestThrowers)}},
		append([]string{"node", jestBin}, args...))
}

// jestThrowers are the packages whose throws are failures: expect's
// JestAssertionError.
var jestThrowers = map[string]bool{"expect": true}

// jsSkipFiles hides node's internals and every dependency but the
// throwers (for Jest, expect) from the debugger: the inspector then
// neither stops on the errors the runner throws and catches inside
// itself nor shows its frames, while the assertion errors still stop.
func jsSkipFiles(dir string, throwers map[string]bool) []string {
	return append([]string{"<node_internals>/**"}, jsDependencySkips(dir, throwers)...)
}

// jsDependencySkips are the skipFiles globs of every dependency of the
// project but the throwers.
func jsDependencySkips(dir string, throwers map[string]bool) []string {
	skip := []string{}
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
		if !throwers[name] && !strings.HasPrefix(name, ".") {
			skip = append(skip, "**/node_modules/"+name+"/**")
		}
	}
	return skip
}

// jestMessage is the JestAssertionError's text, with the matcher's
// expected and received values read from the error expect throws.
func jestMessage(ctx context.Context, r *failureReader) Failure {
	f := jsMessage(ctx, r)
	readExpectedActual(ctx, r, &f, "error.matcherResult.expected", "error.matcherResult.actual")
	return f
}
