package main

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// updates records notifications/resources/updated, one pending mark
// per URI.
type updates struct {
	mu    sync.Mutex
	marks map[string]chan struct{}
}

func (u *updates) mark(uri string) chan struct{} {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.marks == nil {
		u.marks = map[string]chan struct{}{}
	}
	if u.marks[uri] == nil {
		u.marks[uri] = make(chan struct{}, 1)
	}
	return u.marks[uri]
}

func (u *updates) handler(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
	select {
	case u.mark(req.Params.URI) <- struct{}{}:
	default:
	}
}

// drain forgets the updates of uri received so far.
func (u *updates) drain(uri string) {
	select {
	case <-u.mark(uri):
	default:
	}
}

// waitFor waits for an update of uri, then reads the resource, until
// done accepts its text; it fails the test after 60 seconds.
func (u *updates) waitFor(t *testing.T, c *client, uri string, done func(text string) bool) string {
	t.Helper()
	deadline := time.After(60 * time.Second)
	for {
		select {
		case <-u.mark(uri):
			if text := readResource(t, c, uri); done(text) {
				return text
			}
		case <-deadline:
			t.Fatalf("no update of %s that shows what the test waits for (now: %s)", uri, readResource(t, c, uri))
		}
	}
}

func readResource(t *testing.T, c *client, uri string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := c.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		t.Fatalf("read %s: %v", uri, err)
	}
	if len(res.Contents) != 1 || res.Contents[0].URI != uri {
		t.Fatalf("read %s: contents %v", uri, res.Contents)
	}
	return res.Contents[0].Text
}

func stateOf(t *testing.T, text string) obj {
	t.Helper()
	var o obj
	if err := json.Unmarshal([]byte(text), &o); err != nil {
		t.Fatalf("the state resource is not JSON: %v: %s", err, text)
	}
	return o
}

// TestSessionResources: a go-sdk client subscribed to a session's state
// and output resources is told of each stop, output chunk and the exit,
// without wait_for_stop, and reads them; list_debug_sessions names them.
func TestSessionResources(t *testing.T) {
	t.Parallel()
	for _, f := range []struct {
		lang, file, marker  string
		first, last, ending string // output of the first pass, the last pass, the end
	}{
		{"python", "python/count.py", "BREAK: count", "pass i=0 total=0", "pass i=4 total=10", "counted total=10"},
		{"go", "go/count/main.go", "BREAK: count", "pass i=0 total=0", "pass i=4 total=10", "counted total=10"},
		{"javascript", "javascript/loop.js", "BP:loop", "i=0 total=0", "i=4 total=10", "done 10"},
	} {
		lang := f.lang
		t.Run(lang, func(t *testing.T) {
			file := fixture(t, f.file)
			program := file
			switch lang {
			case "python":
				requireDebugpy(t)
			case "go":
				requireDelve(t)
				program = goBinary(t, fixture(t, "go/count"))
			case "javascript":
				requireNode(t)
			}
			u := &updates{}
			c := startDbgWith(t, &mcp.ClientOptions{ResourceUpdatedHandler: u.handler}, nil)
			created := c.ok("create_debug_session", map[string]any{"language": lang})
			id := created.str("sessionId")
			stateURI, outputURI := "dbg://sessions/"+id+"/state", "dbg://sessions/"+id+"/output"
			if created.str("resources.state") != stateURI || created.str("resources.output") != outputURI {
				t.Errorf("create_debug_session names resources %v", created.get("resources"))
			}
			listed := c.ok("list_debug_sessions", nil).list("sessions")
			if len(listed) != 1 || listed[0].str("resources.state") != stateURI || listed[0].str("resources.output") != outputURI || listed[0].str("sessionId") != id {
				t.Fatalf("list_debug_sessions: %v", listed)
			}

			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			for _, uri := range []string{stateURI, outputURI} {
				if err := c.cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
					t.Fatalf("subscribe %s: %v", uri, err)
				}
			}
			for _, bad := range []string{"dbg://sessions/nosuch-1/state", "dbg://sessions/" + id + "/stack", "file:///etc/passwd"} {
				if _, err := c.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: bad}); err == nil {
					t.Errorf("read %s succeeded", bad)
				}
			}

			line := markedLineT(t, file, f.marker)
			bp := c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": file, "line": line})
			c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": program, "waitMs": 1})
			stoppedAt := func(text string) bool {
				st := stateOf(t, text)
				return st.str("state") == "paused" && st.num("lastStop.location.line") == line
			}
			st := stateOf(t, u.waitFor(t, c, stateURI, stoppedAt))
			if bps := st.list("breakpoints"); len(bps) != 1 || bps[0].num("id") != bp.num("id") || st.str("resources.output") != outputURI {
				t.Errorf("state resource: %v", st)
			}

			// The next pass: its output chunk and its stop arrive as updates.
			u.drain(stateURI)
			u.drain(outputURI)
			c.ok("continue_execution", map[string]any{"sessionId": id})
			u.waitFor(t, c, outputURI, func(text string) bool { return strings.Contains(text, f.first+"\n") })
			st = stateOf(t, u.waitFor(t, c, stateURI, stoppedAt))
			if st.str("lastStop.reason") != "breakpoint" {
				t.Errorf("second stop: %v", st.get("lastStop"))
			}
			if v := mcpEval(t, c, id, "i"); v != "1" {
				t.Errorf("second stop: i = %s, want 1", v)
			}

			// The exit.
			c.ok("remove_breakpoint", map[string]any{"sessionId": id, "breakpointId": bp.num("id")})
			u.drain(stateURI)
			u.drain(outputURI)
			c.ok("continue_execution", map[string]any{"sessionId": id})
			u.waitFor(t, c, stateURI, func(text string) bool { return stateOf(t, text).str("state") == "terminated" })
			u.waitFor(t, c, outputURI, func(text string) bool { return strings.Contains(text, f.ending+"\n") })
			if out := readResource(t, c, outputURI); !strings.Contains(out, f.last+"\n"+f.ending+"\n") {
				t.Errorf("output resource:\n%s", out)
			}
			mcpClose(t, c, id, nil)
			if _, err := c.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: stateURI}); err == nil {
				t.Errorf("the state of a closed session still reads")
			}
		})
	}
}
