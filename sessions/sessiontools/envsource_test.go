package sessiontools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit/mcpbind"
)

// The lines of a file of environment values (.env) are shown with their
// credentials redacted; a program's source is shown as it is.
func TestSourceContextOfAnEnvFileIsRedacted(t *testing.T) {
	project := t.TempDir()
	env := filepath.Join(project, ".env")
	if err := os.WriteFile(env, []byte("APP_MODE=dev\nDB_PASSWORD=hunter2\nexport API_TOKEN='tok-123456'\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(project, "app.py")
	if err := os.WriteFile(src, []byte("mode = 'dev'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := sessions.NewManager(sessions.Config{Adapters: adapters.Default(), StateDir: t.TempDir(), Project: project})
	t.Cleanup(func() { m.Shutdown(context.Background()) })
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "0"}, nil)
	New(m).Register(mcpbind.NewToolbox(srv, nil))
	ct, st := mcp.NewInMemoryTransports()
	if _, err := srv.Connect(context.Background(), st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "0"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	out := call[sourceOut](t, cs, "get_source_context", map[string]any{"file": env, "line": 2})
	var text []string
	for _, l := range out.Lines {
		text = append(text, l.Text)
	}
	got := strings.Join(text, "\n")
	if strings.Contains(got, "hunter2") || strings.Contains(got, "tok-123456") || !strings.Contains(got, "APP_MODE=dev") || !strings.Contains(got, "DB_PASSWORD=‹redacted›") {
		t.Errorf(".env lines: %q", got)
	}
	if out := call[sourceOut](t, cs, "get_source_context", map[string]any{"file": src, "line": 1}); out.Lines[0].Text != "mode = 'dev'" {
		t.Errorf("a source file: %+v", out.Lines)
	}
}
