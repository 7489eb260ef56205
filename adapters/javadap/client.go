package javadap

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// ErrVMGone is returned by calls on a Client whose connection has ended
// (the VM exited or the client was closed).
var ErrVMGone = errors.New("jdwp: connection to the VM has ended")

// Error is a JDWP reply with a non-zero error code.
type Error struct {
	Code    uint16
	Command string
}

func (e *Error) Error() string {
	return fmt.Sprintf("jdwp %s: %s (error %d)", e.Command, errorName(e.Code), e.Code)
}

// JDWP error codes the adapter reacts to.
const (
	ErrCodeInvalidThread      = 10
	ErrCodeThreadNotSuspended = 13
	ErrCodeInvalidObject      = 20
	ErrCodeInvalidFrameID     = 30
	ErrCodeOpaqueFrame        = 32
	ErrCodeTypeMismatch       = 34
	ErrCodeInvalidSlot        = 35
	ErrCodeNotImplemented     = 99
	ErrCodeAbsentInformation  = 101
	ErrCodeVMDead             = 112
)

func errorName(code uint16) string {
	switch code {
	case ErrCodeInvalidThread:
		return "invalid thread"
	case ErrCodeThreadNotSuspended:
		return "thread not suspended"
	case ErrCodeInvalidObject:
		return "invalid object (collected?)"
	case 21:
		return "invalid class"
	case 22:
		return "class not prepared"
	case 23:
		return "invalid method"
	case ErrCodeInvalidFrameID:
		return "invalid frame"
	case ErrCodeOpaqueFrame:
		return "opaque frame"
	case ErrCodeTypeMismatch:
		return "type mismatch"
	case ErrCodeInvalidSlot:
		return "invalid slot"
	case ErrCodeNotImplemented:
		return "not implemented"
	case ErrCodeAbsentInformation:
		return "absent information (compile with -g)"
	case 502:
		return "thread is running an invocation"
	case ErrCodeVMDead:
		return "VM dead"
	}
	return "error"
}

// IsErrorCode reports whether err is a JDWP error with code.
func IsErrorCode(err error, code uint16) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}

// Client is a JDWP connection to one VM.
//
// Goroutines: the client runs one read goroutine that completes pending
// commands and queues composite events. Commands may be sent from any
// goroutine; writes are serialised. Events are delivered in order by
// Events; the queue is unbounded so a slow consumer never blocks replies.
type Client struct {
	conn     net.Conn
	sizes    IDSizes
	invokes  atomic.Uint64 // method invocations sent; they invalidate frame ids
	invoking atomic.Uint64 // the thread running an invocation, 0 if none

	wmu sync.Mutex

	mu      sync.Mutex
	nextID  uint32
	pending map[uint32]chan *Packet
	err     error

	events *queue[*EventSet] // closed when the conn ends

	done chan struct{}
}

// handshakeTimeout bounds the JDWP handshake.
const handshakeTimeout = 10 * time.Second

// DialJDWP connects to a JDWP agent at addr, does the handshake and reads
// the id sizes.
func DialJDWP(ctx context.Context, addr string) (*Client, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("connect to JDWP at %s: %w", addr, err)
	}
	return handshakeVM(ctx, conn, addr)
}

// handshakeVM makes a debugger's JDWP client of a connection to a JVM,
// whichever side listened (the debugger speaks first); peer names the
// JVM in errors.
func handshakeVM(ctx context.Context, conn net.Conn, peer string) (*Client, error) {
	// A JDWP agent serves one debugger at a time; while another is
	// attached the connection opens but the handshake never comes.
	dl := time.Now().Add(handshakeTimeout)
	if d, ok := ctx.Deadline(); ok && d.Before(dl) {
		dl = d
	}
	_ = conn.SetDeadline(dl)
	if err := Handshake(conn); err != nil {
		conn.Close()
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return nil, fmt.Errorf("%s: no JDWP handshake within %s (is another debugger attached to this JVM?): %w", peer, handshakeTimeout, err)
		}
		return nil, fmt.Errorf("%s: %w", peer, err)
	}
	_ = conn.SetDeadline(time.Time{})
	c := NewClient(conn)
	if err := c.loadIDSizes(ctx); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// NewClient starts a client on a connection that has done the handshake.
func NewClient(conn net.Conn) *Client {
	c := &Client{conn: conn, sizes: defaultSizes, pending: map[uint32]chan *Packet{},
		events: newQueue[*EventSet](), done: make(chan struct{})}
	go c.readLoop()
	return c
}

// Invoking returns the thread that is running a method invocation for the
// debugger, 0 if none.
func (c *Client) Invoking() uint64 { return c.invoking.Load() }

