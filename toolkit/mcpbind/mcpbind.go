// Package mcpbind serves the tools of a [toolkit.Toolbox] on an MCP
// server: each envelope is the call's structuredContent and, as JSON
// text, its content; a failed envelope sets isError.
//
//	srv := mcp.NewServer(&mcp.Implementation{Name: "dbg", Version: v}, nil)
//	tb := mcpbind.NewToolbox(srv, nil)
//	toolkit.AddTool(tb, "echo", "Echo.", echo)
package mcpbind

import (
	"context"
	"encoding/json"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/toolkit"
)

// NewToolbox returns a Toolbox adding its tools and resources to srv.
// now is the clock of the envelopes' timestamps (nil = time.Now).
func NewToolbox(srv *mcp.Server, now func() time.Time) *toolkit.Toolbox {
	tb := toolkit.NewToolbox(func(t toolkit.Tool) { Serve(srv, t) }, now)
	tb.SetResourceServer(resources{srv})
	return tb
}

// Serve adds one tool to srv.
func Serve(srv *mcp.Server, t toolkit.Tool) {
	tool := &mcp.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema, OutputSchema: t.OutputSchema}
	srv.AddTool(tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args json.RawMessage
		if req != nil && req.Params != nil {
			args = req.Params.Arguments
		}
		b, failed := t.Call(ctx, args)
		return &mcp.CallToolResult{
			IsError:           failed,
			StructuredContent: b,
			Content:           []mcp.Content{&mcp.TextContent{Text: string(b)}},
		}, nil
	})
}
