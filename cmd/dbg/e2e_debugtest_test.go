package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// The debug_test and list_tests end-to-end tests: one fixture project per
// framework under testdata/tests/<framework>, each with a test failing on
// an assertion in the test, one failing because the code under test
// raises or panics, a parametrised or table test and a passing test.

// testFixture is one framework's fixture project and what its tests do.
type testFixture struct {
	framework string
	// name, when set, names the fixture's subtest in place of framework
	// (a framework's second fixture).
	name    string
	dir     string // under testdata/tests
	require func(t *testing.T)
	// setup, when set, returns the project to run in place of the
	// fixture (a copy with the runner linked in).
	setup    func(t *testing.T, dir string) string
	pkg      string // the package the ids live in (Go)
	failing  []failingTest
	passing  string // a passing test's id
	printed  string // what the passing test prints
	listed   []string
	filter   string // a list_tests filter and the ids it keeps
	filtered []string
	missing  string // an id the runner does not know
	nearest  string // an id the TEST_NOT_FOUND error must offer
	broken   brokenFile
	// decl is the text of the line declaring the first failing test: with
	// stopAt start the run stops there or on the line after it.
	decl string
	// runner, when set, is an argument the answer's command must hold
	// (the runner the project's set-up picks).
	runner string
}

// failingTest is a failing test and where it must stop.
type failingTest struct {
	name    string
	id      string
	file    string // the stop's file, relative to the fixture
	line    string // the text of the stop's line
	message string // what the failure message holds
	local   string // a local of the failing frame
	value   string // its value
	// expected and actual, when set, are the values the answer must
	// report.
	expected, actual string
}

// brokenFile is an edit that breaks the build, and what the compiler
// then says.
type brokenFile struct {
	file, text, says string
}

