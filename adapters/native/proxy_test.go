package native

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/dap"
	"github.com/dbg-dev/dbg/dap/daptest"
	"github.com/dbg-dev/dbg/internal/dbgtest"
)

// fakeLLDB answers setBreakpoints with breakpoint ids 1, 2, ... and
// evaluate with a summary that starts with a blank, as lldb does.
func fakeLLDB(req *dap.Message) (any, error) {
	switch req.Command {
	case "setBreakpoints":
		var a struct {
			Breakpoints []json.RawMessage `json:"breakpoints"`
		}
		_ = req.DecodeBody(&a)
		var bps []map[string]any
		for i := range a.Breakpoints {
			bps = append(bps, map[string]any{"id": i + 1, "verified": true})
		}
		return map[string]any{"breakpoints": bps}, nil
	case "evaluate":
		return map[string]any{"result": ` "hello"`}, nil
	case "exceptionInfo":
		return map[string]any{"exceptionId": "signal", "description": "signal SIGSTOP"}, nil
	}
	return nil, nil
}

func startFake(t *testing.T) (*daptest.Adapter, *dap.Conn, chan *dap.Message) {
	t.Helper()
	f, up := daptest.NewAdapter(t, fakeLLDB)
	px := NewProxy(up, Filters("c"))
	t.Cleanup(px.Stop)
	events := make(chan *dap.Message, 16)
	conn := dap.NewConn(px.Client(), dap.Options{OnEvent: func(m *dap.Message) { events <- m }})
	t.Cleanup(func() { conn.Close() })
	return f, conn, events
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	dbgtest.WaitFor(t, 5*time.Second, what, cond)
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return c
}

// TestHitConditionCounted: lldb gets no hit condition; the layer lets
// only the third stop through and resumes the others.
func TestHitConditionCounted(t *testing.T) {
	f, conn, events := startFake(t)
	if _, err := conn.Request(ctx(t), "setBreakpoints", map[string]any{
		"source": map[string]any{"path": "/x.c"}, "breakpoints": []map[string]any{{"line": 3, "hitCondition": "3"}}}); err != nil {
		t.Fatal(err)
	}
	if got := string(f.Requests("setBreakpoints")[0].Arguments); got != `{"breakpoints":[{"line":3}],"source":{"path":"/x.c"}}` {
		t.Errorf("lldb got %s", got)
	}
	for i := 1; i <= 4; i++ {
		f.Event("stopped", map[string]any{"reason": "breakpoint", "threadId": 1, "hitBreakpointIds": []int{1}, "description": "breakpoint 1.1"})
	}
	select {
	case ev := <-events:
		if ev.Event != "stopped" {
			t.Fatalf("event %s", ev.Event)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the third hit did not stop")
	}
	waitFor(t, "three continues", func() bool { return len(f.Requests("continue")) == 3 })
	select {
	case ev := <-events:
		t.Fatalf("a second stop came through: %s", ev.Body)
	case <-time.After(100 * time.Millisecond):
	}
}

// sigstopReason has lldb stop on SIGSTOP and returns the reason the
// client sees.
func sigstopReason(f *daptest.Adapter, events chan *dap.Message) string {
	f.Event("stopped", map[string]any{"reason": "exception", "threadId": 1, "description": "signal SIGSTOP"})
	ev := <-events
	var body struct {
		Reason string `json:"reason"`
	}
	_ = ev.DecodeBody(&body)
	return body.Reason
}

func TestEntryStopReason(t *testing.T) {
	f, conn, events := startFake(t)
	if _, err := conn.Request(ctx(t), "launch", map[string]any{"stopOnEntry": true}); err != nil {
		t.Fatal(err)
	}
	if got := sigstopReason(f, events); got != "entry" {
		t.Errorf("reason %q; want entry", got)
	}
}

// TestEntryStopReasonLLDB14: LLDB 14's stop names no signal; the layer
// asks exceptionInfo.
func TestEntryStopReasonLLDB14(t *testing.T) {
	f, conn, events := startFake(t)
	if _, err := conn.Request(ctx(t), "launch", map[string]any{"stopOnEntry": true}); err != nil {
		t.Fatal(err)
	}
	f.Event("stopped", map[string]any{"reason": "exception", "threadId": 1})
	ev := <-events
	var body struct {
		Reason string `json:"reason"`
	}
	_ = ev.DecodeBody(&body)
	if body.Reason != "entry" || len(f.Requests("exceptionInfo")) != 1 {
		t.Errorf("reason %q after %d exceptionInfo; want entry", body.Reason, len(f.Requests("exceptionInfo")))
	}
}

func TestPauseSentAgainUntilStop(t *testing.T) {
	f, conn, events := startFake(t)
	if _, err := conn.Request(ctx(t), "pause", map[string]any{"threadId": 1}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "a repeated pause", func() bool { return len(f.Requests("pause")) >= 2 })
	if got := sigstopReason(f, events); got != "pause" {
		t.Errorf("reason %q; want pause", got)
	}
	n := len(f.Requests("pause"))
	time.Sleep(2 * pauseEvery)
	if len(f.Requests("pause")) != n {
		t.Error("pause still repeated after the stop")
	}
}

func TestSummaryBlankTrimmed(t *testing.T) {
	_, conn, _ := startFake(t)
	resp, err := conn.Request(ctx(t), "evaluate", map[string]any{"expression": "s"})
	if err != nil {
		t.Fatal(err)
	}
	if string(resp.Body) != `{"result":"\"hello\""}` {
		t.Errorf("body %s; want the blank trimmed", resp.Body)
	}
}
