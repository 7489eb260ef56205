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

// echoHandler answers every request, emits an event, and sends a reverse
// request when asked.
type testHandler struct{}

func (testHandler) Handle(ctx context.Context, s *ServerConn, req *Message) {
	switch req.Command {
	case "slow":
		go func() {
			time.Sleep(300 * time.Millisecond)
			s.Respond(req, map[string]int{"n": 1})
		}()
	case "fail":
		s.RespondError(req, "it failed: {reason}")
	case "panic":
		panic("boom")
	case "never":
		// no answer: the client's deadline must fire
	default:
		s.Event("custom", map[string]string{"for": req.Command})
		s.Respond(req, map[string]string{"echo": req.Command})
	}
}

func pipeConn(t *testing.T, opts Options) *Conn {
	t.Helper()
	a, b := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = Serve(ctx, b, testHandler{}, nil); close(done) }()
	c := NewConn(a, opts)
	t.Cleanup(func() {
		cancel()
		_ = c.Close()
		<-done
	})
	return c
}

func TestConnRequestsAndEvents(t *testing.T) {
	var mu sync.Mutex
	var events []string
	c := pipeConn(t, Options{OnEvent: func(m *Message) {
		mu.Lock()
		events = append(events, m.Event)
		mu.Unlock()
	}})
	ctx := context.Background()
	resp, err := c.Request(ctx, "hello", map[string]int{"x": 1})
	if err != nil {
		t.Fatal(err)
	}
	var body struct{ Echo string }
	if err := resp.DecodeBody(&body); err != nil || body.Echo != "hello" {
		t.Fatalf("body %+v %v", body, err)
	}
	// Concurrent requests are correlated by seq, whatever the order of answers.
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := "slow"
			if i%2 == 0 {
				cmd = "fast"
			}
			r, err := c.Request(ctx, cmd, nil)
			if err != nil {
				t.Error(err)
				return
			}
			if r.Command != cmd {
				t.Errorf("answer to %s was for %s", cmd, r.Command)
			}
		}()
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	if len(events) < 2 || events[0] != "custom" {
		t.Fatalf("events %v", events)
	}
}

func TestConnErrors(t *testing.T) {
	c := pipeConn(t, Options{Timeout: 200 * time.Millisecond})
	ctx := context.Background()
	_, err := c.Request(ctx, "fail", nil)
	var re *ResponseError
	if !errors.As(err, &re) || re.Message != "it failed: {reason}" {
		t.Fatalf("want ResponseError, got %v", err)
	}
	if _, err := c.Request(ctx, "panic", nil); !errors.As(err, &re) {
		t.Fatalf("a handler panic must become an error response, got %v", err)
	}
	start := time.Now()
	if _, err := c.Request(ctx, "never", nil); !errors.Is(err, ErrTimeout) {
		t.Fatalf("want ErrTimeout, got %v", err)
	}
	if time.Since(start) > 2*time.Second {
		t.Fatalf("deadline not honoured")
	}
	// The connection still works after a timeout.
	if _, err := c.Request(ctx, "hello", nil); err != nil {
		t.Fatal(err)
	}
	_ = c.Close()
	if _, err := c.Request(ctx, "hello", nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("after close: %v", err)
	}
}

func TestConnPeerGoneFailsPending(t *testing.T) {
	a, b := net.Pipe()
	c := NewConn(a, Options{})
	defer c.Close()
	go func() {
		// The peer reads the request, then goes away without answering.
		_, _ = NewFrameReader(b).ReadFrame()
		_ = b.Close()
	}()
	call, err := c.Start(context.Background(), "anything", nil)
	if err == nil {
		_, err = call.Wait(context.Background(), 5*time.Second)
	}
	if !errors.Is(err, ErrClosed) {
		t.Fatalf("pending request after peer close: %v", err)
	}
	select {
	case <-c.Done():
	case <-time.After(2 * time.Second):
		t.Fatal("Done not closed after the peer went away")
	}
}

func TestConnReverseRequest(t *testing.T) {
	a, b := net.Pipe()
	got := make(chan string, 1)
	c := NewConn(a, Options{OnRequest: func(ctx context.Context, req *Message) (any, error) {
		got <- req.Command
		return map[string]int{"processId": 42}, nil
	}})
	defer c.Close()
	defer b.Close()
	go func() {
		req, _ := json.Marshal(Message{Seq: 1, Type: "request", Command: "runInTerminal", Arguments: json.RawMessage(`{"args":["x"]}`)})
		_ = WriteFrame(b, req)
	}()
	fr := NewFrameReader(b)
	body, err := fr.ReadFrame()
	if err != nil {
		t.Fatal(err)
	}
	m, err := Decode(body)
	if err != nil || m.Type != "response" || m.RequestSeq != 1 || !m.OK() || string(m.Body) != `{"processId":42}` {
		t.Fatalf("reverse response %s (%v)", body, err)
	}
	if <-got != "runInTerminal" {
		t.Fatal("handler not called")
	}
}

func TestTrafficLog(t *testing.T) {
	dir := t.TempDir()
	log, err := OpenTrafficLog(dir, "s1", nil)
	if err != nil || log == nil {
		t.Fatal(err)
	}
	c := pipeConn(t, Options{Log: log})
	if _, err := c.Request(context.Background(), "hello", nil); err != nil {
		t.Fatal(err)
	}
	_ = c.Close()
	if l, _ := OpenTrafficLog("", "x", nil); l != nil {
		t.Fatal("empty dir must disable the log")
	}
	data, err := readFile(dir + "/s1.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := splitLines(data)
	if len(lines) < 3 {
		t.Fatalf("want send, event and response lines, got %q", data)
	}
	for _, l := range lines {
		var v struct {
			Dir string
			Msg map[string]any
		}
		if err := json.Unmarshal([]byte(l), &v); err != nil || (v.Dir != "send" && v.Dir != "recv") || v.Msg["type"] == nil {
			t.Fatalf("bad log line %q: %v", l, err)
		}
	}
}

// TestConnStartHonoursContext: a request waiting behind a write the peer
// does not read gives up when its context ends, and Close breaks the
// stuck write.
func TestConnStartHonoursContext(t *testing.T) {
	a, b := net.Pipe()
	defer b.Close()
	c := NewConn(a, Options{})
	stuck := make(chan error, 1)
	go func() {
		_, err := c.Start(context.Background(), "first", nil)
		stuck <- err
	}()
	time.Sleep(50 * time.Millisecond) // nobody reads b: the first write sticks
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := c.Start(ctx, "second", nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("second Start: %v; want the context's deadline", err)
	}
	c.Close()
	select {
	case err := <-stuck:
		if err == nil {
			t.Error("the stuck Start succeeded after Close")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not break the stuck write")
	}
}