func testFixtures() []testFixture {
	fxs := []testFixture{
		{
			framework: "pytest", dir: "pytest", decl: `def test_total_wrong():`, require: requirePytest,
			failing: []failingTest{
				{name: "assertion", id: "tests/test_cart.py::test_total_wrong", file: "tests/test_cart.py", line: "assert got == 6",
					message: "assert 5 == 6", local: "got", value: "5"},
				{name: "raises", id: "tests/test_cart.py::test_discount_raises", file: "cart.py", line: "raise ValueError",
					message: "ValueError: percent 150 is out of range", local: "percent", value: "150"},
				{name: "parametrised", id: "tests/test_cart.py::test_pairs[2-3-6]", file: "tests/test_cart.py", line: "assert got == want",
					message: "assert 5 == 6", local: "b", value: "3"},
			},
			passing: "tests/test_cart.py::test_passes", printed: "checking the discount",
			listed: []string{"tests/test_cart.py::test_total_wrong", "tests/test_cart.py::test_pairs[1-1-2]", "tests/test_cart.py::test_pairs[2-3-6]", "tests/test_cart.py::test_passes"},
			filter: "PAIRS", filtered: []string{"tests/test_cart.py::test_pairs[1-1-2]", "tests/test_cart.py::test_pairs[2-3-6]"},
			missing: "tests/test_cart.py::test_total_wrongg", nearest: "tests/test_cart.py::test_total_wrong",
			broken: brokenFile{file: "tests/test_cart.py", text: "\ndef test_broken(:\n    pass\n", says: "SyntaxError"},
		},
		{
			framework: "go", dir: "go", decl: `func TestTotalWrong(t *testing.T) {`, require: requireDelve, pkg: "./cart",
			failing: []failingTest{
				{name: "assertion", id: "TestTotalWrong", file: "cart/cart_test.go", line: `t.Errorf("Total(%v) = %d, want 6"`,
					message: "Total([2 3]) = 5, want 6", local: "got", value: "5"},
				{name: "raises", id: "TestDiscountPanics", file: "cart/cart.go", line: "panic(fmt.Sprintf",
					message: "percent 150 is out of range", local: "percent", value: "150"},
				{name: "parametrised", id: "TestPairs/wrong", file: "cart/cart_test.go", line: `t.Fatalf("got %d, want %d"`,
					message: "got 5, want 6", local: "got", value: "5"},
			},
			passing: "TestPasses", printed: "checking the discount",
			listed: []string{"TestTotalWrong", "TestDiscountPanics", "TestPairs", "TestPairs/ones", "TestPairs/wrong", "TestPasses"},
			filter: "pairs", filtered: []string{"TestPairs", "TestPairs/ones", "TestPairs/wrong"},
			missing: "TestTotalWrang", nearest: "TestTotalWrong",
			broken: brokenFile{file: "cart/cart_test.go", text: "\nfunc TestBroken(t *testing.T) { nope() }\n", says: "undefined: nope"},
		},
		{
			framework: "node", dir: "node", decl: `test('total is wrong', () => {`, require: requireNode,
			failing: []failingTest{
				{name: "assertion", id: "test/cart.test.js::total is wrong", file: "test/cart.test.js", line: "assert.strictEqual(got, 6);",
					message: "Expected values to be strictly equal", local: "got", value: "5", expected: "6", actual: "5"},
				{name: "raises", id: "test/cart.test.js::discount throws", file: "cart.js", line: "throw new RangeError",
					message: "RangeError: percent 150 is out of range", local: "percent", value: "150"},
				{name: "parametrised", id: "test/cart.test.js::pairs > 2 + 3", file: "test/cart.test.js", line: "assert.strictEqual(got, want);",
					message: "Expected values to be strictly equal", local: "got", value: "5", expected: "6", actual: "5"},
			},
			passing: "test/cart.test.js::passes", printed: "checking the discount",
			listed: []string{"test/cart.test.js::total is wrong", "test/cart.test.js::pairs > 1 + 1", "test/cart.test.js::pairs > 2 + 3", "test/cart.test.js::passes"},
			filter: "PAIRS", filtered: []string{"test/cart.test.js::pairs > 1 + 1", "test/cart.test.js::pairs > 2 + 3"},
			missing: "test/cart.test.js::total is wrongg", nearest: "test/cart.test.js::total is wrong",
			broken: brokenFile{file: "test/cart.test.js", text: "\ntest('broken', () => {\n", says: "SyntaxError"},
		},
		{
			framework: "jest", dir: "jest", decl: `test('total is wrong', () => {`, require: requireNode, setup: withJest,
			failing: []failingTest{
				{name: "assertion", id: "__tests__/cart.test.js::total is wrong", file: "__tests__/cart.test.js", line: "expect(got).toBe(6);",
					message: "expect(received).toBe(expected)", local: "got", value: "5", expected: "6", actual: "5"},
				{name: "raises", id: "__tests__/cart.test.js::discount throws", file: "cart.js", line: "throw new RangeError",
					message: "RangeError: percent 150 is out of range", local: "percent", value: "150"},
				{name: "parametrised", id: "__tests__/cart.test.js::pairs > 2 + 3", file: "__tests__/cart.test.js", line: "expect(got).toBe(want);",
					message: "expect(received).toBe(expected)", local: "got", value: "5", expected: "6", actual: "5"},
			},
			passing: "__tests__/cart.test.js::passes", printed: "checking the discount",
			listed: []string{"__tests__/cart.test.js::total is wrong", "__tests__/cart.test.js::pairs > 1 + 1", "__tests__/cart.test.js::pairs > 2 + 3", "__tests__/cart.test.js::passes"},
			filter: "PAIRS", filtered: []string{"__tests__/cart.test.js::pairs > 1 + 1", "__tests__/cart.test.js::pairs > 2 + 3"},
			missing: "__tests__/cart.test.js::total is wrongg", nearest: "__tests__/cart.test.js::total is wrong",
			broken: brokenFile{file: "__tests__/cart.test.js", text: "\ntest('broken', () => {\n", says: "SyntaxError"},
		},
		{
			framework: "vitest", dir: "vitest", decl: `test('total is wrong', () => {`, require: requireNode, setup: withVitest,
			failing: []failingTest{
				{name: "assertion", id: "test/cart.test.js::total is wrong", file: "test/cart.test.js", line: "expect(got).toBe(6);",
					message: "AssertionError: expected 5 to be 6", local: "got", value: "5", expected: "6", actual: "5"},
				{name: "raises", id: "test/cart.test.js::discount throws", file: "cart.js", line: "throw new RangeError",
					message: "RangeError: percent 150 is out of range", local: "percent", value: "150"},
				{name: "parametrised", id: "test/cart.test.js::pairs > 2 + 3", file: "test/cart.test.js", line: "expect(got).toBe(want);",
					message: "AssertionError: expected 5 to be 6", local: "got", value: "5", expected: "6", actual: "5"},
			},
			passing: "test/cart.test.js::passes", printed: "checking the discount",
			listed: []string{"test/cart.test.js::total is wrong", "test/cart.test.js::pairs > 1 + 1", "test/cart.test.js::pairs > 2 + 3", "test/cart.test.js::passes"},
			filter: "PAIRS", filtered: []string{"test/cart.test.js::pairs > 1 + 1", "test/cart.test.js::pairs > 2 + 3"},
			missing: "test/cart.test.js::total is wrongg", nearest: "test/cart.test.js::total is wrong",
			// Vite parses the file before it runs: its message names the
			// syntax error so.
			broken: brokenFile{file: "test/cart.test.js", text: "\ntest('broken', () => {\n", says: "invalid JS syntax"},
		},
		{
			framework: "mocha", dir: "mocha", decl: `it('total is wrong', () => {`, require: requireNode, setup: withMocha,
			failing: []failingTest{
				{name: "assertion", id: "test/cart.test.js::total is wrong", file: "test/cart.test.js", line: "assert.strictEqual(got, 6);",
					message: "Expected values to be strictly equal", local: "got", value: "5", expected: "6", actual: "5"},
				{name: "raises", id: "test/cart.test.js::discount throws", file: "cart.js", line: "throw new RangeError",
					message: "RangeError: percent 150 is out of range", local: "percent", value: "150"},
				{name: "parametrised", id: "test/cart.test.js::pairs > 2 + 3", file: "test/cart.test.js", line: "assert.strictEqual(got, want);",
					message: "Expected values to be strictly equal", local: "got", value: "5", expected: "6", actual: "5"},
			},
			passing: "test/cart.test.js::passes", printed: "checking the discount",
			listed: []string{"test/cart.test.js::total is wrong", "test/cart.test.js::pairs > 1 + 1", "test/cart.test.js::pairs > 2 + 3", "test/cart.test.js::passes"},
			filter: "PAIRS", filtered: []string{"test/cart.test.js::pairs > 1 + 1", "test/cart.test.js::pairs > 2 + 3"},
			missing: "test/cart.test.js::total is wrongg", nearest: "test/cart.test.js::total is wrong",
			broken: brokenFile{file: "test/cart.test.js", text: "\nit('broken', () => {\n", says: "SyntaxError"},
		},
		{
			framework: "cargo", dir: "cargo", decl: `fn total_wrong() {`, require: requireCargo, setup: copyTree,
			failing: []failingTest{
				{name: "assertion", id: "tests::total_wrong", file: "src/lib.rs", line: "assert_eq!(got, 6);",
					message: "left: 5\n right: 6", local: "got", value: "5"},
				{name: "raises", id: "tests::discount_panics", file: "src/lib.rs", line: `panic!("percent {percent} is out of range");`,
					message: "percent 150 is out of range", local: "percent", value: "150"},
				{name: "parametrised", id: "tests::pairs", file: "src/lib.rs", line: `assert_eq!(got, want, "total of {a} and {b}");`,
					message: "total of 2 and 3", local: "got", value: "5"},
			},
			passing: "tests::passes", printed: "checking the discount",
			listed: []string{"tests::total_wrong", "tests::discount_panics", "tests::pairs", "tests::passes"},
			filter: "PAIRS", filtered: []string{"tests::pairs"},
			missing: "tests::total_wrongg", nearest: "tests::total_wrong",
			broken: brokenFile{file: "src/lib.rs", text: "\npub fn broken() -> i64 { nope() }\n", says: "cannot find function `nope`"},
		},
		{
			framework: "rspec", dir: "rspec", decl: `it 'totals wrong' do`, require: requireRspec, setup: copyTree,
			failing: []failingTest{
				{name: "assertion", id: "spec/cart_spec.rb:4", file: "spec/cart_spec.rb", line: "expect(got).to eq(6)",
					message: "expected: 6", local: "got", value: "5"},
				{name: "raises", id: "spec/cart_spec.rb:11", file: "lib/cart.rb", line: "raise ArgumentError",
					message: "percent 150 is out of range", local: "percent", value: "150"},
				{name: "parametrised", id: "spec/cart_spec.rb[1:4]", file: "spec/cart_spec.rb", line: "expect(got).to eq(want)",
					message: "expected: 6", local: "got", value: "5"},
			},
			passing: "spec/cart_spec.rb:23", printed: "checking the discount",
			listed: []string{"spec/cart_spec.rb:4", "spec/cart_spec.rb[1:3]", "spec/cart_spec.rb[1:4]", "spec/cart_spec.rb:23"},
			filter: "[1:", filtered: []string{"spec/cart_spec.rb[1:3]", "spec/cart_spec.rb[1:4]"},
			missing: "spec/cart_spec.rb:5", nearest: "spec/cart_spec.rb:4",
			broken: brokenFile{file: "spec/cart_spec.rb", text: "\nit 'is broken' do\n", says: "SyntaxError"},
		},
		{
			framework: "minitest", dir: "minitest", decl: "def test_total_wrong", require: requireMinitest, setup: copyTree,
			failing: []failingTest{
				{name: "assertion", id: "CartTest#test_total_wrong", file: "test/cart_test.rb", line: "assert_equal 6, got",
					message: "Expected: 6", local: "got", value: "5"},
				{name: "raises", id: "CartTest#test_discount_raises", file: "lib/cart.rb", line: "raise ArgumentError",
					message: "percent 150 is out of range", local: "percent", value: "150"},
				{name: "parametrised", id: "CartTest#test_pair_2_3", file: "test/cart_test.rb", line: "assert_equal want, got",
					message: "Expected: 6", local: "got", value: "5"},
			},
			passing: "CartTest#test_passes", printed: "checking the discount",
			listed: []string{"CartTest#test_total_wrong", "CartTest#test_pair_1_1", "CartTest#test_pair_2_3", "CartTest#test_passes"},
			filter: "PAIR", filtered: []string{"CartTest#test_pair_1_1", "CartTest#test_pair_2_3"},
			missing: "CartTest#test_total_wrongg", nearest: "CartTest#test_total_wrong",
			broken: brokenFile{file: "test/cart_test.rb", text: "\ndef broken(\n", says: "syntax error"},
		},
		{
			framework: "junit", dir: "junit", decl: "void totalWrong() {", require: requireMaven, setup: copyTree,
			failing: []failingTest{
				{name: "assertion", id: "com.shop.CartTest#totalWrong", file: "src/test/java/com/shop/CartTest.java", line: "assertEquals(6, got);",
					message: "expected: <6> but was: <5>", local: "got", value: "5", expected: "6", actual: "5"},
				{name: "raises", id: "com.shop.CartTest#discountRaises", file: "src/main/java/com/shop/Cart.java", line: "throw new IllegalArgumentException",
					message: "percent 150 is out of range", local: "percent", value: "150"},
				{name: "parametrised", id: "com.shop.CartTest#pairs", file: "src/test/java/com/shop/CartTest.java", line: "assertEquals(want, got);",
					message: "expected: <6> but was: <5>", local: "got", value: "5", expected: "6", actual: "5"},
			},
			passing: "com.shop.CartTest#passes", printed: "checking the discount",
			listed: []string{"com.shop.CartTest#totalWrong", "com.shop.CartTest#discountRaises", "com.shop.CartTest#pairs", "com.shop.CartTest#passes"},
			filter: "PAIRS", filtered: []string{"com.shop.CartTest#pairs"},
			missing: "com.shop.CartTest#totalWrongg", nearest: "com.shop.CartTest#totalWrong",
			broken: brokenFile{file: "src/test/java/com/shop/CartTest.java", text: "\nclass Broken { int x = nope(); }\n", says: "cannot find symbol"},
		},
	}
	for _, fx := range fxs {
		if fx.framework == "junit" {
			return append(fxs, junitSurefire(fx))
		}
	}
	return fxs
}

