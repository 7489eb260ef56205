package sessions

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/toolkit"
)

// A confined server names files only in the project and the session's
// program; a link in the project to a file elsewhere is elsewhere, and a
// file a stack of the session showed is the program's.
func TestCheckPathConfinesToTheProjectAndTheProgram(t *testing.T) {
	t.Parallel()
	project := t.TempDir()
	writeTestFile(t, filepath.Join(project, "go.mod"), "module p\n")
	inProject := filepath.Join(project, "main.go")
	writeTestFile(t, inProject, "package main\n")
	secret := filepath.Join(t.TempDir(), "id_rsa")
	writeTestFile(t, secret, "-----BEGIN OPENSSH PRIVATE KEY-----\n")
	link := filepath.Join(project, "notes.txt")
	if err := os.Symlink(secret, link); err != nil {
		t.Fatal(err)
	}
	m := NewManager(Config{Adapters: adapters.Default(), StateDir: t.TempDir(), Project: project})
	t.Cleanup(func() { m.Shutdown(context.Background()) })
	for _, c := range []struct {
		file string
		ok   bool
	}{{inProject, true}, {filepath.Join(project, "new.go"), true}, {secret, false}, {link, false}, {"/etc/passwd", false}, {filepath.Join(project, "..", filepath.Base(project)+"x"), false}} {
		err := m.CheckPath(nil, "file", c.file)
		if (err == nil) != c.ok {
			t.Errorf("CheckPath(%s) = %v, want allowed %v", c.file, err, c.ok)
		}
		if te, isTE := err.(*toolkit.ToolError); err != nil && (!isTE || te.Code != toolkit.CodeInvalidArgument || !strings.Contains(te.Hint, "--allow-outside-project")) {
			t.Errorf("CheckPath(%s): %v, want INVALID_ARGUMENT naming --allow-outside-project", c.file, err)
		}
	}

	// The session's program, outside the project, and what its stack shows.
	s := mockStopped(t, m)
	prog := testdata(t, "mock/loop.mock")
	if err := m.CheckPath(s, "file", prog); err != nil {
		t.Errorf("the session's program: %v", err)
	}
	if err := m.CheckPath(s, "file", secret); err == nil {
		t.Error("a file neither of the project nor of the program was allowed")
	}
	s.seen.add(secret)
	if err := m.CheckPath(s, "file", secret); err != nil {
		t.Errorf("a file the stack showed: %v", err)
	}
	open := NewManager(Config{Adapters: adapters.Default(), StateDir: t.TempDir(), Project: project, AllowOutsideProject: true})
	if err := open.CheckPath(nil, "file", "/etc/passwd"); err != nil {
		t.Errorf("with AllowOutsideProject: %v", err)
	}
}

// Past MaxSessions a new session is refused with the cap and how to
// raise it; closing one makes room.
func TestMaxSessions(t *testing.T) {
	t.Parallel()
	m := NewManager(Config{Adapters: adapters.Default(), StateDir: t.TempDir(), MaxSessions: 2})
	t.Cleanup(func() { m.Shutdown(context.Background()) })
	ctx := context.Background()
	var made []*Session
	for range 2 {
		s, _, err := m.Create(ctx, CreateRequest{Language: "mock"})
		if err != nil {
			t.Fatal(err)
		}
		made = append(made, s)
	}
	_, _, err := m.Create(ctx, CreateRequest{Language: "mock"})
	te, ok := err.(*toolkit.ToolError)
	if !ok || !strings.Contains(te.Message, "--max-sessions 2") || !strings.Contains(te.Hint, "close_debug_session") {
		t.Fatalf("a third session: %v, want the cap named", err)
	}
	if err := m.CloseSession(ctx, made[0].ID()); err != nil {
		t.Fatal(err)
	}
	if _, _, err := m.Create(ctx, CreateRequest{Language: "mock"}); err != nil {
		t.Fatalf("after a close: %v", err)
	}
}

func writeTestFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
