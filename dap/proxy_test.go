package dap

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"sync"
	"testing"
	"time"
)

// fakeAdapter is the adapter end of a proxy in tests: it records the
// requests it gets and answers them with answer (nil: success, empty
// body).
type fakeAdapter struct {
	t    *testing.T
	conn net.Conn

	mu   sync.Mutex
	seen []*Message
	wmu  sync.Mutex
}

func newFakeAdapter(t *testing.T, answer func(a *fakeAdapter, req *Message)) (*fakeAdapter, net.Conn) {
	t.Helper()
	mine, theirs := net.Pipe()
	a := &fakeAdapter{t: t, conn: mine}
	go readMessages(mine, func(m *Message) {
		a.mu.Lock()
		a.seen = append(a.seen, m)
		a.mu.Unlock()
		if answer != nil {
			answer(a, m)
		} else {
			a.reply(m, true, nil)
		}
	})
	return a, theirs
}

func (a *fakeAdapter) send(m *Message) {
	b, _ := json.Marshal(m)
	a.wmu.Lock()
	defer a.wmu.Unlock()
	_ = WriteFrame(a.conn, b)
}

func (a *fakeAdapter) reply(req *Message, ok bool, body any) {
	m := &Message{Seq: 1000 + req.Seq, Type: "response", RequestSeq: req.Seq, Command: req.Command, Success: boolPtr(ok)}
	if body != nil {
		m.Body = mustMarshal(body)
	}
	if !ok {
		m.Message = "nope"
	}
	a.send(m)
}

func (a *fakeAdapter) requests() []*Message {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]*Message(nil), a.seen...)
}

// rawClient speaks frames on the client end, to see the proxy's numbers.
type rawClient struct {
	conn net.Conn
	fr   *FrameReader
}

func (c *rawClient) send(t *testing.T, m *Message) {
	t.Helper()
	b, _ := json.Marshal(m)
	if err := WriteFrame(c.conn, b); err != nil {
		t.Fatal(err)
	}
}