// junitSurefire is the JUnit fixture as most projects are: only
// junit-jupiter and Surefire, so the tests run through Surefire's own
// forked JVM and discovery fetches the console launcher.
func junitSurefire(fx testFixture) testFixture {
	fx.name, fx.dir, fx.runner = "junit-surefire", "junit-surefire", "surefire:test@default-test"
	return fx
}

// title is the fixture's subtest name.
func (fx testFixture) title() string {
	if fx.name != "" {
		return fx.name
	}
	return fx.framework
}

// requireMaven: the JUnit fixture builds with the machine's Maven and a
// JDK, from the artifacts scripts/deps/tests.sh fetched.
func requireMaven(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"mvn", "java", "javac"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed (scripts/install-test-deps.sh installs Maven and a JDK)", tool)
		}
	}
}

func requireMinitest(t *testing.T) {
	t.Helper()
	requireRdbg(t)
	if err := exec.Command("ruby", "-e", `require "minitest"`).Run(); err != nil {
		t.Skip("minitest is not installed (it comes with Ruby)")
	}
}

func requireRspec(t *testing.T) {
	t.Helper()
	requireRdbg(t)
	if _, err := exec.LookPath("rspec"); err != nil {
		t.Skip("rspec is not installed (scripts/deps/tests.sh installs ruby-rspec)")
	}
}

