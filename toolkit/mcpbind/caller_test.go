package mcpbind

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/toolkit"
)

// A call's client is named by the call's metadata when it carries it
// (protocol 2026-07-28), by the session's initialization otherwise.
func TestCallerNamesItsClient(t *testing.T) {
	t.Parallel()
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	tb := NewToolbox(srv, nil)
	type out struct {
		Client string `json:"client"`
	}
	toolkit.AddTool(tb, "who", "", func(ctx context.Context, _ struct{}) (out, error) {
		return out{toolkit.CallerOf(ctx).Client()}, nil
	}, toolkit.Hints{Title: "Who", ReadOnly: true})
	cs := connect(t, srv, nil)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "who"})
	if err != nil || res.IsError {
		t.Fatalf("%+v %v", res, err)
	}
	if env := envelopeOf(t, res); env.Data["client"] != "c 1" {
		t.Errorf("client %v, want c 1", env.Data["client"])
	}
	for _, c := range []struct {
		meta map[string]any
		want string
	}{
		{map[string]any{mcp.MetaKeyClientInfo: map[string]any{"name": "agent", "version": "2.1"}}, "agent 2.1"},
		{map[string]any{mcp.MetaKeyClientInfo: map[string]any{"name": "agent"}}, "agent"},
		{map[string]any{mcp.MetaKeyClientInfo: &mcp.Implementation{Name: "typed", Version: "3"}}, "typed 3"},
		{map[string]any{mcp.MetaKeyClientInfo: map[string]any{"name": "odd", "version": 4}}, ""},
		{nil, ""},
	} {
		req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "who"}}
		req.Params.SetMeta(c.meta)
		if got := (caller{info: clientInfo(req)}).Client(); got != c.want {
			t.Errorf("meta %v: client %q, want %q", c.meta, got, c.want)
		}
	}
}