func (c *rawClient) read(t *testing.T) *Message {
	t.Helper()
	_ = c.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	body, err := c.fr.ReadFrame()
	if err != nil {
		t.Fatal(err)
	}
	m, err := Decode(body)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestProxyRenumbersAndPairs(t *testing.T) {
	// The adapter answers "slow" only after "fast", so answers cross.
	var held *Message
	a, up := newFakeAdapter(t, func(a *fakeAdapter, req *Message) {
		switch req.Command {
		case "slow":
			held = req
		case "fast":
			a.reply(req, true, map[string]any{"who": "fast"})
			a.reply(held, true, map[string]any{"who": "slow"})
		}
	})
	p := NewProxy(up)
	t.Cleanup(p.Stop)
	c := &rawClient{conn: p.Client(), fr: NewFrameReader(p.Client())}
	c.send(t, &Message{Seq: 100, Type: "request", Command: "slow"})
	c.send(t, &Message{Seq: 200, Type: "request", Command: "fast"})
	r1, r2 := c.read(t), c.read(t)
	if r1.RequestSeq != 200 || r1.Command != "fast" || r2.RequestSeq != 100 || r2.Command != "slow" {
		t.Fatalf("answers paired wrong: %+v %+v", r1, r2)
	}
	if r1.Seq != 1 || r2.Seq != 2 {
		t.Errorf("client-side seqs %d, %d; want 1, 2", r1.Seq, r2.Seq)
	}
	reqs := a.requests()
	if len(reqs) != 2 || reqs[0].Seq != 1 || reqs[1].Seq != 2 {
		t.Errorf("adapter saw seqs %v; want 1, 2", reqs)
	}
}

func TestProxyCallErrorResponse(t *testing.T) {
	_, up := newFakeAdapter(t, func(a *fakeAdapter, req *Message) { a.reply(req, false, errorBody("no such thing")) })
	var link *Link
	p := NewProxy(up, func(l *Link) Hooks { link = l; return Hooks{} })
	t.Cleanup(p.Stop)
	_, err := link.Call(testCtx(t), "evaluate", map[string]any{"expression": "x"})
	var re *ResponseError
	if !errors.As(err, &re) || re.Message != "no such thing" || re.Short != "nope" || re.Command != "evaluate" {
		t.Fatalf("err = %v (%T); want a *ResponseError", err, err)
	}
}

func TestProxyHookAnswersLocally(t *testing.T) {
	a, up := newFakeAdapter(t, nil)
	p := NewProxy(up, func(l *Link) Hooks {
		return Hooks{Request: func(r *Request) Verdict {
			if r.Command != "exceptionInfo" {
				return Pass
			}
			r.Respond(map[string]any{"exceptionId": "E"}, nil)
			return Hold
		}}
	})
	t.Cleanup(p.Stop)
	conn := NewConn(p.Client(), Options{})
	t.Cleanup(func() { conn.Close() })
	resp, err := conn.Request(testCtx(t), "exceptionInfo", nil)
	if err != nil || string(resp.Body) != `{"exceptionId":"E"}` {
		t.Fatalf("resp %v, err %v", resp, err)
	}
	if _, err := conn.Request(testCtx(t), "threads", nil); err != nil {
		t.Fatal(err)
	}
	for _, m := range a.requests() {
		if m.Command == "exceptionInfo" {
			t.Error("the adapter got a request the layer answered")
		}
	}
}

func TestProxyHookDropsEvent(t *testing.T) {
	a, up := newFakeAdapter(t, nil)
	p := NewProxy(up, func(l *Link) Hooks {
		return Hooks{Event: func(ev *Message) Verdict {
			if ev.Event == "noise" {
				return Hold
			}
			return Pass
		}}
	})
	t.Cleanup(p.Stop)
	got := make(chan string, 4)
	conn := NewConn(p.Client(), Options{OnEvent: func(m *Message) { got <- m.Event }})
	t.Cleanup(func() { conn.Close() })
	a.send(&Message{Seq: 1, Type: "event", Event: "noise"})
	a.send(&Message{Seq: 2, Type: "event", Event: "stopped"})
	select {
	case ev := <-got:
		if ev != "stopped" {
			t.Fatalf("first event %q; want stopped", ev)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no event")
	}
}

// TestProxyLayersCompose checks the order of two layers: the outer one
// sees the client's request first and the answer last; the inner one's
// Call passes no outer hook; the outer one's Call passes the inner hooks.
func TestProxyLayersCompose(t *testing.T) {
	a, up := newFakeAdapter(t, func(a *fakeAdapter, req *Message) {
		a.reply(req, true, map[string]any{"args": json.RawMessage(req.Arguments)})
	})
	var mu sync.Mutex
	var trace []string
	note := func(s string) {
		mu.Lock()
		trace = append(trace, s)
		mu.Unlock()
	}
	var outer, inner *Link
	p := NewProxy(up,
		func(l *Link) Hooks {
			outer = l
			return Hooks{
				Request: func(r *Request) Verdict {
					note("outer req " + r.Command)
					r.Arguments = json.RawMessage(`{"by":"outer"}`)
					return Pass
				},
				Response: func(r *Request, resp *Message) Verdict {
					note("outer resp " + resp.Command)
					return Pass
				},
				Event: func(ev *Message) Verdict { note("outer event " + ev.Event); return Pass },
			}
		},
		func(l *Link) Hooks {
			inner = l
			return Hooks{
				Request: func(r *Request) Verdict {
					note("inner req " + r.Command + " " + string(r.Arguments))
					r.Note = "kept"
					return Pass
				},
				Response: func(r *Request, resp *Message) Verdict {
					note("inner resp " + resp.Command + " " + r.Note.(string))
					return Pass
				},
				Event: func(ev *Message) Verdict {
					note("inner event " + ev.Event)
					ev.Body = json.RawMessage(`{"by":"inner"}`)
					return Pass
				},
			}
		})
	t.Cleanup(p.Stop)
	events := make(chan *Message, 4)
	conn := NewConn(p.Client(), Options{OnEvent: func(m *Message) { events <- m }})
	t.Cleanup(func() { conn.Close() })
	ctx := testCtx(t)
	resp, err := conn.Request(ctx, "threads", map[string]any{"by": "client"})
	if err != nil || string(resp.Body) != `{"args":{"by":"outer"}}` {
		t.Fatalf("resp %s, err %v", resp.Body, err)
	}
	if _, err := inner.Call(ctx, "innercall", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := outer.Call(ctx, "outercall", map[string]any{"by": "outer-call"}); err != nil {
		t.Fatal(err)
	}
	a.send(&Message{Seq: 9, Type: "event", Event: "stopped"})
	ev := <-events
	if string(ev.Body) != `{"by":"inner"}` {
		t.Errorf("event body %s; want the inner layer's", ev.Body)
	}
	inner.Event("output", map[string]any{"output": "x"})
	if ev := <-events; ev.Event != "output" {
		t.Errorf("event %q; want output", ev.Event)
	}
	want := []string{
		"outer req threads", `inner req threads {"by":"outer"}`, "inner resp threads kept", "outer resp threads",
		// innercall: no hooks
		`inner req outercall {"by":"outer-call"}`, "inner resp outercall kept",
		"inner event stopped", "outer event stopped",
		"outer event output",
	}
	mu.Lock()
	defer mu.Unlock()
	if len(trace) != len(want) {
		t.Fatalf("trace\n%q\nwant\n%q", trace, want)
	}
	for i := range want {
		if trace[i] != want[i] {
			t.Fatalf("trace\n%q\nwant\n%q", trace, want)
		}
	}
}

// TestProxyHoldAndReply holds a response and an event and sends them later.
func TestProxyHoldAndReply(t *testing.T) {
	a, up := newFakeAdapter(t, nil)
	later := make(chan func(), 2)
	p := NewProxy(up, func(l *Link) Hooks {
		return Hooks{
			Response: func(r *Request, resp *Message) Verdict {
				later <- func() { resp.Body = json.RawMessage(`{"late":true}`); r.Reply(resp) }
				return Hold
			},
			Event: func(ev *Message) Verdict {
				later <- func() { l.Send(ev) }
				return Hold
			},
		}
	})
	t.Cleanup(p.Stop)
	events := make(chan string, 2)
	conn := NewConn(p.Client(), Options{OnEvent: func(m *Message) { events <- m.Event }})
	t.Cleanup(func() { conn.Close() })
	call, err := conn.Start(testCtx(t), "threads", nil)
	if err != nil {
		t.Fatal(err)
	}
	(<-later)()
	resp, err := call.Wait(testCtx(t), 0)
	if err != nil || string(resp.Body) != `{"late":true}` {
		t.Fatalf("resp %v, err %v", resp, err)
	}
	a.send(&Message{Seq: 5, Type: "event", Event: "stopped"})
	(<-later)()
	if ev := <-events; ev != "stopped" {
		t.Errorf("event %q", ev)
	}
}

func TestProxyCloseBreaksStuckWrite(t *testing.T) {
	a, up := newFakeAdapter(t, nil)
	p := NewProxy(up)
	// Nobody reads the client end: the proxy's write of the event sticks.
	a.send(&Message{Seq: 1, Type: "event", Event: "output"})
	time.Sleep(50 * time.Millisecond)
	done := make(chan struct{})
	go func() {
		p.Stop()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not break a stuck write")
	}
}

func TestProxyCallAfterClose(t *testing.T) {
	_, up := newFakeAdapter(t, nil)
	var link *Link
	p := NewProxy(up, func(l *Link) Hooks { link = l; return Hooks{} })
	p.Stop()
	if _, err := link.Call(testCtx(t), "threads", nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("err = %v; want ErrClosed", err)
	}
	if err := link.Post("continue", nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("Post err = %v; want ErrClosed", err)
	}
}

func TestProxyPendingCallFailsWhenAdapterGoes(t *testing.T) {
	_, up := newFakeAdapter(t, func(a *fakeAdapter, req *Message) { a.conn.Close() })
	var link *Link
	ended := make(chan struct{})
	p := NewProxy(up, func(l *Link) Hooks { link = l; return Hooks{Ended: func() { close(ended) }} })
	t.Cleanup(p.Stop)
	if _, err := link.Call(testCtx(t), "threads", nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("err = %v; want ErrClosed", err)
	}
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		t.Fatal("Ended hook not called")
	}
}

func TestProxyReverseRequest(t *testing.T) {
	a, up := newFakeAdapter(t, nil)
	p := NewProxy(up)
	t.Cleanup(p.Stop)
	conn := NewConn(p.Client(), Options{OnRequest: func(ctx context.Context, req *Message) (any, error) {
		return map[string]any{"processId": 7}, nil
	}})
	t.Cleanup(func() { conn.Close() })
	a.send(&Message{Seq: 77, Type: "request", Command: "runInTerminal"})
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		for _, m := range a.requests() {
			if m.Type == "response" && m.RequestSeq == 77 && string(m.Body) == `{"processId":7}` {
				return
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("the reverse request's answer did not reach the adapter: %v", a.requests())
}

func TestProxyAnswerTwicePanics(t *testing.T) {
	_, up := newFakeAdapter(t, nil)
	panicked := make(chan any, 1)
	p := NewProxy(up, func(l *Link) Hooks {
		return Hooks{Request: func(r *Request) (v Verdict) {
			r.Respond(nil, nil)
			defer func() { panicked <- recover(); v = Hold }()
			r.Respond(nil, nil)
			return Hold
		}}
	})
	t.Cleanup(p.Stop)
	c := &rawClient{conn: p.Client(), fr: NewFrameReader(p.Client())}
	go func() {
		b, _ := json.Marshal(&Message{Seq: 1, Type: "request", Command: "threads"})
		_ = WriteFrame(c.conn, b)
	}()
	_ = c.read(t)
	if r := <-panicked; r == nil {
		t.Fatal("answering a request twice did not panic")
	}
}

// FuzzProxyFromAdapter feeds the proxy arbitrary adapter output: nothing
// may panic, and the proxy must still close.
func FuzzProxyFromAdapter(f *testing.F) {
	f.Add([]byte("Content-Length: 52\r\n\r\n{\"seq\":1,\"type\":\"response\",\"request_seq\":1,\"success\":true}"))
	f.Add([]byte("Content-Length: 38\r\n\r\n{\"seq\":1,\"type\":\"event\",\"event\":\"x\"}"))
	f.Add([]byte("Content-Length: 45\r\n\r\n{\"seq\":3,\"type\":\"request\",\"command\":\"run\"}"))
	f.Add([]byte("Content-Length: 2\r\n\r\n{}garbage"))
	f.Fuzz(func(t *testing.T, data []byte) {
		mine, theirs := net.Pipe()
		p := NewProxy(theirs, func(l *Link) Hooks {
			return Hooks{Event: func(ev *Message) Verdict { return Hold }}
		})
		go func() { // drain the client end
			fr := NewFrameReader(p.Client())
			for {
				if _, err := fr.ReadFrame(); err != nil {
					return
				}
			}
		}()
		_, _ = mine.Write(data)
		mine.Close()
		p.Stop()
	})
}