// withJest copies the fixture project and links the pinned Jest in as its
// node_modules ($DBG_JEST_DIR, as scripts/deps/tests.sh installs it).
func withJest(t *testing.T, dir string) string {
	t.Helper()
	return withNodeModules(t, dir, "jest", "jest/bin/jest.js")
}

// withNodeModules copies the fixture project and links in, as its
// node_modules, the one of the runner's cache folder ($DBG_<RUNNER>_DIR,
// default ~/.cache/dbg-test/<runner>), which must hold bin.
func withNodeModules(t *testing.T, dir, runner, bin string) string {
	t.Helper()
	cache := os.Getenv("DBG_" + strings.ToUpper(runner) + "_DIR")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, ".cache", "dbg-test", runner)
	}
	if _, err := os.Stat(filepath.Join(cache, "node_modules", filepath.FromSlash(bin))); err != nil {
		t.Skipf("%s is not installed (scripts/install-test-deps.sh installs it)", runner)
	}
	cp := copyTree(t, dir)
	if err := os.Symlink(filepath.Join(cache, "node_modules"), filepath.Join(cp, "node_modules")); err != nil {
		t.Fatal(err)
	}
	return cp
}

// withMocha copies the fixture project and links the pinned Mocha in as
// its node_modules ($DBG_MOCHA_DIR, as scripts/deps/tests.sh installs
// it).
func withMocha(t *testing.T, dir string) string {
	t.Helper()
	return withNodeModules(t, dir, "mocha", "mocha/bin/mocha.js")
}

