package javadap

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A program of one file and no class path compiles once: a second launch
// of the same source copies the cached classes, a changed source compiles
// again, and a program with a class path always compiles.
func TestCompileSourceIsCachedPerSource(t *testing.T) {
	needJDK(t)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	real, err := exec.LookPath("javac")
	if err != nil {
		t.Fatal(err)
	}
	// A javac that counts its runs, then runs the real one.
	bin := t.TempDir()
	runs := filepath.Join(bin, "runs")
	javac := filepath.Join(bin, "javac")
	script := fmt.Sprintf("#!/bin/sh\necho run >> %q\nexec %q \"$@\"\n", runs, real)
	if err := os.WriteFile(javac, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	count := func() int {
		b, _ := os.ReadFile(runs)
		return strings.Count(string(b), "run")
	}
	src := filepath.Join(t.TempDir(), "Hello.java")
	write := func(msg string) {
		if err := os.WriteFile(src, []byte(`public class Hello { public static void main(String[] a) { System.out.println("`+msg+`"); } }`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	classOf := func(want string) {
		t.Helper()
		out, cleanup, err := compileSource(context.Background(), javac, src, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cleanup()
		b, err := exec.Command("java", "-cp", out, "Hello").CombinedOutput()
		if err != nil || strings.TrimSpace(string(b)) != want {
			t.Fatalf("the compiled program printed %q (%v), want %q", b, err, want)
		}
	}
	write("one")
	classOf("one")
	classOf("one")
	if n := count(); n != 1 {
		t.Fatalf("javac ran %d times for two launches of the same source, want 1", n)
	}
	write("two")
	classOf("two")
	if n := count(); n != 2 {
		t.Fatalf("javac ran %d times after the source changed, want 2", n)
	}
	lib := t.TempDir()
	for range 2 {
		out, cleanup, err := compileSource(context.Background(), javac, src, []string{lib})
		if err != nil {
			t.Fatal(err)
		}
		cleanup()
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("the launch's classes %s outlive its cleanup", out)
		}
	}
	if n := count(); n != 4 {
		t.Fatalf("javac ran %d times, want 4: a program with a class path always compiles", n)
	}
}
