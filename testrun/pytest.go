package testrun

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/dbg-dev/dbg/sessions"
)

// pytestEnv keeps a run from writing caches into the project.
var pytestEnv = map[string]string{"PYTHONDONTWRITEBYTECODE": "1"}

// pytestArgs are the options of every pytest run: no cache directory
// written into the project, and output both captured (for pytest's own
// report) and shown as it is printed.
var pytestArgs = []string{"-p", "no:cacheprovider", "--capture=tee-sys", "-q"}

// pytestFramework runs pytest under debugpy. The failure is caught by
// debugpy's "userUnhandled" exception filter with justMyCode: it stops
// where an exception leaves the user's code for pytest's, so an assertion
// or an error raised by the code under test stops in the user's frame and
// never in pytest.
func pytestFramework() *Framework {
	return &Framework{
		Name:     "pytest",
		Language: "python",
		Detect:   detectPytest,
		List:     listPytest,
		Plan:     planPytest,
		Message:  pythonMessage,
		UserFile: pythonUserFile,
		Internal: pytestLocal,
		Claims:   func(id string) bool { f, _, _ := strings.Cut(id, "::"); return strings.HasSuffix(f, ".py") },
		FileIDs:  true,
		Paused:   func(p *Project, s *sessions.Session) { p.boot.learn(p.Python, s.Info().PID) },
		Ended:    pytestEnded,
		Rerun:    pytestRerun,
		Accept:   pytestAccept,
	}
}

// detectPytest: a pytest configuration or conftest, or test modules
// pytest runs (unittest's TestCase classes included).
func detectPytest(dir string) bool {
	if exists(dir, "conftest.py") || exists(dir, "tests/conftest.py") {
		return true
	}
	cfg := readPytestConfig(dir)
	return cfg.Found || len(pytestFiles(dir, cfg, 1)) > 0
}

// pytestEnded reads how a pytest run that never stopped ended: a
// collection error (exit code 2, or 4 for an id in a file that does not
// import) is tests that do not build; 4 with "not found" is an id pytest
// does not know, 5 an id that selects no test.
func pytestEnded(out string, code int) (missing bool, build *BuildError) {
	collecting := strings.Contains(out, "ERROR collecting") || strings.Contains(out, "during collection") || strings.Contains(out, "while loading conftest")
	switch {
	case collecting && (code == 2 || code == 4):
		// An id in a file that does not import is "found no collectors"
		// (4), after the collection error.
		return false, &BuildError{Tool: "pytest", Output: out}
	case code == 5 || code == 4 && (strings.Contains(out, "ERROR: not found:") || strings.Contains(out, "ERROR: file or directory not found:")):
		return true, nil
	case code == 2:
		return false, &BuildError{Tool: "pytest", Output: out}
	case code == 3 || code == 4:
		return false, &BuildError{Tool: "pytest", Output: out, Usage: true}
	}
	return false, nil
}

// pytestAccept: an exception that leaves the user's code while pytest
// imports it (a test module or conftest that does not import: only
// module-level frames of the user's, debugpy showing no others) is not
// the test's failure; the run goes on, and pytest reports it as the
// collection error it is.
func pytestAccept(r *failureReader) bool {
	for _, f := range r.frames {
		if frameName(f.Name) != "<module>" {
			return true
		}
	}
	return len(r.frames) == 0
}

func pytestEnvOf(p *Project) map[string]string { return mergeEnv(pytestEnv, p.Env) }

// listPytest runs `pytest --collect-only -q`: one node id per line. path,
// when given, is the file or directory collected, else the project's
// tests are: those pytest collects by itself and the test files it runs
// only when they are named (test.py, tests.py).
func listPytest(ctx context.Context, p *Project, path string) ([]TestID, error) {
	argv := append([]string{p.Python, "-m", "pytest", "--collect-only"}, pytestArgs...)
	if path != "" {
		argv = append(argv, "--", path)
	} else {
		// pytest collects a file outside python_files only when it is
		// named, and a file named beside a folder that holds it not at
		// all: the file's name joins python_files instead.
		cfg := readPytestConfig(p.Dir)
		if extra := pytestExtraFiles(pytestFiles(p.Dir, cfg, maxTestFiles), cfg); len(extra) > 0 {
			globs := append([]string{}, cfg.PythonFiles...)
			for _, f := range extra {
				if name := filepath.Base(f); !slices.Contains(globs, name) {
					globs = append(globs, name)
				}
			}
			argv = append(argv, "-o", "python_files="+strings.Join(globs, " "))
		}
	}
	res, err := run(ctx, p.Dir, pytestEnvOf(p), argv)
	if err != nil {
		return nil, fmt.Errorf("pytest --collect-only: %w", err)
	}
	ids := pytestIDs(res.Output)
	switch res.ExitCode {
	case 0, 5: // 5: no tests collected
		return ids, nil
	case 1, 2: // 2: collection errors (a test module that does not import)
		return ids, &BuildError{Tool: "pytest", Output: res.Output}
	}
	return nil, &BuildError{Tool: "pytest", Output: res.Output, Usage: true}
}