// withVitest copies the fixture project and links the pinned Vitest in
// as its node_modules ($DBG_VITEST_DIR, as scripts/deps/tests.sh installs
// it).
func withVitest(t *testing.T, dir string) string {
	t.Helper()
	return withNodeModules(t, dir, "vitest", "vitest/vitest.mjs")
}

func requirePytest(t *testing.T) {
	t.Helper()
	if err := exec.Command("python3", "-m", "pytest", "--version").Run(); err != nil {
		t.Skip("pytest is not installed (scripts/install-test-deps.sh installs it)")
	}
}

// mavenTurn lets one Maven fixture run at a time.
var mavenTurn sync.Mutex

// TestDebugTest runs every framework's fixture through list_tests and
// debug_test over MCP.
func TestDebugTest(t *testing.T) {
	t.Parallel()
	for _, fx := range testFixtures() {
		t.Run(fx.title(), func(t *testing.T) {
			t.Parallel()
			fx.require(t)
			if fx.framework == "junit" {
				// The Maven fixtures share the local repository, where
				// discovery fetches the console launcher: one at a time.
				mavenTurn.Lock()
				defer mavenTurn.Unlock()
			}
			c := startDbg(t)
			dir := fixture(t, filepath.Join("tests", fx.dir))
			if fx.setup != nil {
				dir = fx.setup(t, dir)
			}
			base := map[string]any{"projectPath": dir}
			if fx.pkg != "" {
				base["package"] = fx.pkg
			}
			args := func(kv ...any) map[string]any {
				m := map[string]any{}
				for k, v := range base {
					m[k] = v
				}
				for i := 0; i+1 < len(kv); i += 2 {
					m[kv[i].(string)] = kv[i+1]
				}
				return m
			}
			t.Run("list", func(t *testing.T) { checkListTests(t, c.with(t), fx, args) })
			for _, ft := range fx.failing {
				t.Run(ft.name, func(t *testing.T) { checkFailingTest(t, c.with(t), dir, fx, ft, args) })
			}
			t.Run("start", func(t *testing.T) { checkStartTest(t, c.with(t), dir, fx, args) })
			t.Run("restart", func(t *testing.T) { checkRestartTest(t, c.with(t), dir, fx.failing[0], args) })
			t.Run("passing", func(t *testing.T) {
				c := c.with(t)
				r := c.ok("debug_test", args("test", fx.passing))
				if r.str("outcome") != "passed" || r.str("sessionId") != "" || !strings.Contains(r.str("output"), fx.printed) {
					t.Fatalf("passing test: %v", r)
				}
				if n := len(c.ok("list_debug_sessions", nil).list("sessions")); n != 0 {
					t.Fatalf("a passed test left %d session(s)", n)
				}
				mcpNoChildren(t, c)
			})
			t.Run("missing", func(t *testing.T) {
				r := c.with(t).fail("debug_test", args("test", fx.missing), "TEST_NOT_FOUND")
				if !slices.Contains(r.Error.AvailableOptions, fx.nearest) || r.Error.AvailableOptions[0] != fx.nearest {
					t.Fatalf("TEST_NOT_FOUND offers %v, want %s first", r.Error.AvailableOptions, fx.nearest)
				}
			})
			t.Run("compile-error", func(t *testing.T) {
				broken := copyTree(t, dir)
				f := filepath.Join(broken, fx.broken.file)
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(f, append(b, fx.broken.text...), 0o644); err != nil {
					t.Fatal(err)
				}
				a := args("test", fx.failing[0].id)
				a["projectPath"] = broken
				r := c.with(t).fail("debug_test", a, "INVALID_ARGUMENT")
				if !strings.Contains(r.Error.Message, fx.broken.says) {
					t.Fatalf("compile error message %q does not hold the compiler's %q", r.Error.Message, fx.broken.says)
				}
			})
		})
	}
}

func checkListTests(t *testing.T, c *client, fx testFixture, args func(...any) map[string]any) {
	ids := func(r obj) []string {
		var out []string
		for _, x := range r.list("tests") {
			out = append(out, x.str("id"))
		}
		return out
	}
	st := c.ok("get_debug_tools_status", map[string]any{"projectPath": args()["projectPath"]})
	found := false
	for _, cp := range st.list("capabilities") {
		if cp.str("name") == "tests" {
			found = cp.str("state") == "AVAILABLE" && strings.Contains(cp.str("reason"), fx.framework)
		}
	}
	if !found {
		t.Fatalf("status reports no %s tests: %v", fx.framework, st.get("capabilities"))
	}
	// No session yet: a session's start goes where the tests section
	// points (another capability of the machine may come first: a JVM to
	// attach).
	if st.str("nextAction") == "CREATE_DEBUG_SESSION" && !strings.Contains(st.str("hint"), "debug_test") {
		t.Errorf("status with tests and no session: %s %q, want it through debug_test", st.str("nextAction"), st.str("hint"))
	}
	all := ids(c.ok("list_tests", args()))
	for _, want := range fx.listed {
		if !slices.Contains(all, want) {
			t.Fatalf("list_tests %v lacks %s", all, want)
		}
	}
	if got := ids(c.ok("list_tests", args("filter", fx.filter))); !slices.Equal(got, fx.filtered) {
		t.Fatalf("list_tests filter %q: %v, want %v", fx.filter, got, fx.filtered)
	}
	r := c.ok("list_tests", args("limit", 1))
	if r.num("count") != 1 || r.num("total") != len(all) || r.get("truncated") != true {
		t.Fatalf("list_tests limit 1: %v", r)
	}
}

