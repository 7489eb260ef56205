package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/proc"
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

// With the warm pool on, the pytest runs after a server's first are
// forked from its fork server, which imported debugpy and pytest once:
// the second run's test process is the fork server's child, in the
// process group of the start debugpy's launcher ran, and stops with the
// same values. Closing the session leaves only the fork server, and a
// SIGKILLed server takes it along.
func TestDebugTestPytestForkServer(t *testing.T) {
	requirePytest(t)
	t.Parallel()
	c := startDbg(t, "DBG_WARM_ADAPTERS=1")
	dir := fixture(t, "tests/pytest")
	file := filepath.Join(dir, "tests", "test_cart.py")
	line := mcpLine(t, file, "assert got == 6")
	run := func() (string, int) {
		t.Helper()
		r := c.ok("debug_test", map[string]any{"projectPath": dir, "test": "tests/test_cart.py::test_total_wrong"})
		id := r.str("sessionId") // closed by the test, or with the server
		if r.str("outcome") != "failed" || r.str("location.file") != file || r.num("location.line") != line || !strings.Contains(r.str("message"), "assert 5 == 6") {
			t.Fatalf("debug_test: %v", r)
		}
		if got := mcpEval(t, c, id, "got"); got != "5" {
			t.Fatalf("got = %s, want 5", got)
		}
		return id, c.ok("list_debug_sessions", nil).list("sessions")[0].num("pid")
	}
	first, _ := run()
	c.ok("close_debug_session", map[string]any{"sessionId": first})
	zygote := idleAdapter(t, c, "--zygote", nil)
	argv, _ := proc.Cmdline(zygote)
	waitFor(t, 30*time.Second, "the fork server's socket", func() bool { _, err := os.Stat(argv[len(argv)-2]); return err == nil })
	second, start := run()
	var forked []int
	for _, p := range childrenOf(zygote) {
		if g, err := syscall.Getpgid(p); err == nil && g == start {
			forked = append(forked, p)
		}
	}
	if len(forked) != 1 {
		t.Fatalf("the fork server's children in the start's group %d: %v (of %v)", start, forked, childrenOf(zygote))
	}
	c.ok("close_debug_session", map[string]any{"sessionId": second})
	waitGone(t, 10*time.Second, append(forked, start)...)
	if !processAlive(zygote) {
		t.Fatal("closing the session ended the fork server")
	}
	// The MCP client's transport reaps the killed server.
	if err := c.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	waitGone(t, 10*time.Second, zygote)
}

// waitFor waits until ok holds, or fails the test naming what.
func waitFor(t testing.TB, d time.Duration, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("no %s after %s", what, d)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
