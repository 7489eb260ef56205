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

// vitestBin is where a project's own Vitest is.
const vitestBin = "node_modules/vitest/vitest.mjs"

// vitestEnv keeps Vitest's messages free of colour codes.
var vitestEnv = map[string]string{"FORCE_COLOR": "0", "NO_COLOR": "1"}

// vitestRunArgs run the test in one worker thread, which the JavaScript
// adapter debugs as a thread of the session, with no timeouts: a test
// held at a breakpoint must not fail for the time it is held.
var vitestRunArgs = []string{"run", "--pool=threads", "--maxWorkers=1", "--no-file-parallelism",
	"--testTimeout=0", "--hookTimeout=0", "--reporter=default"}

// vitestFramework runs the project's own Vitest under the JavaScript
// adapter, its test in one worker thread. Vitest's expect throws chai's
// AssertionError inside chai, the one dependency the debugger sees: the
// stop is taken there and answered in the test's frame; an error the
// code under test throws is taken where it is thrown. Vitest transforms
// the test files; their inline source maps bind breakpoints and frames
// to the user's lines.
func vitestFramework() *Framework {
	return &Framework{
		Name:     "vitest",
		Language: "javascript",
		Detect:   detectVitest,
		List:     listVitest,
		Plan:     planVitest,
		Message:  vitestMessage,
		UserFile: jsUserFile,
		Claims:   jsClaims,
		FileIDs:  true,
		Accept:   vitestAccept,
	}
}

var (
	vitestConfigs = []string{"vitest.config.js", "vitest.config.mjs", "vitest.config.cjs", "vitest.config.ts", "vitest.config.mts", "vitest.config.cts"}
	viteConfigs   = []string{"vite.config.js", "vite.config.mjs", "vite.config.cjs", "vite.config.ts", "vite.config.mts", "vite.config.cts"}
	jestConfigs   = []string{"jest.config.js", "jest.config.cjs", "jest.config.mjs", "jest.config.ts", "jest.config.json"}
	// viteTestSection is a Vite config's test section.
	viteTestSection = regexp.MustCompile(`(^|[\s,{])test\s*:\s*\{`)
	vitestWord      = regexp.MustCompile(`\bvitest\b`)
	jestWord        = regexp.MustCompile(`\bjest\b`)
)

// packageJSON is what detection reads of a package.json.
type packageJSON struct {
	Scripts         map[string]string `json:"scripts"`
	Dependencies    map[string]string `json:"dependencies"`
	DevDependencies map[string]string `json:"devDependencies"`
}

func readPackageJSON(dir string) (packageJSON, bool) {
	var pkg packageJSON
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	return pkg, err == nil && json.Unmarshal(b, &pkg) == nil
}

// detectVitest: a Vitest config, a Vite config with a test section, or
// vitest in package.json; and in a project that also has Jest, Vitest is
// what it uses.
func detectVitest(dir string) bool {
	return hasVitest(dir) && (!detectJest(dir) || jsRunner(dir) != "jest")
}

// hasVitest reports the signs of Vitest in a project: its config, a Vite
// config with a test section, vitest a dependency or a script's command.
func hasVitest(dir string) bool {
	if anyExists(dir, vitestConfigs) {
		return true
	}
	for _, f := range viteConfigs {
		if b, err := os.ReadFile(filepath.Join(dir, f)); err == nil && viteTestSection.Match(b) {
			return true
		}
	}
	return packageUses(dir, "vitest", vitestWord)
}

// jsRunner is the runner a project that has both Jest and Vitest uses:
// the one its test script runs, else the one it has a config file of,
// else vitest when its test files import it; "" when nothing tells (or
// the project does not have both).
func jsRunner(dir string) string {
	if !hasVitest(dir) || !detectJest(dir) {
		return ""
	}
	if pkg, ok := readPackageJSON(dir); ok {
		script := pkg.Scripts["test"]
		if v, j := vitestWord.MatchString(script), jestWord.MatchString(script); v != j {
			if v {
				return "vitest"
			}
			return "jest"
		}
	}
	if v, j := anyExists(dir, vitestConfigs), anyExists(dir, jestConfigs); v != j {
		if v {
			return "vitest"
		}
		return "jest"
	}
	if len(jsTestFiles(dir, "from 'vitest'", 1)) > 0 || len(jsTestFiles(dir, `from "vitest"`, 1)) > 0 {
		return "vitest"
	}
	return ""
}

// anyExists reports whether one of names exists in dir.
func anyExists(dir string, names []string) bool {
	for _, f := range names {
		if exists(dir, f) {
			return true
		}
	}
	return false
}

func vitestEnvOf(p *Project) map[string]string { return mergeEnv(vitestEnv, p.Env) }

// vitestCommand is the project's Vitest, or an error saying how to
// install it.
func vitestCommand(p *Project) (string, error) { return projectBin(p, "Vitest", vitestBin) }