func checkFailingTest(t *testing.T, c *client, dir string, fx testFixture, ft failingTest, args func(...any) map[string]any) {
	// id, as list_tests calls the test's id, names the test too.
	r := c.ok("debug_test", args("id", ft.id))
	id := r.str("sessionId")
	if id != "" {
		t.Cleanup(func() { c.call("close_debug_session", map[string]any{"sessionId": id}) })
	}
	if r.str("outcome") != "failed" || id == "" {
		t.Fatalf("debug_test %s: %v", ft.id, r)
	}
	if cmd, _ := r.get("command").([]any); fx.runner != "" && !slices.Contains(cmd, any(fx.runner)) {
		t.Fatalf("the test ran with %v, not through %s", cmd, fx.runner)
	}
	if ft.expected != "" && (r.str("expected") != ft.expected || r.str("actual") != ft.actual) {
		t.Fatalf("expected %q actual %q, want %q and %q", r.str("expected"), r.str("actual"), ft.expected, ft.actual)
	}
	file := filepath.Join(dir, ft.file)
	line := mcpLine(t, file, ft.line)
	if r.str("location.file") != file || r.num("location.line") != line {
		t.Fatalf("stopped at %s:%d, want %s:%d (%v)", r.str("location.file"), r.num("location.line"), file, line, r)
	}
	if !strings.Contains(r.str("message"), ft.message) {
		t.Fatalf("failure message %q does not hold %q", r.str("message"), ft.message)
	}
	// The interpreter says why it was picked: debug_test passes none.
	for _, ls := range c.ok("list_debug_sessions", nil).list("sessions") {
		if src := ls.str("interpreter.source"); src == "executablePath" {
			t.Errorf("session %s: interpreter %v, yet no executablePath was passed", ls.str("sessionId"), ls.get("interpreter"))
		}
	}
	// Calls naming no frame act in the frame the answer reports.
	if got := mcpEval(t, c, id, ft.local); got != ft.value {
		t.Errorf("evaluate %s without frameId = %q, want %s: the failing frame %s:%d", ft.local, got, ft.value, file, line)
	}
	if got := mcpLocals(t, c, id)[ft.local].str("value"); got != ft.value {
		t.Errorf("get_local_variables without frameId: %s = %q, want %s", ft.local, got, ft.value)
	}
	frames := r.list("frames")
	if len(frames) == 0 || len(frames) > 5 || frames[0].str("file") != file {
		t.Fatalf("user frames: %v", frames)
	}
	for _, f := range frames {
		if !strings.HasPrefix(f.str("file"), dir+string(filepath.Separator)) {
			t.Fatalf("frame %v is not the user's code", f)
		}
	}
	found := false
	for _, l := range frames[0].list("locals") {
		if l.str("name") == ft.local {
			found = true
			if l.str("value") != ft.value {
				t.Fatalf("local %s = %s, want %s", ft.local, l.str("value"), ft.value)
			}
		}
	}
	if !found {
		t.Fatalf("no local %s in %v", ft.local, frames[0])
	}
	ev := c.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": ft.local, "frameId": frames[0].num("frameId")})
	if ev.str("result") != ft.value {
		t.Fatalf("evaluate %s in the failing frame: %v, want %s", ft.local, ev, ft.value)
	}
	src := r.list("source")
	if len(src) == 0 {
		t.Fatalf("no source context: %v", r)
	}
	st := c.ok("get_debug_tools_status", map[string]any{"projectPath": dir})
	if st.str("nextAction") != "INSPECT_STOP" {
		t.Fatalf("status after a failed debug_test: nextAction %s, want INSPECT_STOP", st.str("nextAction"))
	}
	pids := mcpPIDs(t, c)
	step := c.ok("step_over", map[string]any{"sessionId": id})
	if s := step.str("state"); s != "paused" && s != "running" && s != "terminated" {
		t.Fatalf("step_over after the failure: %v", step)
	}
	runToEnd(t, c, id, step)
	mcpClose(t, c, id, pids)
}

