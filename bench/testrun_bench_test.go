package bench

// The debug_test benchmark: for each framework, the time from the
// debug_test call to the answer at the failure's stop (through a real
// `dbg mcp`), against running the same test plainly with the runner's
// command line the answer names plus the start of the language's
// adapter (testrun_adapter_bench_test.go), the three interleaved:
//
//	go test -run XXX -bench DebugTest -benchtime 3x ./bench/
//
// Reported: dbg-stop-ms, plain-run-ms, adapter-start-ms, ratio =
// dbg / (plain + adapter start), and plain-ratio = dbg / plain, the
// target for a small test being 2.0 or less. The runs after the warm-up
// are those of a server that has run the test once (its warm adapter and,
// for pytest, its fork server).

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

type testBenchCase struct {
	framework, dir, test, pkg string
	need                      []string // commands that must be installed
	runner                    string   // the pinned runner to link in (jest, vitest)
	// edit, when set, is a file of the project touched before every run,
	// as an edit would: nothing kept from an earlier run applies. The
	// plain run then builds first with build.
	edit  string
	build []string
}

func BenchmarkDebugTest(b *testing.B) {
	root := nativeRoot(b)
	for _, tc := range []testBenchCase{
		{framework: "pytest", dir: "pytest", test: "tests/test_cart.py::test_total_wrong", need: []string{"python3"}},
		{framework: "go", dir: "go", test: "TestTotalWrong", pkg: "./cart", need: []string{"go", "dlv"}},
		{framework: "node", dir: "node", test: "test/cart.test.js::total is wrong", need: []string{"node"}},
		{framework: "jest", dir: "jest", test: "__tests__/cart.test.js::total is wrong", need: []string{"node"}, runner: "jest"},
		{framework: "vitest", dir: "vitest", test: "test/cart.test.js::total is wrong", need: []string{"node"}, runner: "vitest"},
		{framework: "mocha", dir: "mocha", test: "test/cart.test.js::total is wrong", need: []string{"node"}, runner: "mocha"},
		{framework: "cargo", dir: "cargo", test: "tests::total_wrong", need: []string{"cargo", "lldb-vscode-16"}},
		{framework: "junit", dir: "junit", test: "com.shop.CartTest#totalWrong", need: []string{"mvn", "java", "javac"}},
		{framework: "junit-surefire", dir: "junit-surefire", test: "com.shop.CartTest#totalWrong", need: []string{"mvn", "java", "javac"}},
		{framework: "junit-edited", dir: "junit", test: "com.shop.CartTest#totalWrong", need: []string{"mvn", "java", "javac"},
			edit: "src/test/java/com/shop/CartTest.java", build: []string{"mvn", "-q", "-B", "test-compile"}},
		{framework: "junit-surefire-edited", dir: "junit-surefire", test: "com.shop.CartTest#totalWrong", need: []string{"mvn", "java", "javac"},
			edit: "src/test/java/com/shop/CartTest.java", build: []string{"mvn", "-q", "-B", "test-compile"}},
	} {
		b.Run(tc.framework, func(b *testing.B) {
			for _, n := range tc.need {
				if _, err := exec.LookPath(n); err != nil {
					b.Skipf("%s is not installed", n)
				}
			}
			dir := benchProject(b, filepath.Join(root, "testdata", "tests", tc.dir), tc.runner)
			c := startMCP(b)
			defer c.cs.Close()
			args := map[string]any{"projectPath": dir, "test": tc.test}
			if tc.pkg != "" {
				args["package"] = tc.pkg
			}
			// run answers the run's time, the session's language and the
			// runner's command line.
			touch := func() {
				if tc.edit != "" {
					now := time.Now()
					if err := os.Chtimes(filepath.Join(dir, tc.edit), now, now); err != nil {
						b.Fatal(err)
					}
				}
			}
			run := func() (time.Duration, string, []string) {
				touch()
				t0 := time.Now()
				r := c.call("debug_test", args)
				d := time.Since(t0)
				if r["outcome"] != "failed" {
					b.Fatalf("debug_test: %v", r)
				}
				c.call("close_debug_session", map[string]any{"sessionId": r["sessionId"]})
				var argv []string
				for _, a := range r["command"].([]any) {
					argv = append(argv, a.(string))
				}
				lang, _ := r["language"].(string)
				return d, lang, argv
			}
			plain := func(argv []string) time.Duration {
				touch()
				t0 := time.Now()
				if tc.build != nil {
					cmd := exec.Command(tc.build[0], tc.build[1:]...)
					cmd.Dir = dir
					if out, err := cmd.CombinedOutput(); err != nil {
						b.Fatalf("%v: %v: %s", tc.build, err, out)
					}
				}
				cmd := exec.Command(argv[0], argv[1:]...)
				cmd.Dir = dir
				_ = cmd.Run() // the test fails: a non-zero exit is expected
				return time.Since(t0)
			}
			// Warm every path once (build caches, bytecode).
			_, lang, argv := run()
			plain(argv)
			as, ok := newAdapterStarter(b, lang)
			if !ok {
				b.Fatalf("no adapter start for %s", lang)
			}
			as.run(b)
			var dbgT, plainT, startT time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				d, _, _ := run()
				dbgT += d
				plainT += plain(argv)
				startT += as.run(b)
			}
			n := time.Duration(b.N)
			b.ReportMetric(ms(dbgT/n), "dbg-stop-ms")
			b.ReportMetric(ms(plainT/n), "plain-run-ms")
			b.ReportMetric(ms(startT/n), "adapter-start-ms")
			b.ReportMetric(float64(dbgT)/float64(plainT+startT), "ratio")
			b.ReportMetric(float64(dbgT)/float64(plainT), "plain-ratio")
		})
	}
}

// benchProject copies a fixture project (so builds and caches stay out of
// the repository), linking the pinned runner in when asked (jest, vitest:
// $DBG_JEST_DIR or $DBG_VITEST_DIR, as scripts/deps/tests.sh installs
// them).
func benchProject(b *testing.B, src, runner string) string {
	dst := filepath.Join(b.TempDir(), filepath.Base(src))
	if out, err := exec.Command("cp", "-r", src, dst).CombinedOutput(); err != nil {
		b.Fatalf("copy %s: %v: %s", src, err, out)
	}
	if runner == "" {
		return dst
	}
	dir := os.Getenv("DBG_" + strings.ToUpper(runner) + "_DIR")
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".cache", "dbg-test", runner)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", runner, "package.json")); err != nil {
		b.Skipf("%s is not installed (scripts/install-test-deps.sh installs it)", runner)
	}
	if err := os.Symlink(filepath.Join(dir, "node_modules"), filepath.Join(dst, "node_modules")); err != nil {
		b.Fatal(err)
	}
	return dst
}
