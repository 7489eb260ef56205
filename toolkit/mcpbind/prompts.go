package mcpbind

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/toolkit"
)

// prompts serves a Toolbox's prompts on an MCP server: each renders its
// steps as one user message.
type prompts struct {
	srv *mcp.Server
	tb  *toolkit.Toolbox
}

func (ps prompts) AddPrompt(p toolkit.Prompt) {
	mp := &mcp.Prompt{Name: p.Name, Title: p.Title, Description: p.Description}
	for _, a := range p.Arguments {
		mp.Arguments = append(mp.Arguments, &mcp.PromptArgument{Name: a.Name, Description: a.Description, Required: a.Required})
	}
	ps.srv.AddPrompt(mp, func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		var args map[string]string
		if req != nil && req.Params != nil {
			args = req.Params.Arguments
		}
		text, err := ps.tb.RenderPrompt(p, args)
		if err != nil {
			return nil, err
		}
		return &mcp.GetPromptResult{Description: p.Description,
			Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}}}, nil
	})
}