// runToEnd continues the session until its program ends (a Go panic stops
// once more where the runtime reports it).
func runToEnd(t *testing.T, c *client, id string, st obj) {
	t.Helper()
	for range 4 {
		switch st.str("state") {
		case "terminated":
			return
		case "paused":
			st = c.ok("continue_execution", map[string]any{"sessionId": id})
		default:
			st = c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 60000})
		}
	}
	if st.str("state") != "terminated" {
		t.Fatalf("the test run did not end: %v", st)
	}
}

func checkRestartTest(t *testing.T, c *client, dir string, ft failingTest, args func(...any) map[string]any) {
	r := c.ok("debug_test", args("test", ft.id))
	id := r.str("sessionId")
	t.Cleanup(func() { c.call("close_debug_session", map[string]any{"sessionId": id}) })
	bps := len(c.ok("list_breakpoints", map[string]any{"sessionId": id}).list("breakpoints"))
	file := filepath.Join(dir, ft.file)
	// A breakpoint of the user's, kept across the restart: the run stops
	// there first.
	first := mcpLine(t, file, ft.line) - 1
	c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": file, "line": first})
	res := c.ok("restart_debugging", map[string]any{"sessionId": id})
	res = mcpPaused(t, c, id, res)
	if n := len(c.ok("list_breakpoints", map[string]any{"sessionId": id}).list("breakpoints")); n != bps+1 {
		t.Fatalf("after restart %d breakpoints, want %d", n, bps+1)
	}
	if res.str("lastStop.location.file") != file || res.num("lastStop.location.line") != first {
		t.Fatalf("restart stopped at %s:%d, want the breakpoint at %s:%d: %v", res.str("lastStop.location.file"), res.num("lastStop.location.line"), file, first, res)
	}
	cont := mcpPaused(t, c, id, c.ok("continue_execution", map[string]any{"sessionId": id}))
	if cont.str("lastStop.location.file") == file && cont.num("lastStop.location.line") == first {
		t.Fatalf("the restarted test did not reach its failure: %v", cont)
	}
	c.ok("close_debug_session", map[string]any{"sessionId": id})
	mcpNoChildren(t, c)
}

// copyTree copies the fixture project dir into a temporary directory.
func copyTree(t *testing.T, dir string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(dir))
	if out, err := exec.Command("cp", "-r", dir, dst).CombinedOutput(); err != nil {
		t.Fatalf("copy %s: %v: %s", dir, err, out)
	}
	return dst
}

// dbg test stops at the failure at the same prompt as dbg launch; a
// passing test prints its outcome and output.
func TestCLITest(t *testing.T) {
	t.Parallel()
	requireDelve(t)
	dir := fixture(t, "tests/go")
	cmd := exec.Command(dbgBinary, "test", "--project", dir, "--package", "./cart", "TestTotalWrong")
	cmd.Env = append(cmd.Environ(), "DBG_STATE_DIR="+t.TempDir())
	cmd.Stdin = strings.NewReader("print got\nbt\ncontinue\nquit\n")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	file := filepath.Join(dir, "cart", "cart_test.go")
	for _, want := range []string{"failed: cart_test.go:9: Total([2 3]) = 5, want 6 at " + file + ":9", "=>    9", "\n5\n",
		"#0 cart.TestTotalWrong at " + file + ":9", "closed"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	cmd = exec.Command(dbgBinary, "test", "--project", dir, "--package", "./cart", "TestPasses")
	cmd.Env = append(cmd.Environ(), "DBG_STATE_DIR="+t.TempDir())
	out, err = cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "passed (") || !strings.Contains(string(out), "checking the discount") {
		t.Fatalf("dbg test of a passing test: %v\n%s", err, out)
	}
}

// checkStartTest: stopAt start stops at the test's beginning, before the
// failure; continuing reaches the failure.
func checkStartTest(t *testing.T, c *client, dir string, fx testFixture, args func(...any) map[string]any) {
	ft := fx.failing[0]
	r := c.ok("debug_test", args("test", ft.id, "stopAt", "start"))
	id := r.str("sessionId")
	if id != "" {
		t.Cleanup(func() { c.call("close_debug_session", map[string]any{"sessionId": id}) })
	}
	file := filepath.Join(dir, ft.file)
	decl := mcpLine(t, file, fx.decl)
	if r.str("outcome") != "stopped" || r.str("location.file") != file || (r.num("location.line") != decl && r.num("location.line") != decl+1) {
		t.Fatalf("stopAt start: %v, want a stop at %s:%d or the line after", r, file, decl)
	}
	cont := mcpPaused(t, c, id, c.ok("continue_execution", map[string]any{"sessionId": id}))
	if cont.num("lastStop.location.line") == r.num("location.line") {
		t.Fatalf("continuing from the start did not reach the failure: %v", cont)
	}
}

