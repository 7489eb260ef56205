package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// debug_test's pytest cases beyond the fixture table of
// e2e_debugtest_test.go: test files as projects lay them out, failures
// without a raising line, processes a run leaves, and the fork server.

// testIDs are the ids of a list_tests answer.
func testIDs(r obj) []string {
	var out []string
	for _, x := range r.list("tests") {
		out = append(out, x.str("id"))
	}
	return out
}

// A flat folder of code.py and test.py (unittest classes), which
// `pytest test.py` runs: list_tests finds its tests with no
// configuration, debug_test stops at the failing assertion with the
// project's own code.py (not the standard library's code module, which
// the debugger imports), and an unknown id is offered the real ones.
func TestDebugTestPytestFlatFolder(t *testing.T) {
	requirePytest(t)
	t.Parallel()
	c := startDbg(t)
	// A copy: inside the repository the folder would belong to its project.
	dir := copyTree(t, fixture(t, "tests/pytest-flat"))
	want := []string{"test.py::TestAdd::test_add", "test.py::TestAdd::test_zero"}
	if got := testIDs(c.ok("list_tests", map[string]any{"projectPath": dir})); !slices.Equal(got, want) {
		t.Fatalf("list_tests = %v, want %v", got, want)
	}
	r := c.ok("debug_test", map[string]any{"projectPath": dir, "test": want[0]})
	id := r.str("sessionId")
	t.Cleanup(func() { c.call("close_debug_session", map[string]any{"sessionId": id}) })
	file := filepath.Join(dir, "test.py")
	if r.str("outcome") != "failed" || r.str("framework") != "pytest" || r.str("location.file") != file ||
		r.num("location.line") != mcpLine(t, file, "self.assertEqual(got, 4)") || !strings.Contains(r.str("message"), "0 != 4") {
		t.Fatalf("debug_test %s: %v", want[0], r)
	}
	if got := mcpEval(t, c, id, "add.__module__ + ':' + str(got)"); got != "'code:0'" {
		t.Fatalf("add's module and got = %s, want 'code:0' (the project's code.py)", got)
	}
	if got := mcpEval(t, c, id, "__import__('code').__file__"); got != "'"+filepath.Join(dir, "code.py")+"'" {
		t.Fatalf("the code module is %s, want the project's", got)
	}
	miss := c.fail("debug_test", map[string]any{"projectPath": dir, "test": "test.py::TestAdd::test_ad"}, "TEST_NOT_FOUND")
	if len(miss.Error.AvailableOptions) == 0 || miss.Error.AvailableOptions[0] != want[0] {
		t.Fatalf("TEST_NOT_FOUND offers %v, want %s first", miss.Error.AvailableOptions, want[0])
	}
}
