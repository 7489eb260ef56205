package javadap

import (
	"context"
	"fmt"
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

// testedJDKs are the JDK feature releases the adapter's tests run on: the
// Debian JDK and the image's current Temurin JDK.
var testedJDKs = []int{17, 25}

// forEachJDK runs f as a subtest on each tested JDK of at least feature
// release minFeature. A tested JDK that is not installed is a skipped
// subtest that names it.
func forEachJDK(t *testing.T, minFeature int, f func(t *testing.T, j JDK)) {
	t.Helper()
	installed := map[int]JDK{}
	for _, j := range InstalledJDKs() {
		if _, dup := installed[j.Feature()]; !dup {
			installed[j.Feature()] = j
		}
	}
	for _, feature := range testedJDKs {
		if feature < minFeature {
			continue
		}
		t.Run(fmt.Sprintf("jdk%d", feature), func(t *testing.T) {
			j, ok := installed[feature]
			if !ok {
				t.Skipf("JDK %d is not installed (looked in $JAVA_HOME and %s); scripts/deps/java.sh checks for it", feature, strings.Join(jvmDirs, ", "))
			}
			f(t, j)
		})
	}
}

// compileWith compiles the .java files of testdata/java/dir with -g using
// the JDK's javac into a temporary directory and returns it.
func compileWith(t testing.TB, j JDK, dir string) string {
	t.Helper()
	out := t.TempDir()
	srcs, _ := filepath.Glob(filepath.Join(fixtureDir(t), dir, "*.java"))
	if len(srcs) == 0 {
		t.Fatalf("no fixtures in testdata/java/%s", dir)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	javac := filepath.Join(j.Home, "bin", "javac")
	if b, err := exec.CommandContext(ctx, javac, append([]string{"-g", "-d", out}, srcs...)...).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", javac, err, b)
	}
	return out
}
