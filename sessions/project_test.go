package sessions

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/dbg-dev/dbg/toolkit"
)

func TestResolveProject(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "svc", "src", "main"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "svc", "pom.xml"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(root, "svc", "src", "main", "App.java")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	m := NewManager(Config{Project: filepath.Join(root, "svc")})
	if got, err := m.ResolveProject(file); err != nil || got != filepath.Join(root, "svc") {
		t.Fatalf("file inside project: %s %v", got, err)
	}
	if got, err := m.ResolveProject(""); err != nil || got != filepath.Join(root, "svc") {
		t.Fatalf("server project: %s %v", got, err)
	}
	var te *toolkit.ToolError
	if _, err := m.ResolveProject("/no/such/dir"); !errors.As(err, &te) || te.Code != toolkit.CodeNoProject {
		t.Fatalf("missing project: %v", err)
	}
}
