package mcpbind

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/toolkit"
)

type echoIn struct {
	Line toolkit.Int `json:"line"`
}

// Every tool answers the envelope; a handler panic is an INTERNAL_ERROR
// and the server keeps serving.
func TestToolboxEnvelopeAndPanics(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	tb := NewToolbox(srv, nil)
	toolkit.AddTool(tb, "boom", "panics", func(ctx context.Context, in echoIn) (struct{}, error) { panic("kaboom") })
	toolkit.AddTool(tb, "echo", "echoes", func(ctx context.Context, in echoIn) (echoIn, error) { return in, nil })
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "boom", Arguments: map[string]any{}})
	if err != nil || !res.IsError {
		t.Fatalf("%+v %v", res, err)
	}
	var env struct {
		Success   bool
		Error     *toolkit.ToolError
		RequestID string
		Timestamp string
	}
	b, _ := json.Marshal(res.StructuredContent)
	_ = json.Unmarshal(b, &env)
	if env.Success || env.Error == nil || env.Error.Code != toolkit.CodeInternal || env.RequestID == "" || env.Timestamp == "" {
		t.Fatalf("envelope %s", b)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"line": 3}})
	if err != nil || res.IsError {
		t.Fatalf("echo %+v %v", res, err)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 2 || tools.Tools[0].InputSchema == nil || tools.Tools[0].OutputSchema == nil {
		t.Fatalf("tools %+v %v", tools, err)
	}
}
