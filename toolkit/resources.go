package toolkit

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"strings"
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
	// LinkField, when set, names the field of a tool answer's data that
	// holds the one variable of URITemplate: the answers of tools added
	// with [LinkResources] that carry it link to the resource.
	LinkField string
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

// ResourceLink is a link to a resource in a tool's answer (an MCP
// resource_link content item).
type ResourceLink struct {
	URI      string
	Name     string
	MIMEType string
}

// AddResourceTemplate serves a family of resources, and reports whether
// the server serves resources at all (a Toolbox without a
// ResourceServer drops it).
func (tb *Toolbox) AddResourceTemplate(t ResourceTemplate) bool {
	tb.mu.Lock()
	rs := tb.resources
	if rs != nil && t.LinkField != "" {
		tb.linked = append(tb.linked, t)
	}
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

// linksOf returns the links of a successful answer: one per resource
// template whose LinkField the answer's data holds.
func (tb *Toolbox) linksOf(envelope json.RawMessage) []ResourceLink {
	tb.mu.Lock()
	linked := tb.linked
	tb.mu.Unlock()
	if len(linked) == 0 {
		return nil
	}
	var env struct {
		Success bool                       `json:"success"`
		Data    map[string]json.RawMessage `json:"data"`
	}
	if json.Unmarshal(envelope, &env) != nil || !env.Success {
		return nil
	}
	var out []ResourceLink
	for _, t := range linked {
		var v string
		if json.Unmarshal(env.Data[t.LinkField], &v) != nil || v == "" {
			continue
		}
		i, j := strings.IndexByte(t.URITemplate, '{'), strings.IndexByte(t.URITemplate, '}')
		if i < 0 || j < i {
			continue
		}
		out = append(out, ResourceLink{URI: t.URITemplate[:i] + url.PathEscape(v) + t.URITemplate[j+1:], Name: t.Name, MIMEType: t.MIMEType})
	}
	return out
}
