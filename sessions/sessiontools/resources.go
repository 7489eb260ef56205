package sessiontools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
)

// Each session is two MCP resources: its state and its output. A client
// subscribed to one is told of every change (a stop, a resume, the
// program's exit; new output), so it need not poll wait_for_stop.
const (
	resourcePrefix  = "dbg://sessions/"
	stateResource   = "state"
	outputResource  = "output"
	maxResourceText = 64 << 10 // the output resource shows the newest 64 KiB
	notifyTimeout   = 5 * time.Second
)

// sessionResources names a session's resources.
type sessionResources struct {
	State  string `json:"state" jsonschema:"URI of the session's state resource (state, last stop, breakpoints); subscribe for a notification on every stop and exit"`
	Output string `json:"output" jsonschema:"URI of the session's output resource; subscribe for a notification on every output chunk"`
}

func resourcesOf(id string) sessionResources {
	return sessionResources{State: resourceURI(id, stateResource), Output: resourceURI(id, outputResource)}
}

func resourceURI(id, kind string) string { return resourcePrefix + id + "/" + kind }

// parseResourceURI returns the session id and kind a URI names.
func parseResourceURI(uri string) (id, kind string, ok bool) {
	rest, found := strings.CutPrefix(uri, resourcePrefix)
	if !found {
		return "", "", false
	}
	id, kind, found = strings.Cut(rest, "/")
	if !found || id == "" || (kind != stateResource && kind != outputResource) {
		return "", "", false
	}
	return id, kind, true
}

// stateContent is the content of a session's state resource.
type stateContent struct {
	sessions.SessionInfo
	Breakpoints []sessions.Breakpoint `json:"breakpoints"`
	// NextSince is the output's newest seq: get_output with since reads
	// what follows.
	NextSince int64            `json:"nextSince"`
	Resources sessionResources `json:"resources"`
}

// CheckResource refuses a URI that names no resource of a session of m,
// with an error wrapping toolkit.ErrResourceNotFound. Servers pass it to
// mcpbind.AllowSubscriptions.
func CheckResource(m *sessions.Manager) func(ctx context.Context, uri string) error {
	return func(_ context.Context, uri string) error {
		_, err := resourceSession(m, uri)
		return err
	}
}

func resourceSession(m *sessions.Manager, uri string) (*sessions.Session, error) {
	id, _, ok := parseResourceURI(uri)
	if !ok {
		return nil, fmt.Errorf("%w: %s is not dbg://sessions/{id}/state or dbg://sessions/{id}/output", toolkit.ErrResourceNotFound, uri)
	}
	s, err := m.Get(id)
	if err != nil || s.ID() != id {
		return nil, fmt.Errorf("%w: no session %q (list_debug_sessions lists them)", toolkit.ErrResourceNotFound, id)
	}
	return s, nil
}

// readSession returns a resource read of the session a URI names.
func readSession(m *sessions.Manager, read func(context.Context, *sessions.Session) (toolkit.ResourceContent, error)) func(context.Context, string) (toolkit.ResourceContent, error) {
	return func(ctx context.Context, uri string) (toolkit.ResourceContent, error) {
		s, err := resourceSession(m, uri)
		if err != nil {
			return toolkit.ResourceContent{}, err
		}
		return read(ctx, s)
	}
}

// registerResources serves each session of m as two resources of tb,
// dbg://sessions/{id}/state and dbg://sessions/{id}/output, and tells
// their subscribers of every change until m shuts down.
func registerResources(tb *toolkit.Toolbox, m *sessions.Manager) {
	served := tb.AddResourceTemplate(toolkit.ResourceTemplate{
		URITemplate: resourcePrefix + "{id}/" + stateResource,
		Name:        "session-state",
		Description: "A debug session's state, last stop (reason, thread, location, exception text), breakpoints and exit code, as JSON. Subscribers are notified on every stop, resume and exit.",
		MIMEType:    "application/json",
		LinkField:   "sessionId",
		Read: readSession(m, func(ctx context.Context, s *sessions.Session) (toolkit.ResourceContent, error) {
			st := stateContent{SessionInfo: s.StopInfo(ctx), Breakpoints: s.Breakpoints(), Resources: resourcesOf(s.ID())}
			if st.Breakpoints == nil {
				st.Breakpoints = []sessions.Breakpoint{}
			}
			_, _, st.NextSince = s.Output().Since(0, 1, "")
			b, err := json.Marshal(st)
			if err != nil {
				return toolkit.ResourceContent{}, err
			}
			return toolkit.ResourceContent{Text: string(tb.Redact(b))}, nil
		}),
	})
	if !served {
		return
	}
	tb.AddResourceTemplate(toolkit.ResourceTemplate{
		URITemplate: resourcePrefix + "{id}/" + outputResource,
		Name:        "session-output",
		Description: "A debug session's captured output (the program's stdout and stderr, adapter messages), newest 64 KiB, as text. Subscribers are notified on every output chunk; get_output reads it by seq and category.",
		MIMEType:    "text/plain",
		LinkField:   "sessionId",
		Read: readSession(m, func(_ context.Context, s *sessions.Session) (toolkit.ResourceContent, error) {
			text := s.Output().Text("")
			if len(text) > maxResourceText {
				text = text[len(text)-maxResourceText:]
				if i := strings.IndexByte(text, '\n'); i >= 0 {
					text = text[i+1:]
				}
			}
			return toolkit.ResourceContent{Text: text}, nil
		}),
	})
	m.Watch(func(id string, c sessions.Change) {
		kind := stateResource
		if c == sessions.ChangeOutput {
			kind = outputResource
		}
		ctx, cancel := context.WithTimeout(context.Background(), notifyTimeout)
		defer cancel()
		tb.ResourceUpdated(ctx, resourceURI(id, kind))
	})
}
