package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/internal/dbgtest"
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
	dbgtest.WaitFor(t, d, what, ok)
}

// When the tests do not import, debug_test answers the collection error,
// and no process of the run outlives the answer: neither the run nor
// what it started and forgot (the fixture's conftest starts a process
// that leaves the run's tree). They are counted by a mark of the test's
// own in their environment, so that other processes on the machine do
// not count. Both starts: by itself, and forked from the fork server
// (learnt from a failing run of another project).
func TestDebugTestPytestLeavesNoProcess(t *testing.T) {
	requirePytest(t)
	t.Parallel()
	for _, forked := range []bool{false, true} {
		t.Run(map[bool]string{false: "alone", true: "forked"}[forked], func(t *testing.T) {
			t.Parallel()
			c := startDbg(t, "DBG_WARM_ADAPTERS="+map[bool]string{false: "0", true: "1"}[forked])
			if forked {
				r := c.ok("debug_test", map[string]any{"projectPath": fixture(t, "tests/pytest"), "test": "tests/test_cart.py::test_total_wrong"})
				c.ok("close_debug_session", map[string]any{"sessionId": r.str("sessionId")})
				argv, _ := proc.Cmdline(idleAdapter(t, c, "--zygote", nil))
				waitFor(t, 30*time.Second, "fork server's socket", func() bool { _, err := os.Stat(argv[len(argv)-2]); return err == nil })
			}
			mark := fmt.Sprintf("leak-%d-%d", os.Getpid(), time.Now().UnixNano())
			dir := copyTree(t, fixture(t, "tests/pytest-noimport"))
			r := c.fail("debug_test", map[string]any{"projectPath": dir, "test": "test_orders.py::test_orders", "env": map[string]any{"DBG_TEST_LEAK": mark}}, "INVALID_ARGUMENT")
			if !strings.Contains(r.Error.Message, "No module named 'nosuchmodule'") {
				t.Fatalf("the collection error: %+v", r.Error)
			}
			waitFor(t, 10*time.Second, "end of the run's processes", func() bool { return len(withEnv("DBG_TEST_LEAK="+mark)) == 0 })
			if n := len(c.ok("list_debug_sessions", nil).list("sessions")); n != 0 {
				t.Fatalf("a refused run left %d session(s)", n)
			}
		})
	}
}

// withEnv lists the processes whose environment holds entry.
func withEnv(entry string) []int {
	var out []int
	for _, p := range proc.PIDs() {
		if env, err := proc.Environ(p); err == nil && slices.Contains(env, entry) {
			out = append(out, p)
		}
	}
	return out
}

// A RecursionError ends the debugger's tracing where the program
// overflowed, so the run cannot stop there: debug_test runs the test
// again and stops where the cycle's first frame first repeats, with the
// cycle and its depth in the answer, for a function that calls itself
// and for two that call each other.
func TestDebugTestPytestRecursion(t *testing.T) {
	requirePytest(t)
	t.Parallel()
	c := startDbg(t)
	dir := fixture(t, "tests/pytest-recursion")
	file := filepath.Join(dir, "walk.py")
	for _, tc := range []struct {
		id, line string
		cycle    []string // function:line
		frames   []string
		local    string // a local of the stop's frame, and its value
		value    string
	}{
		{"test_walk.py::test_length_of_a_loop", `return 1 + length(node.get("next"))`, []string{"length:5"}, []string{"length", "length", "test_length_of_a_loop"}, "node['name']", "'b'"},
		{"test_walk.py::test_even_below_zero", "return n == 0 or is_odd(n - 1)", []string{"is_even:9", "is_odd:13"}, []string{"is_even", "is_odd", "is_even", "test_even_below_zero"}, "n", "-4"},
	} {
		t.Run(tc.id, func(t *testing.T) {
			r := c.with(t).ok("debug_test", map[string]any{"projectPath": dir, "test": tc.id})
			id := r.str("sessionId")
			if id == "" || r.str("outcome") != "failed" || !strings.HasPrefix(r.str("message"), "RecursionError: maximum recursion depth exceeded") {
				t.Fatalf("debug_test %s: %v", tc.id, r)
			}
			defer c.ok("close_debug_session", map[string]any{"sessionId": id})
			if r.str("location.file") != file || r.num("location.line") != mcpLine(t, file, tc.line) {
				t.Fatalf("stopped at %s:%d, want %s at %q", r.str("location.file"), r.num("location.line"), file, tc.line)
			}
			var cycle, frames []string
			for _, f := range r.list("recursion.cycle") {
				if f.str("file") != file {
					t.Fatalf("cycle frame %v is not in %s", f, file)
				}
				cycle = append(cycle, fmt.Sprintf("%s:%d", f.str("function"), f.num("line")))
			}
			for _, f := range r.list("frames") {
				frames = append(frames, f.str("name"))
			}
			if !slices.Equal(cycle, tc.cycle) || !slices.Equal(frames, tc.frames) {
				t.Fatalf("cycle %v frames %v, want %v and %v", cycle, frames, tc.cycle, tc.frames)
			}
			// Python counts every frame against its limit: the cycle's
			// frames are most of them, never more.
			if d, limit := r.num("recursion.depth"), r.num("recursion.limit"); limit != 1000 || d < limit/2 || d >= limit {
				t.Fatalf("recursion depth %d of limit %d", d, limit)
			}
			if got := mcpEval(t, c.with(t), id, tc.local); got != tc.value {
				t.Fatalf("%s = %s at the first repeat, want %s", tc.local, got, tc.value)
			}
		})
	}
}
