package testrun

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/dbg-dev/dbg/sessions"
)

// mochaBin is where a project's own Mocha is.
const mochaBin = "node_modules/mocha/bin/mocha.js"

// mochaList is the reporter that lists a project's tests with their
// suites (Mocha's own reporters give only the joined title).
//
//go:embed mochalist/dbg_mocha_list.cjs
var mochaList []byte

// mochaMarker starts each line of mochaList's report.
const mochaMarker = "\x1edbgmocha "

// mochaThrowers are the assertion libraries whose throws are failures:
// the debugger sees them, and no other dependency.
var mochaThrowers = map[string]bool{"chai": true, "should": true, "expect.js": true, "expect": true, "assert": true,
	"power-assert": true, "unexpected": true, "sinon": true}

// mochaFramework runs the project's own Mocha (in its own process:
// bin/mocha.js forks only for node options, and none are given) under
// the JavaScript adapter, one test selected by --grep on its full title,
// with no timeouts, caught as node:test's: node:assert throws inside node,
// whose frames the debugger sees, and the assertion libraries inside
// themselves; Mocha's own catches, and every other dependency's, are
// hidden from it.
func mochaFramework() *Framework {
	return &Framework{
		Name:     "mocha",
		Language: "javascript",
		Detect:   detectMocha,
		List:     listMocha,
		Plan:     planMocha,
		Message:  jsMessage,
		UserFile: jsUserFile,
		Claims:   jsClaims,
		FileIDs:  true,
		Accept:   jsAccept,
	}
}

var (
	mochaConfigs = []string{".mocharc.js", ".mocharc.cjs", ".mocharc.mjs", ".mocharc.yaml", ".mocharc.yml", ".mocharc.json", ".mocharc.jsonc"}
	mochaWord    = regexp.MustCompile(`\bmocha\b`)
)

// detectMocha: a Mocha config, mocha in package.json, or a script that
// runs it.
func detectMocha(dir string) bool {
	if anyExists(dir, mochaConfigs) {
		return true
	}
	return packageUses(dir, "mocha", mochaWord)
}

// packageUses reports whether the project's package.json depends on
// pkg or has a script whose command matches word.
func packageUses(dir, pkg string, word *regexp.Regexp) bool {
	p, ok := readPackageJSON(dir)
	if !ok {
		return false
	}
	if _, dep := p.Dependencies[pkg]; dep {
		return true
	}
	if _, dep := p.DevDependencies[pkg]; dep {
		return true
	}
	for _, s := range p.Scripts {
		if word.MatchString(s) {
			return true
		}
	}
	return false
}

// mochaReporter writes the listing reporter into a private folder of
// dbg's cache and returns its path.
func mochaReporter() (string, error) {
	sum := sha256.Sum256(mochaList)
	dir, err := privateCacheDir("mocha-" + hex.EncodeToString(sum[:8]))
	if err != nil {
		return "", err
	}
	file := filepath.Join(dir, "dbg_mocha_list.cjs")
	return file, writePrivate(file, mochaList)
}

// listMocha runs Mocha with --dry-run and dbg's reporter: every test is
// reported, none run. path, when given, is the one test file loaded,
// else the project's configured spec is.
func listMocha(ctx context.Context, p *Project, path string) ([]TestID, error) {
	bin, err := projectBin(p, "Mocha", mochaBin)
	if err != nil {
		return nil, err
	}
	reporter, err := mochaReporter()
	if err != nil {
		return nil, fmt.Errorf("mocha reporter: %w", err)
	}
	argv := []string{"node", bin, "--dry-run", "--reporter", reporter}
	if path != "" {
		argv = append(argv, "--", path)
	}
	res, err := run(ctx, p.Dir, p.Env, argv)
	if err != nil {
		return nil, fmt.Errorf("mocha: %w", err)
	}
	var ids []TestID
	for _, line := range strings.Split(res.Output, "\n") {
		rest, ok := strings.CutPrefix(line, mochaMarker)
		if !ok {
			continue
		}
		var t struct {
			File string   `json:"file"`
			Path []string `json:"path"`
		}
		if json.Unmarshal([]byte(rest), &t) != nil || len(t.Path) == 0 {
			continue
		}
		rel, err := filepath.Rel(p.Dir, t.File)
		if err != nil {
			rel = t.File
		}
		rel = filepath.ToSlash(rel)
		ids = append(ids, TestID{ID: rel + "::" + strings.Join(t.Path, " > "), File: rel})
	}
	if res.ExitCode != 0 && len(ids) == 0 {
		return nil, &BuildError{Tool: "mocha", Output: res.Output}
	}
	return ids, nil
}

// mochaArgs selects the test id names: its file, and --grep on Mocha's
// full title (the titles joined by spaces), with no timeouts: a test
// held at a breakpoint must not fail for the time it is held.
func mochaArgs(id TestID) []string {
	file, name, _ := strings.Cut(id.ID, "::")
	full := strings.Join(strings.Split(name, " > "), " ")
	return []string{"--timeout", "0", "--grep", "^" + regexp.QuoteMeta(full) + "$", "--", file}
}

func planMocha(_ context.Context, p *Project, id TestID, stopAt StopAt) (*Plan, error) {
	bin, err := projectBin(p, "Mocha", mochaBin)
	if err != nil {
		return nil, err
	}
	args := mochaArgs(id)
	// node:assert throws inside node: its frames stay visible.
	skip := jsDependencySkips(p.Dir, mochaThrowers)
	return jsPlan(p, id, stopAt, sessions.StartRequest{ScriptPath: bin, Args: args, Env: p.Env,
		DAPLaunchArgs: map[string]any{"skipFiles": skip}},
		append([]string{"node", mochaBin}, args...))
}
