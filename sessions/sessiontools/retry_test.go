package sessiontools

import (
	"context"
	"encoding/json"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
)

// callEnv calls a tool and returns its envelope, failed or not.
func callEnv(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) toolkit.Envelope[json.RawMessage] {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var env toolkit.Envelope[json.RawMessage]
	if err := json.Unmarshal(b, &env); err != nil || env.Success == res.IsError {
		t.Fatalf("%s: %s", name, b)
	}
	return env
}

// Retried calls are safe: set_breakpoint gives back the same breakpoint;
// a failed operation fails the envelope; detach and close of an ended
// session answer clearly.
func TestRetriedCallsAndEndedSession(t *testing.T) {
	cs := connect(t)
	_, file, _, _ := runtime.Caller(0)
	prog := filepath.Join(filepath.Dir(file), "..", "..", "testdata", "mock", "loop.mock")
	id := call[sessionOut](t, cs, "create_debug_session", map[string]any{"language": "mock"}).SessionID
	var ids []int
	for i := 0; i < 3; i++ {
		ids = append(ids, call[breakpointOut](t, cs, "set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 10}).ID)
	}
	bp := call[breakpointOut](t, cs, "set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 10, "condition": "i == 2"})
	if ids[0] != ids[1] || ids[1] != ids[2] || bp.ID != ids[0] || bp.Condition != "i == 2" {
		t.Fatalf("ids %v, then %+v", ids, bp)
	}
	if l := call[breakpointsOut](t, cs, "list_breakpoints", map[string]any{"sessionId": id}); len(l.Breakpoints) != 1 {
		t.Fatalf("breakpoints %+v", l)
	}
	if st := call[sessionOut](t, cs, "start_debugging", map[string]any{"sessionId": id, "scriptPath": prog}); st.State != sessions.StatePaused {
		t.Fatalf("start %+v", st)
	}
	// An evaluation that fails is a failed envelope.
	if env := callEnv(t, cs, "evaluate_expression", map[string]any{"sessionId": id, "expression": "nope + 1"}); env.Success || env.Error == nil || env.Error.Code == toolkit.CodeInternal {
		t.Fatalf("evaluate: %+v", env)
	}
	call[okOut](t, cs, "clear_breakpoints", map[string]any{"sessionId": id})
	if r := call[sessions.Stop](t, cs, "continue_execution", map[string]any{"sessionId": id, "waitMs": 5000}); r.State != sessions.StateTerminated {
		t.Fatalf("continue: %+v", r)
	}
	for i := 0; i < 2; i++ {
		if out := call[okOut](t, cs, "detach_from_process", map[string]any{"sessionId": id}); !strings.Contains(out.Message, "exit") {
			t.Fatalf("detach %d of an ended session: %+v", i, out)
		}
	}
	if out := call[okOut](t, cs, "close_debug_session", map[string]any{"sessionId": id}); out.Message != "closed" {
		t.Fatalf("close: %+v", out)
	}
	env := callEnv(t, cs, "close_debug_session", map[string]any{"sessionId": id})
	if env.Success || env.Error.Code != toolkit.CodeSessionNotFound || !strings.Contains(env.Error.Message, "already closed") {
		t.Fatalf("second close: %+v", env.Error)
	}
}