// pytestIDs reads the node ids of `pytest --collect-only -q`, once each.
func pytestIDs(out string) []TestID {
	var ids []TestID
	seen := map[string]bool{}
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(line)
		if strings.Contains(line, "::") && !strings.Contains(line, " ") && !seen[line] {
			seen[line] = true
			file, _, _ := strings.Cut(line, "::")
			ids = append(ids, TestID{ID: line, File: file})
		}
	}
	return ids
}

func planPytest(_ context.Context, p *Project, id TestID, stopAt StopAt) (*Plan, error) {
	jmc := true
	args := append([]string{id.ID}, pytestArgs...)
	pl := &Plan{
		// The launch resolves p.Python again, as the project's, and says
		// why; an ExecutablePath would say it was passed.
		Create: sessions.CreateRequest{Language: "python", Name: "test " + id.ID, JustMyCode: &jmc},
		Start: sessions.StartRequest{ScriptPath: "-m pytest", Args: args, Cwd: p.Dir, Env: pytestEnvOf(p),
			ExceptionFilters: []string{"userUnhandled"}},
		Command: append([]string{p.Python, "-m", "pytest"}, args...),
	}
	// debugpy's launcher runs dbg's start of pytest in place of its own,
	// through the fork server when one runs; dbg's start is not the
	// user's code.
	if script, dir, err := pytestBootScript(); err == nil && p.RunsThrough {
		pl.Start.Through = []string{"-X", "frozen_modules=off", script}
		pl.Start.DAPLaunchArgs = map[string]any{"rules": []map[string]any{{"path": filepath.Join(dir, "*"), "include": false}}}
		extra := map[string]string{}
		if sock := p.boot.socket(p.Python); sock != "" {
			extra[zygoteEnv] = sock
		}
		if pl.Report = pytestReportFile(dir); pl.Report != "" {
			extra[pytestReportEnv] = pl.Report
		}
		pl.Start.Env = mergeEnv(pl.Start.Env, extra)
	}
	if stopAt.Mode == StopStart {
		file, line, err := pythonTestStart(p.Dir, id.ID)
		if err != nil {
			return nil, err
		}
		pl.Breakpoints = append(pl.Breakpoints, sessions.BreakpointSpec{File: file, Line: line})
	}
	return pl, nil
}

// pythonTestStart finds the first line of the body of the test function
// a node id names ("tests/test_x.py::TestC::test_m[1-2]").
func pythonTestStart(dir, id string) (string, int, error) {
	parts := strings.Split(id, "::")
	file := filepath.Join(dir, parts[0])
	name, _, _ := strings.Cut(parts[len(parts)-1], "[")
	b, err := os.ReadFile(file)
	if err != nil {
		return "", 0, fmt.Errorf("read %s: %w", parts[0], err)
	}
	lines := strings.Split(string(b), "\n")
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if !strings.HasPrefix(t, "def "+name+"(") && !strings.HasPrefix(t, "async def "+name+"(") {
			continue
		}
		// The body starts after the line that ends the signature.
		j := i
		for j < len(lines) && !strings.HasSuffix(strings.TrimSpace(lines[j]), ":") {
			j++
		}
		for j++; j < len(lines); j++ {
			if s := strings.TrimSpace(lines[j]); s != "" && !strings.HasPrefix(s, "#") {
				return file, j + 1, nil
			}
		}
	}
	return "", 0, fmt.Errorf("no function %s in %s", name, parts[0])
}

// pythonMessage is the exception's text: pytest's rewritten assertion
// ("AssertionError: assert 5 == 6") or the code under test's error.
func pythonMessage(_ context.Context, r *failureReader) Failure {
	return Failure{Message: debugpyNote.ReplaceAllString(r.stop.Text, "")}
}

// debugpyNote is what debugpy adds to the exception's name when it pauses
// in another frame than the raising one.
var debugpyNote = regexp.MustCompile(`\s*\(note: full exception trace is shown but execution is paused at: [^)]*\)`)

// pytestLocal reports the locals pytest's assertion rewriting adds
// ("@py_assert1").
func pytestLocal(name string) bool { return strings.HasPrefix(name, "@py_") }

// pythonUserFile: the project's files, not its virtual environment's.
func pythonUserFile(p *Project, file string) bool {
	if !under(file, p.Dir) {
		return false
	}
	for _, dep := range []string{"site-packages", "dist-packages", ".venv", "venv", ".tox"} {
		if strings.Contains(file, string(filepath.Separator)+dep+string(filepath.Separator)) {
			return false
		}
	}
	return true
}
