package testrun

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
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
	}
}

func detectPytest(dir string) bool {
	for _, f := range []string{"pytest.ini", "conftest.py", "tests/conftest.py"} {
		if exists(dir, f) {
			return true
		}
	}
	for f, marker := range map[string]string{"pyproject.toml": "[tool.pytest", "setup.cfg": "[tool:pytest]", "tox.ini": "[pytest]"} {
		if b, err := os.ReadFile(filepath.Join(dir, f)); err == nil && strings.Contains(string(b), marker) {
			return true
		}
	}
	for _, pat := range []string{"test_*.py", "tests/test_*.py", "tests/*_test.py", "test/test_*.py"} {
		if m, _ := filepath.Glob(filepath.Join(dir, pat)); len(m) > 0 {
			return true
		}
	}
	return false
}

func pytestEnvOf(p *Project) map[string]string { return mergeEnv(pytestEnv, p.Env) }

// listPytest runs `pytest --collect-only -q`: one node id per line. path,
// when given, is the file or directory collected, else the project.
func listPytest(ctx context.Context, p *Project, path string) ([]TestID, error) {
	argv := append([]string{p.Python, "-m", "pytest", "--collect-only"}, pytestArgs...)
	if path != "" {
		argv = append(argv, "--", path)
	}
	res, err := run(ctx, p.Dir, pytestEnvOf(p), argv)
	if err != nil {
		return nil, fmt.Errorf("pytest --collect-only: %w", err)
	}
	var ids []TestID
	for _, line := range strings.Split(res.Output, "\n") {
		line = strings.TrimSpace(line)
		if strings.Contains(line, "::") && !strings.Contains(line, " ") {
			file, _, _ := strings.Cut(line, "::")
			ids = append(ids, TestID{ID: line, File: file})
		}
	}
	switch res.ExitCode {
	case 0, 5: // 5: no tests collected
		return ids, nil
	case 1, 2: // 2: collection errors (a test module that does not import)
		return ids, &BuildError{Tool: "pytest", Output: res.Output}
	}
	return nil, &BuildError{Tool: "pytest", Output: res.Output, Usage: true}
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
