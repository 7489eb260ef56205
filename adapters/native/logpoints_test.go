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
	return fakeWithAnswer(t, func(req *dap.Message) (any, error) {
		if req.Command == "initialize" {
			return caps, nil
		}
		return fakeLLDB(req)
	})
}

// fakeWithAnswer is a proxy in front of a fake lldb answering with answer.
func fakeWithAnswer(t *testing.T, answer daptest.Answer) (*daptest.Adapter, *dap.Conn) {
	t.Helper()
	fa, up := daptest.NewAdapter(t, answer)
	px := NewProxy(up, nil)
	t.Cleanup(px.Stop)
	conn := dap.NewConn(px.Client(), dap.Options{})
	t.Cleanup(func() { conn.Close() })
	return fa, conn
}

// TestAggregatePreview: a struct lldb shows as its type and address
// reads as its first children.
func TestAggregatePreview(t *testing.T) {
	_, conn := fakeWithAnswer(t, func(req *dap.Message) (any, error) {
		var a struct {
			Ref int `json:"variablesReference"`
		}
		_ = req.DecodeBody(&a)
		if req.Command != "variables" {
			return nil, nil
		}
		if a.Ref == 1 {
			return map[string]any{"variables": []map[string]any{
				{"name": "p", "value": "P @ 0x10", "type": "P", "variablesReference": 2},
				{"name": "n", "value": "7", "type": "int", "variablesReference": 0}}}, nil
		}
		return map[string]any{"variables": []map[string]any{
			{"name": "x", "value": "3", "type": "int"}, {"name": "in", "value": "Q @ 0x20", "type": "Q"}}}, nil
	})
	resp, err := conn.Request(ctx(t), "variables", map[string]any{"variablesReference": 1})
	if err != nil {
		t.Fatal(err)
	}
	var body struct {
		Variables []struct{ Value string } `json:"variables"`
	}
	_ = resp.DecodeBody(&body)
	if len(body.Variables) != 2 || body.Variables[0].Value != "{x: 3, in: {...}}" || body.Variables[1].Value != "7" {
		t.Errorf("variables %s", resp.Body)
	}
}