// A Go test named without its package, in a module whose root has no Go
// files, is refused with the fix.
func TestDebugTestGoNeedsPackage(t *testing.T) {
	t.Parallel()
	requireDelve(t)
	c := startDbg(t)
	r := c.fail("debug_test", map[string]any{"projectPath": fixture(t, "tests/go"), "test": "TestTotalWrong"}, "INVALID_ARGUMENT")
	if !strings.Contains(r.Error.Message, "has no Go files") || !strings.Contains(r.Error.Hint, "package") {
		t.Fatalf("error: %+v", r.Error)
	}
	mcpNoChildren(t, c)
}

// A subtest the test's source does not have is refused before the run,
// with the subtests it has.
func TestDebugTestGoSubtestNotFound(t *testing.T) {
	t.Parallel()
	requireDelve(t)
	c := startDbg(t)
	r := c.fail("debug_test", map[string]any{"projectPath": fixture(t, "tests/go"), "package": "./cart", "test": "TestPairs/wrongg"}, "TEST_NOT_FOUND")
	if len(r.Error.AvailableOptions) == 0 || r.Error.AvailableOptions[0] != "TestPairs/wrong" {
		t.Fatalf("TEST_NOT_FOUND offers %v, want TestPairs/wrong first", r.Error.AvailableOptions)
	}
	if n := len(c.ok("list_debug_sessions", nil).list("sessions")); n != 0 {
		t.Fatalf("a refused test left %d session(s)", n)
	}
	mcpNoChildren(t, c)
}

// A project whose tests run with tape, which list_tests and debug_test do
// not support, is answered UNSUPPORTED naming tape, its test files, and
// the way to debug one as a program; and that way works: the test file
// run under the debugger stops at a breakpoint in the test with its
// values.
func TestDebugTestUnsupportedRunner(t *testing.T) {
	requireNode(t)
	t.Parallel()
	c := startDbg(t)
	dir := withNodeModules(t, fixture(t, "tests/tape"), "tape", "tape/index.js")
	for _, call := range []struct {
		tool string
		args map[string]any
	}{
		{"list_tests", map[string]any{"projectPath": dir}},
		{"list_tests", map[string]any{"projectPath": dir, "framework": "node"}},
		{"debug_test", map[string]any{"projectPath": dir, "test": "test/cart.test.js::total is wrong"}},
	} {
		r := c.fail(call.tool, call.args, "UNSUPPORTED")
		if !strings.Contains(r.Error.Message, "with tape,") || !strings.Contains(r.Error.Hint, "start_debugging {scriptPath: test/cart.test.js}") ||
			!slices.Equal(r.Error.AvailableOptions, []string{"test/cart.test.js"}) {
			t.Fatalf("%s %v: %+v", call.tool, call.args, r.Error)
		}
	}
	st := c.ok("get_debug_tools_status", map[string]any{"projectPath": dir})
	for _, cp := range st.list("capabilities") {
		if cp.str("name") == "tests" && (cp.str("state") != "NOT_CONFIGURED" || !strings.Contains(cp.str("reason"), "tape")) {
			t.Fatalf("status of a tape project: %v", cp)
		}
	}
	file := filepath.Join(dir, "test", "cart.test.js")
	line := mcpLine(t, file, "t.equal(got, 6);")
	id, stop := mcpLaunch(t, c, "javascript", file, []int{line}, file, nil)
	if stop.num("lastStop.location.line") != line {
		t.Fatalf("the test file under the debugger stopped at %v, want line %d", stop.get("lastStop"), line)
	}
	if got := mcpEval(t, c, id, "got"); got != "5" {
		t.Fatalf("got = %s, want 5", got)
	}
	c.ok("close_debug_session", map[string]any{"sessionId": id})
}

// In a library whose own code catches the exceptions it throws (a price
// that is not one is skipped), and a test that expects one with
// assertThrows, debug_test passes over both, caught before they reach
// JUnit, and stops at the assertion that fails the test.
func TestDebugTestJUnitPassesOverCaughtExceptions(t *testing.T) {
	requireMaven(t)
	t.Parallel()
	c := startDbg(t)
	dir := copyTree(t, fixture(t, "tests/junit-caught"))
	r := c.ok("debug_test", map[string]any{"projectPath": dir, "test": "com.shop.PricesTest#expectsTheError"})
	id := r.str("sessionId")
	if id != "" {
		defer c.ok("close_debug_session", map[string]any{"sessionId": id})
	}
	file := filepath.Join(dir, "src/test/java/com/shop/PricesTest.java")
	if r.str("outcome") != "failed" || r.str("location.file") != file || r.num("location.line") != mcpLine(t, file, "assertEquals(6, got);") ||
		r.str("expected") != "6" || r.str("actual") != "1" {
		t.Fatalf("debug_test: %v", r)
	}
	if got := mcpEval(t, c, id, "got"); got != "1" {
		t.Fatalf("got = %s, want 1", got)
	}
}
