package native

import (
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/dap"
	"github.com/dbg-dev/dbg/dap/daptest"
)

// watchLLDB answers lldb's watchpoint commands as lldb does: each
// `watchpoint set` creates the next watchpoint.
func watchLLDB(n *atomic.Int32) daptest.Answer {
	return func(req *dap.Message) (any, error) {
		if req.Command == "initialize" {
			return map[string]any{"supportsLogPoints": true}, nil // as LLDB 16 does
		}
		if req.Command != "evaluate" {
			return nil, nil
		}
		var a struct{ Expression string }
		_ = req.DecodeBody(&a)
		switch {
		case strings.HasPrefix(a.Expression, "`watchpoint set variable -w write -- nosuch"):
			return map[string]any{"result": "error: invalid variable path 'nosuch'"}, nil
		case strings.HasPrefix(a.Expression, "`watchpoint set"):
			return map[string]any{"result": "Watchpoint created: Watchpoint " + string(rune('0'+n.Add(1))) + ": addr = 0x601040 size = 4 state = enabled type = w"}, nil
		}
		return map[string]any{"result": ""}, nil
	}
}

func TestDataBreakpointsThroughWatchpoints(t *testing.T) {
	var n atomic.Int32
	f, up := daptest.NewAdapter(t, watchLLDB(&n))
	px := NewProxy(up, nil)
	t.Cleanup(px.Stop)
	events := make(chan *dap.Message, 16)
	conn := dap.NewConn(px.Client(), dap.Options{OnEvent: func(m *dap.Message) { events <- m }})
	t.Cleanup(func() { conn.Close() })

	resp, err := conn.Request(ctx(t), "initialize", map[string]any{"adapterID": "lldb"})
	if err != nil || !strings.Contains(string(resp.Body), `"supportsDataBreakpoints":true`) {
		t.Fatalf("initialize: %s %v", resp.Body, err)
	}
	resp, err = conn.Request(ctx(t), "dataBreakpointInfo", map[string]any{"name": "nosuch"})
	if err != nil || !strings.Contains(string(resp.Body), `"dataId":null`) {
		t.Errorf("info of a name lldb cannot watch: %s %v", resp.Body, err)
	}
	resp, err = conn.Request(ctx(t), "dataBreakpointInfo", map[string]any{"name": "s->n"})
	var info struct{ DataID string }
	_ = json.Unmarshal(resp.Body, &info)
	if err != nil || info.DataID != "0x601040/4/s->n" {
		t.Fatalf("dataBreakpointInfo: %s %v", resp.Body, err)
	}
	resp, err = conn.Request(ctx(t), "setDataBreakpoints", map[string]any{"breakpoints": []any{
		map[string]any{"dataId": info.DataID, "accessType": "write", "hitCondition": "2"}}})
	var set struct {
		Breakpoints []struct {
			ID       int
			Verified bool
		}
	}
	_ = json.Unmarshal(resp.Body, &set)
	if err != nil || len(set.Breakpoints) != 1 || !set.Breakpoints[0].Verified {
		t.Fatalf("setDataBreakpoints: %s %v", resp.Body, err)
	}
	var cmds []string
	for _, r := range f.Requests("evaluate") {
		var a struct{ Expression string }
		_ = r.DecodeBody(&a)
		cmds = append(cmds, a.Expression)
	}
	if want := "`watchpoint set expression -w write -s 4 -- 0x601040"; cmds[len(cmds)-1] != want || cmds[len(cmds)-2] != "`watchpoint delete 1" {
		t.Errorf("lldb got %q", cmds)
	}
	for range 2 {
		f.Event("stopped", map[string]any{"reason": "breakpoint", "threadId": 1, "description": "watchpoint 2"})
	}
	select {
	case ev := <-events:
		var body struct {
			Reason           string
			HitBreakpointIds []int
		}
		_ = ev.DecodeBody(&body)
		if body.Reason != "data breakpoint" || len(body.HitBreakpointIds) != 1 || body.HitBreakpointIds[0] != set.Breakpoints[0].ID {
			t.Errorf("stop %s, want a data breakpoint", ev.Body)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the second hit did not stop")
	}
	// The layer's continue and the second stop cross: the continue may
	// reach the adapter after the stop reached the client.
	deadline := time.Now().Add(5 * time.Second)
	for len(f.Requests("continue")) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := len(f.Requests("continue")); got != 1 {
		t.Errorf("%d continues, want the first hit resumed", got)
	}
}

// An LLDB without log points (14) names no watchpoint in its stops: the
// layer announces no data breakpoints for it.
func TestNoDataBreakpointsOnLLDB14(t *testing.T) {
	_, up := daptest.NewAdapter(t, func(*dap.Message) (any, error) { return nil, nil })
	px := NewProxy(up, nil)
	t.Cleanup(px.Stop)
	conn := dap.NewConn(px.Client(), dap.Options{})
	t.Cleanup(func() { conn.Close() })
	resp, err := conn.Request(ctx(t), "initialize", map[string]any{"adapterID": "lldb"})
	if err != nil || strings.Contains(string(resp.Body), "supportsDataBreakpoints") {
		t.Fatalf("initialize of an LLDB without log points: %s %v", resp.Body, err)
	}
}
