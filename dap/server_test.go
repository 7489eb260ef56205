package dap

import (
	"context"
	"encoding/json"
	"net"
	"testing"
	"time"
)

// HandlerFunc adapts a function to Handler.
type HandlerFunc func(ctx context.Context, s *ServerConn, req *Message)

// Handle calls f.
func (f HandlerFunc) Handle(ctx context.Context, s *ServerConn, req *Message) { f(ctx, s, req) }

// TestServerCloseBreaksStuckWrite: a handler whose event the client never
// reads must not keep Close (and Serve) from returning.
func TestServerCloseBreaksStuckWrite(t *testing.T) {
	client, server := net.Pipe()
	defer client.Close()
	ctx, cancel := context.WithCancel(context.Background())
	writing := make(chan struct{})
	done := make(chan struct{})
	go func() {
		_ = Serve(ctx, server, HandlerFunc(func(ctx context.Context, s *ServerConn, req *Message) {
			go func() {
				close(writing)
				s.Event("output", map[string]any{"output": "nobody reads this"})
			}()
			s.Respond(req, nil)
		}), nil)
		close(done)
	}()
	b, _ := json.Marshal(&Message{Seq: 1, Type: "request", Command: "threads"})
	if err := WriteFrame(client, b); err != nil {
		t.Fatal(err)
	}
	<-writing
	time.Sleep(50 * time.Millisecond) // the writes are stuck: nobody reads the client end
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return: Close waited for a stuck write")
	}
}

// TestServerForgetsAnswered: the set of open requests holds only the
// unanswered ones, and answering one twice panics.
func TestServerForgetsAnswered(t *testing.T) {
	client, server := net.Pipe()
	defer client.Close()
	s := &ServerConn{rw: server, open: map[int]bool{}, done: make(chan struct{})}
	go readMessages(client, func(*Message) {})
	for seq := 1; seq <= 100; seq++ {
		req := &Message{Seq: seq, Type: "request", Command: "threads"}
		s.dispatch(context.Background(), HandlerFunc(func(ctx context.Context, s *ServerConn, req *Message) { s.Respond(req, nil) }), req)
	}
	s.mu.Lock()
	n := len(s.open)
	s.mu.Unlock()
	if n != 0 {
		t.Errorf("%d answered requests still tracked", n)
	}
	defer func() {
		if recover() == nil {
			t.Error("a second answer did not panic")
		}
	}()
	s.Respond(&Message{Seq: 1, Command: "threads"}, nil)
}
