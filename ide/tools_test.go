package ide

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
	"github.com/dbg-dev/dbg/toolkit/mcpbind"
)

// toolClient calls the ide tools through a real MCP client and server
// connected in memory.
type toolClient struct {
	cs *mcp.ClientSession
	m  *sessions.Manager
	tb *toolkit.Toolbox
	x  *IDE
}

type envelope struct {
	Success bool               `json:"success"`
	Data    json.RawMessage    `json:"data"`
	Error   *toolkit.ToolError `json:"error"`
}

func newToolClient(t *testing.T, project string, opts Options, reg ...*adapters.Registry) *toolClient {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cfg := sessions.Config{Project: project}
	if len(reg) > 0 {
		cfg.Adapters = reg[0]
	}
	m := sessions.NewManager(cfg)
	srv := mcp.NewServer(&mcp.Implementation{Name: "dbg-test", Version: "0"}, nil)
	tb := mcpbind.NewToolbox(srv, nil)
	if opts.Runner.StopGrace == 0 {
		opts.Runner.StopGrace = time.Second
	}
	x := New(m, opts)
	x.Register(tb)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cctx, ccancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer ccancel()
		_ = x.Close(cctx)
		m.Shutdown(cctx)
		_ = cs.Close()
		_ = ss.Close()
		cancel()
	})
	return &toolClient{cs: cs, m: m, tb: tb, x: x}
}

// call invokes a tool and returns its envelope and its full text, which
// tests search for secrets.
func (c *toolClient) call(t *testing.T, name string, args map[string]any) (envelope, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var text strings.Builder
	for _, ct := range res.Content {
		if tc, ok := ct.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	sc, _ := json.Marshal(res.StructuredContent)
	var env envelope
	if err := json.Unmarshal([]byte(text.String()), &env); err != nil {
		t.Fatalf("%s: bad envelope %q: %v", name, text.String(), err)
	}
	if res.IsError == env.Success {
		t.Fatalf("%s: isError=%v but success=%v", name, res.IsError, env.Success)
	}
	return env, text.String() + string(sc)
}

// ok calls a tool that must succeed and decodes its data into out.
func (c *toolClient) ok(t *testing.T, name string, args map[string]any, out any) string {
	t.Helper()
	env, text := c.call(t, name, args)
	if !env.Success {
		t.Fatalf("%s(%v) failed: %+v", name, args, env.Error)
	}
	if out != nil {
		if err := json.Unmarshal(env.Data, out); err != nil {
			t.Fatalf("%s: decode %s: %v", name, env.Data, err)
		}
	}
	return text
}

// fail calls a tool that must fail with code and returns the error.
func (c *toolClient) fail(t *testing.T, name string, args map[string]any, code string) (*toolkit.ToolError, string) {
	t.Helper()
	env, text := c.call(t, name, args)
	if env.Success || env.Error == nil {
		t.Fatalf("%s(%v) succeeded, want %s: %s", name, args, code, env.Data)
	}
	if env.Error.Code != code {
		t.Fatalf("%s(%v): code %s, want %s: %+v", name, args, env.Error.Code, code, env.Error)
	}
	return env.Error, text
}
