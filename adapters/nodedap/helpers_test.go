package nodedap

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/internal/dbgtest"
)

// mustHaveNode skips when node is not installed (scripts/deps/node.sh
// installs it).
func mustHaveNode(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed (scripts/deps/node.sh installs it)")
	}
	return p
}

// fixture returns the absolute path of testdata/javascript/name.
func fixture(t testing.TB, name string) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	p := filepath.Join(filepath.Dir(file), "..", "..", "testdata", "javascript", name)
	p, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("fixture %s: %v", name, err)
	}
	return p
}

// lineOf returns the 1-based line of path holding marker ("BP:loop").
func lineOf(t testing.TB, path, marker string) int {
	t.Helper()
	return dbgtest.LineOf(t, path, marker)
}

var (
	tsOnce sync.Once
	tsErr  error
	tsOut  string
)

// compiledTS compiles testdata/javascript/ts with the pinned tsc (see
// scripts/deps/node.sh) into testdata/javascript/build and returns that
// folder.
func compiledTS(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("DBG_TS_DIR")
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".cache", "dbg-test", "ts")
	}
	tsc := filepath.Join(dir, "node_modules", ".bin", "tsc")
	if _, err := os.Stat(tsc); err != nil {
		t.Skipf("tsc is not installed in %s (scripts/deps/node.sh installs it)", dir)
	}
	proj := filepath.Dir(fixture(t, "tsconfig.json"))
	tsOnce.Do(func() {
		out, err := exec.Command(tsc, "-p", proj).CombinedOutput()
		if err != nil {
			tsErr = err
			tsOut = string(out)
		}
	})
	if tsErr != nil {
		t.Fatalf("tsc: %v\n%s", tsErr, tsOut)
	}
	return filepath.Join(proj, "build")
}

// waitGone waits until process pid (decimal) no longer exists.
func waitGone(t testing.TB, pid string) {
	t.Helper()
	for i := 0; i < 200; i++ {
		if _, err := os.Stat("/proc/" + pid); err != nil {
			return
		}
		b, _ := os.ReadFile("/proc/" + pid + "/stat")
		if fields := strings.Fields(string(b)); len(fields) > 2 && fields[2] == "Z" {
			return
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Fatalf("process %s still runs", pid)
}
