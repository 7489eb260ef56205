package debugtools

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

const h2Jar = "/usr/share/java/h2.jar"

var fixtureBuild struct {
	once sync.Once
	dir  string
	err  error
}

// testMainDir is removed by TestMain when the package's tests end.
var testMainDir string

func TestMain(m *testing.M) {
	d, err := os.MkdirTemp("", "dbg-debugtools-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	testMainDir = d
	code := m.Run()
	_ = os.RemoveAll(d)
	os.Exit(code)
}

// mustHaveJDK skips when no JDK or H2 is installed (scripts/deps/jvm.sh
// installs both).
func mustHaveJDK(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("javac"); err != nil {
		t.Skip("javac not installed (run scripts/deps/jvm.sh)")
	}
	if _, err := os.Stat(h2Jar); err != nil {
		t.Skip("H2 not installed (run scripts/deps/jvm.sh)")
	}
}

// buildFixture compiles testdata/java-service once per test binary.
func buildFixture(t testing.TB) string {
	t.Helper()
	mustHaveJDK(t)
	fixtureBuild.once.Do(func() {
		src, _ := filepath.Abs("../testdata/java-service/src/main/java")
		var files []string
		_ = filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
			if err == nil && strings.HasSuffix(p, ".java") {
				files = append(files, p)
			}
			return nil
		})
		out := filepath.Join(testMainDir, "fixture-classes")
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "javac", append([]string{"-d", out}, files...)...)
		if b, err := cmd.CombinedOutput(); err != nil {
			fixtureBuild.err = fmt.Errorf("javac fixture: %v\n%s", err, b)
			return
		}
		fixtureBuild.dir = out
	})
	if fixtureBuild.err != nil {
		t.Fatal(fixtureBuild.err)
	}
	return fixtureBuild.dir
}

// fixtureJVM is a running fixture service.
type fixtureJVM struct {
	cmd *exec.Cmd
	pid int
}

// startFixture runs the fixture service with extra JVM options and waits
// for its READY line. The process group is killed at cleanup.
func startFixture(t testing.TB, jvmOpts ...string) *fixtureJVM {
	t.Helper()
	classes := buildFixture(t)
	args := append(append([]string{}, jvmOpts...), "-cp", classes+":"+h2Jar, "com.example.shop.ShopApplication")
	cmd := exec.Command("java", args...)
	if err := startJVM(t, "fixture", cmd); err != nil {
		t.Fatal(err)
	}
	return &fixtureJVM{cmd: cmd, pid: cmd.Process.Pid}
}

// startJVM starts cmd, a JVM or a launcher of one, in a fresh directory (unless cmd.Dir names one) and
// in its own process group, which stopJVM ends at cleanup, and waits up to
// 60s for a line beginning with READY on its stdout (read to the end after
// that). It returns an error when the process ends before printing READY
// and fails the test when the line does not come in time; what names the
// program in those messages.
func startJVM(t testing.TB, what string, cmd *exec.Cmd) error {
	t.Helper()
	if cmd.Dir == "" {
		cmd.Dir = t.TempDir()
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	t.Cleanup(func() {
		stopJVM(cmd, pid)
	})
	ready := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "READY") {
				ready <- nil
				_, _ = bufio.NewReader(out).WriteTo(discard{})
				return
			}
		}
		ready <- fmt.Errorf("%s exited before READY: %v", what, sc.Err())
	}()
	select {
	case err := <-ready:
		return err
	case <-time.After(60 * time.Second):
		t.Fatalf("%s not ready within 60s", what)
		return nil
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// alive reports whether the fixture process still runs.
func (f *fixtureJVM) alive() bool {
	return syscall.Kill(f.pid, 0) == nil && f.cmd.ProcessState == nil
}

// stopJVM ends a JVM started by a test and its process group: SIGTERM
// first, so the JVM removes its hsperfdata file, then SIGKILL after a
// grace period; the hsperfdata file is removed in any case.
func stopJVM(cmd *exec.Cmd, pid int) {
	_ = syscall.Kill(-pid, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(3 * time.Second):
		_ = syscall.Kill(-pid, syscall.SIGKILL)
		<-done
	}
	_ = syscall.Kill(-pid, syscall.SIGKILL) // stragglers in the group
	m, _ := filepath.Glob(filepath.Join(os.TempDir(), "hsperfdata_*", fmt.Sprint(pid)))
	for _, f := range m {
		_ = os.Remove(f)
	}
}
