package dap

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"
)

// ErrClosed is returned by calls on a Conn that has been closed or whose
// peer went away. It reports PeerGone, so layers that do not import dap
// (the toolkit's error classes) can tell it apart.
var ErrClosed error = wireError{"dap: connection closed", kindGone}

// ErrTimeout is wrapped by errors of requests that passed their deadline.
// It reports Timeout, as net.Error does.
var ErrTimeout error = wireError{"dap: request timed out", kindTimeout}

// wireError is a sentinel that says what it is by method.
type wireError struct {
	text string
	kind int
}

const (
	kindGone = iota
	kindTimeout
)

func (e wireError) Error() string { return e.text }

// Timeout reports whether the error is a passed deadline.
func (e wireError) Timeout() bool { return e.kind == kindTimeout }

// PeerGone reports whether the error is the peer's going away.
func (e wireError) PeerGone() bool { return e.kind == kindGone }

// DefaultTimeout is the deadline of a request whose context has none.
const DefaultTimeout = 30 * time.Second

// ResponseError is a response with success=false.
type ResponseError struct {
	Command string
	Message string // the formatted error text
	Short   string // the response's "message" field (for example "cancelled")
	Body    json.RawMessage
}

func (e *ResponseError) Error() string {
	return fmt.Sprintf("%s failed: %s", e.Command, e.Message)
}

// Refused reports that the peer refused the request (it answered, with
// success false).
func (e *ResponseError) Refused() bool { return true }

// Options configure a Conn.
type Options struct {
	// OnEvent receives every event, in arrival order, on the read goroutine.
	// It must not block on the Conn (it may start goroutines that do).
	OnEvent func(*Message)
	// OnRequest answers reverse requests (runInTerminal, startDebugging).
	// It runs on its own goroutine. A nil OnRequest rejects them.
	OnRequest func(ctx context.Context, req *Message) (body any, err error)
	// Log, when non-nil, records every message in both directions.
	Log *TrafficLog
	// Timeout is the deadline of requests whose context has none.
	Timeout time.Duration
}

// Conn is a DAP client connection to one adapter.
//
// Goroutines: NewConn starts one read goroutine that decodes frames,
// completes pending requests and delivers events. Request, Start and Close
// may be called from any goroutine. Writes are serialised; a writer
// waiting behind another gives up when its context ends, and Close breaks
// a write the peer does not read.
type Conn struct {
	rwc  io.ReadWriteCloser
	opts Options

	wmu chan struct{} // holds one token: serialises frame writes; waiting for it honours ctx

	mu      sync.Mutex // guards the fields below
	seq     int
	pending map[int]*Call
	err     error // set once, when the conn closes

	done chan struct{}
}

// Call is an in-flight request.
type Call struct {
	Command string
	Seq     int
	done    chan struct{}
	resp    *Message
	err     error
}

// NewConn starts a client over rwc.
func NewConn(rwc io.ReadWriteCloser, opts Options) *Conn {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	c := &Conn{rwc: rwc, opts: opts, pending: map[int]*Call{}, done: make(chan struct{}), wmu: make(chan struct{}, 1)}
	go c.readLoop()
	return c
}

// Done is closed when the connection has ended.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Err returns why the connection ended (nil while it is open).
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Request sends a request and waits for its response. A response with
// success=false becomes a *ResponseError.
func (c *Conn) Request(ctx context.Context, command string, args any) (*Message, error) {
	call, err := c.Start(ctx, command, args)
	if err != nil {
		return nil, err
	}
	resp, err := call.Wait(ctx, c.opts.Timeout)
	if err != nil && resp == nil {
		c.forget(call.Seq) // a late answer is dropped
	}
	return resp, err
}

// forget drops a pending call whose caller stopped waiting.
func (c *Conn) forget(seq int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.pending, seq)
}

// Start sends a request without waiting for its response; ctx bounds
// the wait for the connection's turn to write.
func (c *Conn) Start(ctx context.Context, command string, args any) (*Call, error) {
	msg, err := newRequest(command, args)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return nil, ErrClosed
	}
	c.seq++
	call := &Call{Command: command, Seq: c.seq, done: make(chan struct{})}
	c.pending[call.Seq] = call
	c.mu.Unlock()

	msg.Seq = call.Seq
	if err := c.write(ctx, msg); err != nil {
		c.retire(call.Seq, nil, fmt.Errorf("dap: send %s: %w", command, err))
		<-call.done // retired here, or by a shutdown that got there first
		if call.err == nil {
			call.err = ErrClosed
		}
		return nil, call.err
	}
	return call, nil
}

