package dap

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sync"

	godap "github.com/google/go-dap"
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

// ServerConn is the adapter side of one DAP connection. Its methods are
// safe for concurrent use. Frame writes are serialised by their own mutex,
// never under the one that guards the state, so Close can always take the
// state lock and break a write the client does not read.
type ServerConn struct {
	rw  io.ReadWriteCloser
	log *TrafficLog

	wmu sync.Mutex // serialises frame writes (and the seq order)

	mu      sync.Mutex // guards the fields below
	seq     int
	open    map[int]bool // requests handed to the Handler and not yet answered
	closed  bool
	reverse map[int]chan *Message // reverse requests awaiting the client's answer
	done    chan struct{}         // closed by Close
}

// Serve reads requests from rw and hands them to h until the client
// disconnects or ctx ends. It closes rw before returning.
func Serve(ctx context.Context, rw io.ReadWriteCloser, h Handler, log *TrafficLog) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s := &ServerConn{rw: rw, log: log, open: map[int]bool{}, done: make(chan struct{})}
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
	s.mu.Lock()
	s.open[req.Seq] = true
	s.mu.Unlock()
	defer func() {
		if r := recover(); r != nil && !s.answered(req) {
			s.RespondError(req, internalError(req.Command, r))
		}
	}()
	h.Handle(ctx, s, req)
}

// internalError is the text of the answer to a request whose handler
// panicked.
func internalError(command string, r any) string {
	return fmt.Sprintf("internal error in %s: %v\n%s", command, r, debug.Stack())
}

// answered reports whether req has been answered.
func (s *ServerConn) answered(req *Message) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.open[req.Seq]
}

// Respond sends a successful response to req.
func (s *ServerConn) Respond(req *Message, body any) {
	s.respond(req, true, "", body)
}

// RespondError sends a failed response whose text is shown to the user.
func (s *ServerConn) RespondError(req *Message, text string) {
	s.respond(req, false, text, errorBody(text))
}

func (s *ServerConn) respond(req *Message, ok bool, text string, body any) {
	s.answer(req)
	m := &Message{Type: "response", RequestSeq: req.Seq, Command: req.Command, Success: boolPtr(ok), Message: text}
	s.send(m, body)
}

// reply sends resp, a go-dap response, as the successful answer to req;
// its envelope is filled in here.
func (s *ServerConn) reply(req *Message, resp godap.ResponseMessage) {
	s.answer(req)
	r := resp.GetResponse()
	r.Type, r.RequestSeq, r.Command, r.Success = "response", req.Seq, req.Command, true
	_ = s.write(func(seq int) any { r.Seq = seq; return resp })
}

// answer takes req off the set of open requests. Answering a request
// twice is a bug, and panics.
func (s *ServerConn) answer(req *Message) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.open[req.Seq] {
		panic(fmt.Sprintf("dap: request %d (%s) answered twice", req.Seq, req.Command))
	}
	delete(s.open, req.Seq) // the set holds only unanswered requests
}

// Event sends an event.
func (s *ServerConn) Event(event string, body any) {
	s.send(&Message{Type: "event", Event: event}, body)
}

func (s *ServerConn) send(m *Message, body any) {
	if body != nil {
		m.Body = mustMarshal(body)
	}
	_ = s.write(func(seq int) any { m.Seq = seq; return m })
}

// write numbers a message and sends it. stamp runs under the state lock
// with the message's seq, and returns what to encode (it may also
// register a reverse request before its frame leaves). The state lock is
// not held while the frame is written.
func (s *ServerConn) write(stamp func(seq int) any) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrClosed
	}
	s.seq++
	v := stamp(s.seq)
	s.mu.Unlock()
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	s.log.Record("send", b)
	if err := WriteFrame(s.rw, b); err != nil {
		s.Close()
		return fmt.Errorf("%w: %v", ErrClosed, err)
	}
	return nil
}

// Request sends a reverse request (runInTerminal, startDebugging) to the
// client and waits for its answer, at most until ctx ends. It must not be
// called from Handle (the answer arrives on the goroutine that runs it).
func (s *ServerConn) Request(ctx context.Context, command string, args any) (*Message, error) {
	m, err := newRequest(command, args)
	if err != nil {
		return nil, err
	}
	ch := make(chan *Message, 1)
	err = s.write(func(seq int) any {
		if s.reverse == nil {
			s.reverse = map[int]chan *Message{}
		}
		s.reverse[seq] = ch
		m.Seq = seq
		return m
	})
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
			return resp, newResponseError(command, resp)
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
