package native

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/dap"
	"github.com/dbg-dev/dbg/dap/daptest"
)

// TestLogPointsKept: an lldb without supportsLogPoints gets a plain
// breakpoint; a stop there prints the message with its expression
// evaluated and resumes, and the client never sees the stop.
func TestLogPointsKept(t *testing.T) {
	f, conn, events := startFake(t)
	resp, err := conn.Request(ctx(t), "initialize", map[string]any{"adapterID": "lldb"})
	if err != nil {
		t.Fatal(err)
	}
	var caps map[string]any
	_ = json.Unmarshal(resp.Body, &caps)
	if caps["supportsLogPoints"] != true {
		t.Fatalf("initialize answered %s, want supportsLogPoints", resp.Body)
	}
	if _, err := conn.Request(ctx(t), "setBreakpoints", map[string]any{
		"source": map[string]any{"path": "/x.c"}, "breakpoints": []map[string]any{{"line": 3, "logMessage": "lp {s}"}}}); err != nil {
		t.Fatal(err)
	}
	if got := string(f.Requests("setBreakpoints")[0].Arguments); got != `{"breakpoints":[{"line":3}],"source":{"path":"/x.c"}}` {
		t.Errorf("lldb got %s", got)
	}
	f.Event("stopped", map[string]any{"reason": "breakpoint", "threadId": 1, "hitBreakpointIds": []int{1}, "description": "breakpoint 1.1"})
	select {
	case ev := <-events:
		var body struct {
			Output string `json:"output"`
		}
		_ = ev.DecodeBody(&body)
		if ev.Event != "output" || body.Output != "lp \"hello\"\n" {
			t.Fatalf("event %s %s, want the log line", ev.Event, ev.Body)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no log line")
	}
	waitFor(t, "the continue", func() bool { return len(f.Requests("continue")) == 1 })
	select {
	case ev := <-events:
		t.Fatalf("the log point's stop came through: %s %s", ev.Event, ev.Body)
	case <-time.After(100 * time.Millisecond):
	}
}

// TestLogPointsLeftToLLDB: an lldb with log points gets them as sent.
func TestLogPointsLeftToLLDB(t *testing.T) {
	f, up := fakeWithCaps(t, map[string]any{"supportsLogPoints": true})
	if _, err := up.Request(ctx(t), "initialize", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	if _, err := up.Request(ctx(t), "setBreakpoints", map[string]any{
		"source": map[string]any{"path": "/x.c"}, "breakpoints": []map[string]any{{"line": 3, "logMessage": "lp {s}"}}}); err != nil {
		t.Fatal(err)
	}
	if got := string(f.Requests("setBreakpoints")[0].Arguments); got != `{"breakpoints":[{"line":3,"logMessage":"lp {s}"}],"source":{"path":"/x.c"}}` {
		t.Errorf("lldb got %s", got)
	}
}

// fakeWithCaps is startFake with an initialize answer of caps.
func fakeWithCaps(t *testing.T, caps map[string]any) (*daptest.Adapter, *dap.Conn) {
	t.Helper()
	fa, up := daptest.NewAdapter(t, func(req *dap.Message) (any, error) {
		if req.Command == "initialize" {
			return caps, nil
		}
		return fakeLLDB(req)
	})
	px := NewProxy(up, nil)
	t.Cleanup(px.Stop)
	conn := dap.NewConn(px.Client(), dap.Options{})
	t.Cleanup(func() { conn.Close() })
	return fa, conn
}