// Wait waits for the response. fallback is the deadline used when ctx has
// none (0: none).
func (call *Call) Wait(ctx context.Context, fallback time.Duration) (*Message, error) {
	ctx, cancel := withDefaultDeadline(ctx, fallback)
	defer cancel()
	select {
	case <-call.done:
	case <-ctx.Done():
		return nil, deadlineError(ctx, call.Command)
	}
	if call.err != nil {
		return nil, call.err
	}
	if !call.resp.OK() {
		return call.resp, newResponseError(call.Command, call.resp)
	}
	return call.resp, nil
}

// newResponseError is the error of a response with success=false.
func newResponseError(command string, resp *Message) *ResponseError {
	return &ResponseError{Command: command, Message: resp.ErrorText(), Short: resp.Message, Body: resp.Body}
}

// withDefaultDeadline gives ctx the deadline d from now when it has none
// (and d > 0). It is the one place where a request's deadline is set.
func withDefaultDeadline(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok || d <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, d)
}

// Done is closed when the call has completed.
func (call *Call) Done() <-chan struct{} { return call.done }

// retire completes a pending call exactly once.
func (c *Conn) retire(seq int, resp *Message, err error) {
	c.mu.Lock()
	call, ok := c.pending[seq]
	delete(c.pending, seq)
	c.mu.Unlock()
	if !ok {
		return // a response to a request we no longer wait for
	}
	call.resp, call.err = resp, err
	close(call.done)
}

// write sends one frame once it is the connection's turn, or gives up
// when ctx ends or the connection closes first.
func (c *Conn) write(ctx context.Context, m *Message) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	select {
	case c.wmu <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	case <-c.done:
		return ErrClosed
	}
	defer func() { <-c.wmu }()
	c.opts.Log.Record("send", b)
	return WriteFrame(c.rwc, b)
}

func (c *Conn) readLoop() {
	fr := NewFrameReader(c.rwc)
	var err error
	for {
		var body []byte
		body, err = fr.ReadFrame()
		if err != nil {
			break
		}
		c.opts.Log.Record("recv", body)
		m, derr := Decode(body)
		if derr != nil {
			continue // garbage must not kill the connection
		}
		switch m.Type {
		case "response":
			c.retire(m.RequestSeq, m, nil)
		case "event":
			if c.opts.OnEvent != nil {
				c.opts.OnEvent(m)
			}
		case "request":
			go c.answer(m)
		}
	}
	if errors.Is(err, io.EOF) {
		err = ErrClosed
	} else {
		err = fmt.Errorf("%w: %v", ErrClosed, err)
	}
	c.shutdown(err)
}

func (c *Conn) answer(req *Message) {
	resp := &Message{Type: "response", RequestSeq: req.Seq, Command: req.Command}
	var body any
	err := fmt.Errorf("reverse request %q is not supported", req.Command)
	ctx, cancel := withDefaultDeadline(context.Background(), c.opts.Timeout)
	defer cancel()
	if c.opts.OnRequest != nil {
		body, err = c.opts.OnRequest(ctx, req)
	}
	if err != nil {
		resp.Success = boolPtr(false)
		resp.Message = err.Error()
	} else {
		resp.Success = boolPtr(true)
		if body != nil {
			resp.Body = mustMarshal(body)
		}
	}
	c.mu.Lock()
	c.seq++
	resp.Seq = c.seq
	closed := c.err != nil
	c.mu.Unlock()
	if !closed {
		_ = c.write(ctx, resp)
	}
}

func (c *Conn) shutdown(err error) {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return
	}
	c.err = err
	pending := c.pending
	c.pending = map[int]*Call{}
	c.mu.Unlock()
	for _, call := range pending {
		call.err = fmt.Errorf("%s: %w", call.Command, err)
		close(call.done)
	}
	close(c.done)
}

// Close closes the transport; pending requests fail with ErrClosed.
func (c *Conn) Close() error {
	err := c.rwc.Close()
	c.shutdown(ErrClosed)
	c.opts.Log.Close()
	return err
}

// deadlineError is the error of a wait that ctx ended.
func deadlineError(ctx context.Context, command string) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("%w: %s (%v)", ErrTimeout, command, ctx.Err())
	}
	return ctx.Err()
}