// InvokeCount returns how many method invocations have been sent.
func (c *Client) InvokeCount() uint64 { return c.invokes.Load() }

// Sizes returns the VM's id sizes.
func (c *Client) Sizes() IDSizes {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sizes
}

// Done is closed when the connection has ended.
func (c *Client) Done() <-chan struct{} { return c.done }

// Close closes the connection; pending commands fail with ErrVMGone.
func (c *Client) Close() error {
	err := c.conn.Close()
	c.shutdown(ErrVMGone)
	return err
}

func (c *Client) loadIDSizes(ctx context.Context) error {
	r, err := c.call(ctx, "IDSizes", 1, 7, nil)
	if err != nil {
		return err
	}
	s := IDSizes{Field: int(r.i32()), Method: int(r.i32()), Object: int(r.i32()), RefType: int(r.i32()), Frame: int(r.i32())}
	if r.err != nil || !s.valid() {
		return fmt.Errorf("jdwp: bad id sizes %+v: %v", s, r.err)
	}
	c.mu.Lock()
	c.sizes = s
	c.mu.Unlock()
	return nil
}

// NextEventSet waits for the next composite event. It returns ErrVMGone
// once the connection has ended and the queue is drained.
func (c *Client) NextEventSet(ctx context.Context) (*EventSet, error) {
	if set, ok := c.events.Pop(ctx); ok {
		return set, nil
	}
	c.mu.Lock()
	err := c.err
	c.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return nil, ctx.Err()
}

func (c *Client) writer() *Writer { return &Writer{s: c.Sizes()} }

// objectArg is a command's data holding one object id.
func (c *Client) objectArg(id uint64) *Writer {
	w := c.writer()
	w.object(id)
	return w
}

// frameArg is a command's data naming a frame of a thread.
func (c *Client) frameArg(thread, frame uint64) *Writer {
	w := c.objectArg(thread)
	w.frame(frame)
	return w
}

// refTypeArg is a command's data holding one reference type id.
func (c *Client) refTypeArg(id uint64) *Writer {
	w := c.writer()
	w.refType(id)
	return w
}

// send sends a command and waits for its reply, which holds nothing.
func (c *Client) send(ctx context.Context, name string, set, cmd byte, w *Writer) error {
	_, err := c.call(ctx, name, set, cmd, w)
	return err
}

// call sends a command and waits for its reply, decoding nothing.
func (c *Client) call(ctx context.Context, name string, set, cmd byte, w *Writer) (*Reader, error) {
	var data []byte
	if w != nil {
		data = w.b
	}
	ch := make(chan *Packet, 1)
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return nil, fmt.Errorf("%s: %w", name, c.err)
	}
	c.nextID++
	id := c.nextID
	c.pending[id] = ch
	sizes := c.sizes
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
	}()
	b := (&Packet{ID: id, CommandSet: set, Command: cmd, Data: data}).Marshal()
	c.wmu.Lock()
	_, err := c.conn.Write(b)
	c.wmu.Unlock()
	if err != nil {
		c.shutdown(ErrVMGone)
		return nil, fmt.Errorf("%s: %w: %v", name, ErrVMGone, err)
	}
	var timer <-chan time.Time
	if _, ok := ctx.Deadline(); !ok {
		t := time.NewTimer(30 * time.Second)
		defer t.Stop()
		timer = t.C
	}
	select {
	case p := <-ch:
		if p.ErrorCode != 0 {
			return nil, &Error{Code: p.ErrorCode, Command: name}
		}
		return newReader(p.Data, sizes), nil
	case <-c.done:
		return nil, fmt.Errorf("%s: %w", name, ErrVMGone)
	case <-ctx.Done():
		return nil, fmt.Errorf("jdwp %s: %w", name, ctx.Err())
	case <-timer:
		return nil, fmt.Errorf("jdwp %s: no reply within 30s", name)
	}
}

func (c *Client) readLoop() {
	for {
		p, err := ReadPacket(c.conn)
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, net.ErrClosed) {
				err = fmt.Errorf("%w: %v", ErrVMGone, err)
			} else {
				err = ErrVMGone
			}
			c.shutdown(err)
			return
		}
		if p.IsReply() {
			c.mu.Lock()
			ch := c.pending[p.ID]
			c.mu.Unlock()
			if ch != nil {
				ch <- p
			}
			continue
		}
		if p.CommandSet == 64 && p.Command == 100 {
			set, derr := decodeEventSet(p.Data, c.Sizes())
			if derr != nil {
				continue
			}
			c.events.Push(set)
		}
	}
}

func (c *Client) shutdown(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return
	}
	c.err = err
	c.events.Close()
	_ = c.conn.Close()
	close(c.done)
}
