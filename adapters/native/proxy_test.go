package native

import (
	"context"
	"encoding/json"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/dap"
)

// fakeLLDB answers every request with success and records them; its
// setBreakpoints answer gives breakpoint ids 1, 2, ... Its messages go
// out through a queue, as a real adapter's through a pipe buffer.
type fakeLLDB struct {
	conn net.Conn
	mu   sync.Mutex
	seen []*dap.Message
	out  chan *dap.Message
}

func startFake(t *testing.T) (*fakeLLDB, *dap.Conn, chan *dap.Message) {
	t.Helper()
	mine, theirs := net.Pipe()
	f := &fakeLLDB{conn: mine, out: make(chan *dap.Message, 64)}
	go func() {
		for m := range f.out {
			b, _ := json.Marshal(m)
			if dap.WriteFrame(mine, b) != nil {
				return
			}
		}
	}()
	go func() {
		fr := dap.NewFrameReader(mine)
		for {
			body, err := fr.ReadFrame()
			if err != nil {
				return
			}
			m, err := dap.Decode(body)
			if err != nil {
				continue
			}
			f.mu.Lock()
			f.seen = append(f.seen, m)
			f.mu.Unlock()
			var resp any
			if m.Command == "setBreakpoints" {
				var a struct {
					Breakpoints []json.RawMessage `json:"breakpoints"`
				}
				_ = m.DecodeBody(&a)
				var bps []map[string]any
				for i := range a.Breakpoints {
					bps = append(bps, map[string]any{"id": i + 1, "verified": true})
				}
				resp = map[string]any{"breakpoints": bps}
			}
			if m.Command == "evaluate" {
				resp = map[string]any{"result": ` "hello"`}
			}
			ok := true
			r := &dap.Message{Type: "response", RequestSeq: m.Seq, Command: m.Command, Success: &ok}
			if resp != nil {
				r.Body, _ = json.Marshal(resp)
			}
			f.send(r)
		}
	}()
	px := NewProxy(theirs, Filters("c"))
	t.Cleanup(px.Stop)
	events := make(chan *dap.Message, 16)
	conn := dap.NewConn(px.Client(), dap.Options{OnEvent: func(m *dap.Message) { events <- m }})
	t.Cleanup(func() { conn.Close() })
	return f, conn, events
}

func (f *fakeLLDB) send(m *dap.Message) { f.out <- m }

func (f *fakeLLDB) stop(body map[string]any) {
	b, _ := json.Marshal(body)
	f.send(&dap.Message{Type: "event", Event: "stopped", Body: b})
}

func (f *fakeLLDB) count(command string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, m := range f.seen {
		if m.Command == command {
			n++
		}
	}
	return n
}

func (f *fakeLLDB) last(command string) *dap.Message {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := len(f.seen) - 1; i >= 0; i-- {
		if f.seen[i].Command == command {
			return f.seen[i]
		}
	}
	return nil
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
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
	if got := string(f.last("setBreakpoints").Arguments); got != `{"breakpoints":[{"line":3}],"source":{"path":"/x.c"}}` {
		t.Errorf("lldb got %s", got)
	}
	for i := 1; i <= 4; i++ {
		f.stop(map[string]any{"reason": "breakpoint", "threadId": 1, "hitBreakpointIds": []int{1}, "description": "breakpoint 1.1"})
	}
	select {
	case ev := <-events:
		if ev.Event != "stopped" {
			t.Fatalf("event %s", ev.Event)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the third hit did not stop")
	}
	waitFor(t, "three continues", func() bool { return f.count("continue") == 3 })
	select {
	case ev := <-events:
		t.Fatalf("a second stop came through: %s", ev.Body)
	case <-time.After(100 * time.Millisecond):
	}
}

func TestEntryStopReason(t *testing.T) {
	f, conn, events := startFake(t)
	if _, err := conn.Request(ctx(t), "launch", map[string]any{"stopOnEntry": true}); err != nil {
		t.Fatal(err)
	}
	f.stop(map[string]any{"reason": "exception", "threadId": 1, "description": "signal SIGSTOP"})
	ev := <-events
	var body struct {
		Reason string `json:"reason"`
	}
	_ = ev.DecodeBody(&body)
	if body.Reason != "entry" {
		t.Errorf("reason %q; want entry", body.Reason)
	}
}

func TestPauseSentAgainUntilStop(t *testing.T) {
	f, conn, events := startFake(t)
	if _, err := conn.Request(ctx(t), "pause", map[string]any{"threadId": 1}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "a repeated pause", func() bool { return f.count("pause") >= 2 })
	f.stop(map[string]any{"reason": "exception", "threadId": 1, "description": "signal SIGSTOP"})
	ev := <-events
	var body struct {
		Reason string `json:"reason"`
	}
	_ = ev.DecodeBody(&body)
	if body.Reason != "pause" {
		t.Errorf("reason %q; want pause", body.Reason)
	}
	n := f.count("pause")
	time.Sleep(2 * pauseEvery)
	if f.count("pause") != n {
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
