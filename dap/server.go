package dap

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sync"
)

// Handler serves the requests of one client of a built-in adapter.
//
// Handle is called on the server's read goroutine, one request at a time,
// in arrival order. It must answer every request exactly once with
// Respond or RespondError, either before it returns or later from another
// goroutine (for requests that wait, like a launch that answers only after
// configurationDone). A panic in Handle becomes an error response.
type Handler interface {
	Handle(ctx context.Context, s *ServerConn, req *Message)
}

// HandlerFunc adapts a function to Handler.
type HandlerFunc func(ctx context.Context, s *ServerConn, req *Message)

// Handle calls f.
func (f HandlerFunc) Handle(ctx context.Context, s *ServerConn, req *Message) { f(ctx, s, req) }

// ServerConn is the adapter side of one DAP connection. Its methods are
// safe for concurrent use.
type ServerConn struct {
	rw  io.ReadWriteCloser
	log *TrafficLog

	mu       sync.Mutex
	seq      int
	answered map[int]bool
	closed   bool
	reverse  map[int]chan *Message // reverse requests awaiting the client's answer
	done     chan struct{}         // closed by Close
}

// Serve reads requests from rw and hands them to h until the client
// disconnects or ctx ends. It closes rw before returning.
func Serve(ctx context.Context, rw io.ReadWriteCloser, h Handler, log *TrafficLog) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s := &ServerConn{rw: rw, log: log, answered: map[int]bool{}, done: make(chan struct{})}
	go func() {
		<-ctx.Done()
		s.Close()
	}()
	fr := NewFrameReader(rw)
	for {
		body, err := fr.ReadFrame()
		if err != nil {
			s.Close()
			if errors.Is(err, io.EOF) || ctx.Err() != nil {
				return nil
			}
			return err
		}
		log.Record("recv", body)
		m, err := Decode(body)
		if err != nil {
			continue
		}
		switch m.Type {
		case "request":
			s.dispatch(ctx, h, m)
		case "response":
			s.complete(m)
		}
	}
}

func (s *ServerConn) dispatch(ctx context.Context, h Handler, req *Message) {
	defer func() {
		if r := recover(); r != nil {
			s.mu.Lock()
			answered := s.answered[req.Seq]
			s.mu.Unlock()
			if !answered {
				s.RespondError(req, fmt.Sprintf("internal error in %s: %v\n%s", req.Command, r, debug.Stack()))
			}
		}
	}()
	h.Handle(ctx, s, req)
}

// Respond sends a successful response to req.
func (s *ServerConn) Respond(req *Message, body any) {
	s.respond(req, true, "", body)
}

// RespondError sends a failed response whose text is shown to the user.
func (s *ServerConn) RespondError(req *Message, text string) {
	s.respond(req, false, text, map[string]any{
		"error": map[string]any{"id": 1, "format": text, "showUser": true},
	})
}

func (s *ServerConn) respond(req *Message, ok bool, text string, body any) {
	s.mu.Lock()
	if s.answered[req.Seq] {
		s.mu.Unlock()
		panic(fmt.Sprintf("dap: request %d (%s) answered twice", req.Seq, req.Command))
	}
	s.answered[req.Seq] = true
	s.mu.Unlock()
	m := &Message{Type: "response", RequestSeq: req.Seq, Command: req.Command, Success: boolPtr(ok), Message: text}
	s.send(m, body)
}

// Event sends an event.
func (s *ServerConn) Event(event string, body any) {
	s.send(&Message{Type: "event", Event: event}, body)
}

func (s *ServerConn) send(m *Message, body any) {
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			b, _ = json.Marshal(map[string]string{"error": err.Error()})
		}
		m.Body = b
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.seq++
	m.Seq = s.seq
	b, err := json.Marshal(m)
	if err != nil {
		return
	}
	s.log.Record("send", b)
	if err := WriteFrame(s.rw, b); err != nil {
		s.closed = true
	}
}

// Request sends a reverse request (runInTerminal, startDebugging) to the
// client and waits for its answer, at most until ctx ends. It must not be
// called from Handle (the answer arrives on the goroutine that runs it).
func (s *ServerConn) Request(ctx context.Context, command string, args any) (*Message, error) {
	m := &Message{Type: "request", Command: command}
	if args != nil {
		b, err := json.Marshal(args)
		if err != nil {
			return nil, err
		}
		m.Arguments = b
	}
	ch := make(chan *Message, 1)
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, ErrClosed
	}
	s.seq++
	m.Seq = s.seq
	if s.reverse == nil {
		s.reverse = map[int]chan *Message{}
	}
	s.reverse[m.Seq] = ch
	b, _ := json.Marshal(m)
	s.log.Record("send", b)
	err := WriteFrame(s.rw, b)
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.reverse, m.Seq)
		s.mu.Unlock()
	}()
	if err != nil {
		return nil, err
	}
	select {
	case resp := <-ch:
		if !resp.OK() {
			return resp, &ResponseError{Command: command, Message: resp.ErrorText(), Short: resp.Message, Body: resp.Body}
		}
		return resp, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-s.done:
		return nil, ErrClosed
	}
}

func (s *ServerConn) complete(resp *Message) {
	s.mu.Lock()
	ch := s.reverse[resp.RequestSeq]
	s.mu.Unlock()
	if ch != nil {
		select {
		case ch <- resp:
		default:
		}
	}
}

// Close closes the connection; later sends are dropped.
func (s *ServerConn) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.closed = true
		_ = s.rw.Close()
		if s.done != nil {
			close(s.done)
		}
	}
}

// Closed reports whether the connection is closed.
func (s *ServerConn) Closed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// DecodeArgs unmarshals req's arguments into v; an error names the command.
func DecodeArgs(req *Message, v any) error {
	if err := req.DecodeBody(v); err != nil {
		return fmt.Errorf("bad %s arguments: %w", req.Command, err)
	}
	return nil
}
