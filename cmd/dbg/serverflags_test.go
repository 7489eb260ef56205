package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"
)

// --reveal-secrets on dbg mcp and dbg serve builds servers that answer
// raw values; without it a password local is redacted.
func TestServerFlagRevealSecrets(t *testing.T) {
	t.Parallel()
	prog := fixture(t, "mock/secrets.mock")
	line := mcpLine(t, prog, `print "ready`)
	for _, c := range []struct {
		name  string
		flags []string
		want  string
	}{
		{"mcp", nil, redacted},
		{"mcp", []string{"--reveal-secrets"}, `"hunter2"`},
		{"serve", []string{"--reveal-secrets"}, `"hunter2"`},
	} {
		t.Run(c.name+fmtFlags(c.flags), func(t *testing.T) {
			var newServer func(context.Context, string) (*mcp.Server, func())
			var cmd *cobra.Command
			f, _, _ := cliFactory(t)
			if c.name == "mcp" {
				cmd = newCmdMCP(f, func(_ context.Context, o *mcpOptions) error { newServer = o.NewServer; return nil })
			} else {
				cmd = newCmdServe(f, func(_ context.Context, o *serveOptions) error { newServer = o.NewServer; return nil })
			}
			cmd.SetArgs(c.flags)
			if err := cmd.Execute(); err != nil || newServer == nil {
				t.Fatalf("%v: %v", c.flags, err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			srv, release := newServer(ctx, filepath.Dir(prog))
			defer release()
			ct, st := mcp.NewInMemoryTransports()
			if _, err := srv.Connect(ctx, st, nil); err != nil {
				t.Fatal(err)
			}
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			cl := &client{t: t, cs: cs}
			id := cl.ok("create_debug_session", map[string]any{"language": "mock"}).str("sessionId")
			cl.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": line})
			mcpPaused(t, cl, id, cl.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog}))
			locals := mcpLocals(t, cl, id)
			if got := locals["password"].str("value"); got != c.want {
				b, _ := json.Marshal(locals)
				t.Errorf("password = %q, want %q (%s)", got, c.want, b)
			}
			if got := locals["user"].str("value"); got != `"bob"` {
				t.Errorf("user = %q", got)
			}
			cl.ok("close_debug_session", map[string]any{"sessionId": id})
		})
	}
}

func fmtFlags(flags []string) string {
	if len(flags) == 0 {
		return ""
	}
	return "/" + flags[0][2:]
}