// projectBin is the runner's script rel in the project, or an error
// saying how to install it.
func projectBin(p *Project, runner, rel string) (string, error) {
	bin := filepath.Join(p.Dir, rel)
	if _, err := os.Stat(bin); err != nil {
		return "", fmt.Errorf("the project has no %s installed (%s): run npm install in %s", runner, rel, p.Dir)
	}
	return bin, nil
}

// vitestTest is one test of `vitest list --json`: its full name, suites
// joined by " > ", and its absolute file.
type vitestTest struct {
	Name string `json:"name"`
	File string `json:"file"`
}

// listVitest is `vitest list --json`, written to a file: the console
// keeps Vitest's own messages.
func listVitest(ctx context.Context, p *Project, path string) ([]TestID, error) {
	bin, err := vitestCommand(p)
	if err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp("", "dbg-vitest-*.json")
	if err != nil {
		return nil, fmt.Errorf("vitest list: %w", err)
	}
	out := tmp.Name()
	_ = tmp.Close()
	defer os.Remove(out)
	argv := []string{"node", bin, "list", "--json=" + out}
	if path != "" {
		argv = append(argv, path) // a file filter: the files whose path holds it
	}
	res, err := run(ctx, p.Dir, vitestEnvOf(p), argv)
	if err != nil {
		return nil, fmt.Errorf("vitest: %w", err)
	}
	b, rerr := os.ReadFile(out)
	if rerr != nil || res.ExitCode != 0 {
		return nil, &BuildError{Tool: "vitest", Output: res.Output}
	}
	return vitestIDs(p.Dir, b)
}

// vitestIDs reads the tests of `vitest list --json`.
func vitestIDs(dir string, report []byte) ([]TestID, error) {
	var tests []vitestTest
	if err := json.Unmarshal(report, &tests); err != nil {
		return nil, &BuildError{Tool: "vitest", Output: "vitest list --json: " + err.Error(), Usage: true}
	}
	ids := make([]TestID, 0, len(tests))
	for _, t := range tests {
		rel, err := filepath.Rel(dir, t.File)
		if err != nil {
			rel = t.File
		}
		rel = filepath.ToSlash(rel)
		ids = append(ids, TestID{ID: rel + "::" + t.Name, File: rel})
	}
	return ids, nil
}

// vitestNamePattern selects one test by its full name: Vitest matches
// the pattern against the suites' and the test's names joined by spaces.
func vitestNamePattern(name string) string {
	return "^" + regexp.QuoteMeta(strings.Join(strings.Split(name, " > "), " ")) + "$"
}

func planVitest(_ context.Context, p *Project, id TestID, stopAt StopAt) (*Plan, error) {
	bin, err := vitestCommand(p)
	if err != nil {
		return nil, err
	}
	file, name, _ := strings.Cut(id.ID, "::")
	// The file filter is the absolute path: Vitest keeps the test files
	// whose path holds a filter, which only this one does (and one whose
	// name extends it, a.test.jsx for a.test.js).
	args := append(append([]string{}, vitestRunArgs...), "--testNamePattern="+vitestNamePattern(name), filepath.Join(p.Dir, filepath.FromSlash(file)))
	return jsPlan(p, id, stopAt, sessions.StartRequest{ScriptPath: bin, Args: args, Env: vitestEnvOf(p),
		// The test runs in the worker: the main thread's exceptions (node's
		// ESM loader throws and catches one for every bare import) need
		// not stop it.
		DAPLaunchArgs: map[string]any{"skipFiles": jsSkipFiles(p.Dir, vitestThrowers), "exceptionThreads": "workers"}},
		append([]string{"node", vitestBin}, args...))
}

// vitestThrowers are the packages whose throws are failures: chai's
// AssertionError, which Vitest's expect throws.
var vitestThrowers = map[string]bool{"chai": true}

// chaiClass is the class of chai's AssertionError as its bundle names it
// ("_AssertionError"), which the adapter puts before the error's text.
const chaiClass = "_AssertionError: "

// chaiText is a stop's text without chai's class name before it.
func chaiText(t string) string {
	if rest, ok := strings.CutPrefix(t, chaiClass); ok && strings.HasPrefix(rest, "AssertionError") {
		return rest
	}
	return t
}

// vitestAccept: chai's AssertionError, or what jsAccept takes.
func vitestAccept(r *failureReader) bool {
	return strings.HasPrefix(chaiText(r.stop.Text), "AssertionError") || jsAccept(r)
}

// vitestMessage is the AssertionError's text, with the expected and
// actual values read from chai's frame that throws it.
func vitestMessage(ctx context.Context, r *failureReader) Failure {
	f := jsMessage(ctx, r)
	f.Message = chaiText(f.Message)
	readExpectedActual(ctx, r, &f, "assertionErrorObjectProperties.expected", "assertionErrorObjectProperties.actual")
	return f
}
