package testrun

import (
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
)

func fixtures(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "testdata", "tests")
}

func TestTapTestsJoinsNestedNamesAndSkipsSuites(t *testing.T) {
	t.Parallel()
	out := "TAP version 13\n# Subtest: a\nok 1 - a\n# Subtest: pairs\n    # Subtest: 1 + 1\n    ok 1 - 1 + 1\n" +
		"    # Subtest: inner\n        # Subtest: deep\n        ok 1 - deep\n# Subtest: z\n"
	got := tapTests(out)
	want := []string{"a", "pairs > 1 + 1", "pairs > inner > deep", "z"}
	if !slices.Equal(got, want) {
		t.Fatalf("tapTests = %q, want %q", got, want)
	}
}

func TestGoRunPatternAnchorsEachLevel(t *testing.T) {
	t.Parallel()
	if got := goRunPattern("TestPairs/2+3"); got != `^TestPairs$/^2\+3$` {
		t.Fatalf("goRunPattern = %s", got)
	}
}

func TestGoLastLogIsTheLastLoggedMessage(t *testing.T) {
	t.Parallel()
	out := "=== RUN   TestX\n    x_test.go:5: checking\n    x_test.go:9: got 5,\n        want 6\nother\n"
	if got := goLastLog(out); got != "x_test.go:9: got 5,\nwant 6" {
		t.Fatalf("goLastLog = %q", got)
	}
	if got := goLastLog("=== RUN   TestX\n"); got != "" {
		t.Fatalf("goLastLog of no log = %q", got)
	}
}

func TestGoPanicValueDropsTheInterfaceWrapping(t *testing.T) {
	t.Parallel()
	if got := goPanicValue(`interface {}(string) "out of range"`); got != `"out of range"` {
		t.Fatalf("goPanicValue = %s", got)
	}
	if got := goPanicValue("42"); got != "42" {
		t.Fatalf("goPanicValue = %s", got)
	}
}

func TestGoRelPackage(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"example.com/shop": ".", "example.com/shop/cart": "./cart", "other/x": "other/x"} {
		if got := goRelPackage("example.com/shop", in); got != want {
			t.Errorf("goRelPackage(%s) = %s, want %s", in, got, want)
		}
	}
}

func TestClosestPutsTheNearestFirst(t *testing.T) {
	t.Parallel()
	ids := []TestID{{ID: "tests/a.py::test_total"}, {ID: "tests/a.py::test_pairs[1]"}, {ID: "tests/a.py::test_totals"}}
	got := closest("tests/a.py::test_totl", ids, 2)
	if len(got) != 2 || got[0] != "tests/a.py::test_total" {
		t.Fatalf("closest = %v", got)
	}
	if got := closest("x", nil, 3); got == nil || len(got) != 0 {
		t.Fatalf("closest of nothing = %#v, want an empty list", got)
	}
}

func TestPythonTestStartIsTheFirstBodyLine(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(fixtures(t), "pytest")
	file, line, err := pythonTestStart(dir, "tests/test_cart.py::test_pairs[2-3-6]")
	if err != nil || filepath.Base(file) != "test_cart.py" || line != 20 {
		t.Fatalf("pythonTestStart = %s:%d, %v; want test_cart.py:20", file, line, err)
	}
	if _, _, err := pythonTestStart(dir, "tests/test_cart.py::test_nothing"); err == nil {
		t.Fatal("pythonTestStart found a test that does not exist")
	}
}

func TestJSTestStartIsTheLineAfterTheDeclaration(t *testing.T) {
	t.Parallel()
	line, err := jsTestStart(filepath.Join(fixtures(t), "node", "test", "cart.test.js"), "total is wrong")
	if err != nil || line != 8 {
		t.Fatalf("jsTestStart = %d, %v; want 8", line, err)
	}
}

func TestStopAtRefusesUnknownModesAndBadBreakpoints(t *testing.T) {
	t.Parallel()
	for _, in := range []DebugTestInput{
		{StopAt: "middle"},
		{StopAt: "breakpoints"},
		{Breakpoints: []BreakpointInput{{File: "a.py"}}},
	} {
		_, err := stopAtOf(in)
		var te *toolkit.ToolError
		if err == nil || !asToolError(err, &te) || te.Code != toolkit.CodeInvalidArgument {
			t.Errorf("stopAtOf(%+v) = %v, want INVALID_ARGUMENT", in, err)
		}
	}
	st, err := stopAtOf(DebugTestInput{Breakpoints: []BreakpointInput{{File: "a.py", Line: 3}}})
	if err != nil || st.Mode != StopFailure || len(st.Breakpoints) != 1 {
		t.Fatalf("stopAtOf with a breakpoint = %+v, %v", st, err)
	}
}

func asToolError(err error, out **toolkit.ToolError) bool {
	te, ok := err.(*toolkit.ToolError)
	*out = te
	return ok
}

