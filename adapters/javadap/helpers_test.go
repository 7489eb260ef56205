package javadap

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// fixtureDir is testdata/java, absolute.
func fixtureDir(t testing.TB) string {
	t.Helper()
	d, err := filepath.Abs("../../testdata/java")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// needJDK skips when no JDK is installed (scripts/deps/java.sh installs it).
func needJDK(t testing.TB) {
	t.Helper()
	for _, tool := range []string{"java", "javac"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed (scripts/deps/java.sh installs it)", tool)
		}
	}
}

var compileMu sync.Mutex

// compileFixtures compiles testdata/java/*.java with -g into a temp dir and
// returns it (the classpath).
func compileFixtures(t testing.TB) string {
	t.Helper()
	needJDK(t)
	compileMu.Lock()
	defer compileMu.Unlock()
	out := t.TempDir()
	srcs, _ := filepath.Glob(filepath.Join(fixtureDir(t), "*.java"))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	b, err := exec.CommandContext(ctx, "javac", append([]string{"-g", "-d", out}, srcs...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("javac: %v\n%s", err, b)
	}
	return out
}

// fixtureLine returns the line of a "// BP:marker" comment in a fixture.
func fixtureLine(t testing.TB, file, marker string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtureDir(t), file))
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(b), "\n") {
		if strings.HasSuffix(strings.TrimSpace(l), "// BP:"+marker) {
			return i + 1
		}
	}
	t.Fatalf("marker %s not in %s", marker, file)
	return 0
}
