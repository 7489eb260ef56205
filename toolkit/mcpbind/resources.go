package mcpbind

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/toolkit"
)

// resources serves a Toolbox's resource templates on an MCP server;
// subscriptions are the server's own (see AllowSubscriptions).
type resources struct{ srv *mcp.Server }

func (r resources) AddResourceTemplate(t toolkit.ResourceTemplate) {
	r.srv.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: t.URITemplate, Name: t.Name, Description: t.Description, MIMEType: t.MIMEType},
		func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			uri := req.Params.URI
			c, err := t.Read(ctx, uri)
			if errors.Is(err, toolkit.ErrResourceNotFound) {
				return nil, mcp.ResourceNotFoundError(uri)
			}
			if err != nil {
				return nil, err
			}
			mime := c.MIMEType
			if mime == "" {
				mime = t.MIMEType
			}
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: mime, Text: c.Text}}}, nil
		})
}

func (r resources) Updated(ctx context.Context, uri string) {
	_ = r.srv.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri})
}

// AllowSubscriptions lets clients of a server built with opts subscribe
// to resources (resources/subscribe), which the server then tells of
// every change with notifications/resources/updated. check refuses a
// URI that names no resource with an error wrapping
// toolkit.ErrResourceNotFound. Call it before mcp.NewServer.
func AllowSubscriptions(opts *mcp.ServerOptions, check func(ctx context.Context, uri string) error) {
	opts.SubscribeHandler = func(ctx context.Context, req *mcp.SubscribeRequest) error {
		if req.Params == nil {
			return mcp.ResourceNotFoundError("")
		}
		if err := check(ctx, req.Params.URI); err != nil {
			if errors.Is(err, toolkit.ErrResourceNotFound) {
				return mcp.ResourceNotFoundError(req.Params.URI)
			}
			return err
		}
		return nil
	}
	opts.UnsubscribeHandler = func(context.Context, *mcp.UnsubscribeRequest) error { return nil }
}
