// Package mcpbind serves the tools of a [toolkit.Toolbox] on an MCP
// server: each envelope is the call's structuredContent and, as JSON
// text, its content; a failed envelope sets isError.
//
//	srv := mcp.NewServer(&mcp.Implementation{Name: "dbg", Version: v}, nil)
//	tb := mcpbind.NewToolbox(srv, nil)
//	toolkit.AddTool(tb, "echo", "Echo.", echo, toolkit.Hints{Title: "Echo", ReadOnly: true})
//
// Every tool of the toolbox is on the server, so any of them answers a
// call; tools/list shows those the toolbox lists ([toolkit.Toolbox.Listed]),
// and a toolset enabled at run time makes the server send
// notifications/tools/list_changed. Each call's context carries its
// [toolkit.Caller] (the client's name and connection, its MCP session's
// id; the user's answer to a confirmation) and, when the client sent a progressToken, a progress
// receiver sending notifications/progress.
//
// A call the server's policy confirms first is answered with an input
// request (an elicitation) and runs when the call comes back with the
// user's answer: clients of protocol 2026-07-28 and later retry it
// themselves, and the go-sdk server asks older clients with
// elicitation/create in between.
package mcpbind

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/toolkit"
)

// NewToolbox returns a Toolbox adding its tools, resources and prompts to
// srv. now is the clock of the envelopes' timestamps (nil = time.Now).
func NewToolbox(srv *mcp.Server, now func() time.Time) *toolkit.Toolbox {
	if now == nil {
		now = time.Now
	}
	b := &binding{srv: srv, confirms: newConfirmations(now)}
	tb := toolkit.NewToolbox(b.serve, now)
	tb.SetResourceServer(resources{srv})
	tb.SetPromptServer(prompts{srv, tb})
	srv.AddReceivingMiddleware(listedOnly(tb))
	return tb
}

// Serve adds one tool to srv.
func Serve(srv *mcp.Server, t toolkit.Tool) {
	(&binding{srv: srv, confirms: newConfirmations(time.Now)}).serve(t)
}

// binding serves a toolbox's tools on one server.
type binding struct {
	srv      *mcp.Server
	confirms *confirmations
}

func (b *binding) serve(t toolkit.Tool) {
	b.srv.AddTool(&mcp.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema, Annotations: annotations(t)}, b.handler(t))
}

// annotations are a tool's hints as MCP says them. A read-only tool's
// destructive and idempotent hints mean nothing (MCP: "meaningful only
// when readOnlyHint == false"), so they are left out; a tool that
// declared none has none.
func annotations(t toolkit.Tool) *mcp.ToolAnnotations {
	if !t.HintsDeclared {
		return nil
	}
	h := t.Hints
	a := &mcp.ToolAnnotations{Title: h.Title, ReadOnlyHint: h.ReadOnly, OpenWorldHint: &h.OpenWorld}
	if !h.ReadOnly {
		a.DestructiveHint, a.IdempotentHint = &h.Destructive, h.Idempotent
	}
	return a
}

// confirmID names the input request of a confirmation.
const confirmID = "confirm"

// handler answers a call of t.
func (b *binding) handler(t toolkit.Tool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args json.RawMessage
		c := caller{}
		if req != nil && req.Params != nil {
			args = req.Params.Arguments
			c.info = clientInfo(req)
			if req.Session != nil && (c.info == nil || c.info.Name != toolkit.ShellClient) {
				c.id = req.Session.ID()
			}
			if req.Session != nil {
				if tok := req.Params.GetProgressToken(); tok != nil {
					ctx = toolkit.WithProgress(ctx, progressTo(ctx, req.Session, tok))
				}
			}
			if q := t.Confirmation(ctx, args); q != "" {
				// Read only here: a client of protocol 2026-07-28 sends its
				// capabilities with each call, which the go-sdk decodes anew
				// at each read.
				if caps := req.ClientCapabilities(); caps != nil && caps.Elicitation != nil {
					c.canAsk = true
				}
				r, answered := req.Params.InputResponses[confirmID].(*mcp.ElicitResult)
				if answered && b.confirms.redeem(req.Params.RequestState, t.Name, args) {
					yes := r.Action == "accept"
					c.answer = &yes
				} else if c.canAsk {
					return &mcp.CallToolResult{RequestState: b.confirms.issue(t.Name, args),
						InputRequests: mcp.InputRequestMap{confirmID: &mcp.ElicitParams{Message: q, RequestedSchema: confirmSchema}}}, nil
				}
			}
		}
		env, failed := t.Call(toolkit.WithCaller(ctx, c), args)
		res := &mcp.CallToolResult{
			IsError:           failed,
			StructuredContent: env,
			Content:           []mcp.Content{&mcp.TextContent{Text: string(env)}},
		}
		if t.Links != nil && !failed {
			for _, l := range t.Links(env) {
				res.Content = append(res.Content, &mcp.ResourceLink{URI: l.URI, Name: l.Name, MIMEType: l.MIMEType})
			}
		}
		return res, nil
	}
}

// listedOnly shows in tools/list only the tools the toolbox lists, in
// the compact form of [listResult].
func listedOnly(tb *toolkit.Toolbox) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if l, ok := res.(*mcp.ListToolsResult); ok && err == nil && method == "tools/list" {
				kept := l.Tools[:0:0]
				for _, t := range l.Tools {
					if tb.Listed(t.Name) {
						kept = append(kept, t)
					}
				}
				c := *l
				c.Tools = kept
				return listResult{&c}, nil
			}
			return res, err
		}
	}
}

// progressTo sends each progress line as notifications/progress for tok,
// in order.
func progressTo(ctx context.Context, ss *mcp.ServerSession, tok any) func(string) {
	var mu sync.Mutex
	n := 0
	return func(line string) {
		mu.Lock()
		defer mu.Unlock()
		n++
		_ = ss.NotifyProgress(context.WithoutCancel(ctx), &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: float64(n), Message: line})
	}
}

// clientInfo is the name and version of the client of req. A client of
// protocol 2026-07-28 and later sends them with each call, as the
// request's metadata: read from the decoded map, where the go-sdk's
// ClientInfo would encode and decode them again at every call; any other
// shape is the go-sdk's to read.
func clientInfo(req *mcp.CallToolRequest) *mcp.Implementation {
	if m, ok := req.Params.GetMeta()[mcp.MetaKeyClientInfo].(map[string]any); ok {
		name, nameOK := m["name"].(string)
		version, versionOK := m["version"].(string)
		if _, sent := m["version"]; nameOK && (versionOK || !sent) {
			return &mcp.Implementation{Name: name, Version: version}
		}
	}
	return req.ClientInfo()
}

// caller is the client of one call.
type caller struct {
	info   *mcp.Implementation
	id     string // the MCP session's id; "" on stdio and for the user's shell
	canAsk bool   // the client has elicitation
	answer *bool  // the user's answer to this call's confirmation
}

func (c caller) Client() string {
	if c.info == nil {
		return ""
	}
	if c.info.Version == "" {
		return c.info.Name
	}
	return c.info.Name + " " + c.info.Version
}

// ClientID names the connection of the call (toolkit.Identified).
func (c caller) ClientID() string { return c.id }

// confirmSchema asks for nothing but the answer: accept is yes.
var confirmSchema = &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{}}

// Confirm returns the answer the call came back with; a client that
// cannot be asked has none.
func (c caller) Confirm(context.Context, string) (bool, error) {
	if c.answer == nil {
		return false, toolkit.ErrCannotConfirm
	}
	return *c.answer, nil
}
