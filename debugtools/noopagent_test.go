package debugtools

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// buildNoopAgent compiles an agent whose agentmain does nothing: a
// stand-in for a user-supplied agent jar that never opens its port.
func buildNoopAgent(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join(dir, "noop", "Noop.java")
	if err := os.MkdirAll(filepath.Dir(src), 0o755); err != nil {
		t.Fatal(err)
	}
	code := "package noop;\npublic class Noop {\n  public static void agentmain(String a, java.lang.instrument.Instrumentation i) {}\n}\n"
	if err := os.WriteFile(src, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	classes := filepath.Join(dir, "classes")
	if out, err := exec.CommandContext(ctx, "javac", "-d", classes, src).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	jar := filepath.Join(dir, "noop.jar")
	if err := writeJar(jar, classes, "Manifest-Version: 1.0\r\nAgent-Class: noop.Noop\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	return jar
}