func TestPickFrameworkDetectsEachFixture(t *testing.T) {
	t.Parallel()
	for dir, want := range map[string]string{"pytest": "pytest", "go": "go", "node": "node", "jest": "jest", "cargo": "cargo", "rspec": "rspec", "minitest": "minitest", "mocha": "mocha"} {
		fw, err := pickFramework(filepath.Join(fixtures(t), dir), "", "", "", "")
		if err != nil || fw.Name != want {
			t.Errorf("%s: picked %v, %v; want %s", dir, fw, err, want)
		}
	}
	if _, err := pickFramework(t.TempDir(), "", "", "", ""); err == nil || !strings.Contains(err.Error(), "no test framework") {
		t.Errorf("an empty project: %v", err)
	}
	if _, err := pickFramework(t.TempDir(), "nope", "", "", ""); err == nil {
		t.Error("an unknown framework was accepted")
	}
	// A runner without support is named, with the way to debug its tests.
	for _, name := range []string{"", "tape"} {
		_, err := pickFramework(filepath.Join(fixtures(t), "tape"), name, "", "", "")
		var te *toolkit.ToolError
		if !asToolError(err, &te) || te.Code != toolkit.CodeUnsupported || !strings.Contains(te.Message, "tape") ||
			!slices.Equal(te.AvailableOptions, []string{"test/cart.test.js"}) || !strings.Contains(te.Hint, "start_debugging {scriptPath: test/cart.test.js}") {
			t.Errorf("framework %q of the tape fixture: %v", name, err)
		}
	}
	if err := asUnsupported(filepath.Join(fixtures(t), "tape"), nil, nil); err == nil {
		t.Error("an empty listing of the tape fixture is not refused")
	}
	if err := asUnsupported(filepath.Join(fixtures(t), "node"), nil, nil); err != nil {
		t.Errorf("an empty listing of a node:test project: %v", err)
	}
}

func TestMochaArgsSelectTheFullTitle(t *testing.T) {
	t.Parallel()
	got := mochaArgs(TestID{ID: "test/a.test.js::pairs > 2 + 3 (x)"})
	want := []string{"--timeout", "0", "--grep", `^pairs 2 \+ 3 \(x\)$`, "--", "test/a.test.js"}
	if !slices.Equal(got, want) {
		t.Fatalf("mochaArgs = %q, want %q", got, want)
	}
}

func TestUnderIsFalseOutsideAndForSiblings(t *testing.T) {
	t.Parallel()
	if !under("/p/a/b.go", "/p") || under("/p2/b.go", "/p") || under("/b.go", "/p") {
		t.Fatal("under is wrong")
	}
}

func TestStatusReportsTheFrameworksFound(t *testing.T) {
	t.Parallel()
	part := detectStatus(filepath.Join(fixtures(t), "pytest"))
	if len(part.Capabilities) != 1 || part.Capabilities[0].State != toolkit.Available || !strings.Contains(part.Capabilities[0].Reason, "pytest") {
		t.Fatalf("status of the pytest fixture: %+v", part.Capabilities)
	}
	// With no session open, the next action is debug_test, ahead of the
	// sessions' "create a session" (priority 10).
	if len(part.Suggestions) != 1 || part.Suggestions[0].Action != toolkit.NextCreateDebugSession || part.Suggestions[0].Priority <= 10 ||
		!strings.Contains(part.Suggestions[0].Hint, "debug_test") {
		t.Fatalf("suggestions of the pytest fixture: %+v", part.Suggestions)
	}
	if part := detectStatus(t.TempDir()); part.Capabilities[0].State != toolkit.NotConfigured || len(part.Suggestions) != 0 {
		t.Fatalf("status of an empty project: %+v", part)
	}
}

// What a project's run needs from its language comes from the adapter's
// declaration: pytest's interpreter is the one the Python adapter picks,
// a JUnit build's command line takes the Java adapter's agent, and a
// framework whose adapter declares neither gets neither.
func TestResolveAsksTheAdaptersDeclaration(t *testing.T) {
	t.Parallel()
	reg := adapters.Default()
	x := &Tests{m: sessions.NewManager(sessions.Config{Adapters: reg, Project: fixtures(t)})}
	py, _ := reg.Lookup("python")
	for dir, want := range map[string]Project{
		"pytest": {Python: py.Traits().Interpreter(t.Context(), adapters.Target{Mode: adapters.Launch, Cwd: filepath.Join(fixtures(t), "pytest")}).Path},
		"junit":  {Agent: "${jdwpAgent}"},
		"go":     {},
	} {
		p, fw, err := x.resolve(t.Context(), ProjectInput{ProjectPath: filepath.Join(fixtures(t), dir)}, "", "")
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		if p.Python != want.Python || p.Agent != want.Agent || (dir == "pytest") != (p.Python != "") {
			t.Errorf("%s (%s): python %q agent %q, want %q %q", dir, fw.Name, p.Python, p.Agent, want.Python, want.Agent)
		}
	}
}
