package toolkit

import (
	"context"
	"errors"
)

// ErrResourceNotFound is wrapped by the error of a resource read or
// subscription that names no resource.
var ErrResourceNotFound = errors.New("resource not found")

// ResourceTemplate is a family of resources a capability serves, named
// by an RFC 6570 URI template (dbg://sessions/{id}/output).
type ResourceTemplate struct {
	URITemplate string
	Name        string
	Description string
	MIMEType    string
	// Read returns the content of one resource of the family. A URI that
	// names none is an error wrapping ErrResourceNotFound. Read must be
	// safe for concurrent use.
	Read func(ctx context.Context, uri string) (ResourceContent, error)
}

// ResourceContent is what a resource read returns.
type ResourceContent struct {
	MIMEType string
	Text     string
}

// ResourceServer serves resources to clients and tells subscribers of
// changes: package mcpbind's serves them on an MCP server. Its methods
// are safe for concurrent use.
type ResourceServer interface {
	AddResourceTemplate(t ResourceTemplate)
	// Updated tells the clients subscribed to uri that it changed.
	Updated(ctx context.Context, uri string)
}

// SetResourceServer sets where the Toolbox's resources are served.
func (tb *Toolbox) SetResourceServer(rs ResourceServer) {
	tb.mu.Lock()
	tb.resources = rs
	tb.mu.Unlock()
}

// AddResourceTemplate serves a family of resources, and reports whether
// the server serves resources at all (a Toolbox without a
// ResourceServer drops it).
func (tb *Toolbox) AddResourceTemplate(t ResourceTemplate) bool {
	tb.mu.Lock()
	rs := tb.resources
	tb.mu.Unlock()
	if rs == nil {
		return false
	}
	rs.AddResourceTemplate(t)
	return true
}

// ResourceUpdated tells the subscribers of uri that it changed.
func (tb *Toolbox) ResourceUpdated(ctx context.Context, uri string) {
	tb.mu.Lock()
	rs := tb.resources
	tb.mu.Unlock()
	if rs != nil {
		rs.Updated(ctx, uri)
	}
}
