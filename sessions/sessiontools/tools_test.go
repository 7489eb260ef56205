package sessiontools

import (
	"context"
	"encoding/json"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
	"github.com/dbg-dev/dbg/toolkit/mcpbind"
)

// connect serves the session tools of a fresh manager in memory.
func connect(t *testing.T) *mcp.ClientSession {
	t.Helper()
	m := sessions.NewManager(sessions.Config{Adapters: adapters.Default(), StateDir: t.TempDir()})
	t.Cleanup(func() { m.Shutdown(context.Background()) })
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "0"}, nil)
	tb := mcpbind.NewToolbox(srv, nil)
	New(m).Register(tb)
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func call[T any](t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) T {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var env toolkit.Envelope[T]
	if err := json.Unmarshal(b, &env); err != nil || !env.Success || env.Data == nil {
		t.Fatalf("%s: %s", name, b)
	}
	return *env.Data
}

// Each step tool takes the step it names: into add, out of it, over a line.
func TestStepTools(t *testing.T) {
	cs := connect(t)
	_, file, _, _ := runtime.Caller(0)
	prog := filepath.Join(filepath.Dir(file), "..", "..", "testdata", "mock", "loop.mock")
	created := call[sessionOut](t, cs, "create_debug_session", map[string]any{"language": "mock"})
	id := created.SessionID
	call[breakpointOut](t, cs, "set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 10})
	if st := call[sessionOut](t, cs, "start_debugging", map[string]any{"sessionId": id, "scriptPath": prog}); st.State != sessions.StatePaused {
		t.Fatalf("start %+v", st)
	}
	where := func(tool string) *sessions.Location {
		t.Helper()
		r := call[sessions.Stop](t, cs, tool, map[string]any{"sessionId": id, "waitMs": "5000"})
		if r.LastStop == nil || r.LastStop.Location == nil {
			t.Fatalf("%s: no stop %+v", tool, r)
		}
		return r.LastStop.Location
	}
	if l := where("step_into"); l.Function != "add" {
		t.Fatalf("step_into stopped in %+v", l)
	}
	if l := where("step_out"); l.Function != "main" || l.Line != 11 {
		t.Fatalf("step_out stopped at %+v", l)
	}
	if l := where("step_over"); l.Function != "main" || l.Line == 11 {
		t.Fatalf("step_over stopped at %+v", l)
	}
	if st := call[sessions.Status](t, cs, "get_debug_tools_status", map[string]any{"sessionId": id}); st.NextAction != toolkit.NextInspectStop || st.Session == nil {
		t.Fatalf("status %+v", st)
	}
}
