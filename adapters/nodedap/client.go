package nodedap

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// ErrClientClosed is returned by calls on a Client whose connection has
// ended.
var ErrClientClosed = errors.New("cdp: connection closed")

// DefaultCallTimeout bounds a CDP command whose context has no deadline.
const DefaultCallTimeout = 30 * time.Second

// Client is a CDP client over one inspector WebSocket.
//
// Goroutines: Dial starts a read goroutine, which completes pending calls,
// and an event goroutine, which hands events to the handler one at a time in
// arrival order. The handler may call Call (events never wait for the read
// goroutine), but it blocks later events while it runs. Call and Close are
// safe for concurrent use.
type Client struct {
	ws      *websocket.Conn
	onEvent func(*Message)

	mu      sync.Mutex // guards the fields below
	nextID  int64
	pending map[int64]chan *Message
	err     error // why the connection ended; set once
	queue   []*Message
	wake    chan struct{} // signalled when queue grows or the conn ends

	done       chan struct{} // closed when the connection has ended
	eventsDone chan struct{} // closed when every event has been handled
}

// Dial connects to an inspector WebSocket URL (ws://host:port/uuid).
// onEvent may be nil.
func Dial(ctx context.Context, wsURL string, onEvent func(*Message)) (*Client, error) {
	var d net.Dialer
	hc := &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := d.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			return newQuickAckConn(c), nil
		},
	}}
	ws, _, err := websocket.Dial(ctx, wsURL, &websocket.DialOptions{CompressionMode: websocket.CompressionDisabled, HTTPClient: hc})
	if err != nil {
		return nil, fmt.Errorf("cdp: connect %s: %w", wsURL, err)
	}
	ws.SetReadLimit(256 << 20)
	c := &Client{
		ws: ws, onEvent: onEvent,
		pending: map[int64]chan *Message{}, wake: make(chan struct{}, 1),
		done: make(chan struct{}), eventsDone: make(chan struct{}),
	}
	go c.readLoop()
	go c.eventLoop()
	return c, nil
}

// Done is closed when the connection has ended.
func (c *Client) Done() <-chan struct{} { return c.done }

// EventsDone is closed once the connection has ended and every event
// received before that has been handled.
func (c *Client) EventsDone() <-chan struct{} { return c.eventsDone }

// Err says why the connection ended (nil while open).
func (c *Client) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Call sends a command and waits for its answer. result, when non-nil,
// receives the decoded result. A CDP error comes back as *CDPError.
func (c *Client) Call(ctx context.Context, method string, params, result any) error {
	raw, err := c.CallRaw(ctx, method, params)
	if err != nil {
		return err
	}
	if result != nil {
		if err := json.Unmarshal(raw, result); err != nil {
			return fmt.Errorf("cdp: decode %s result: %w", method, err)
		}
	}
	return nil
}

// CallRaw is Call returning the raw result.
func (c *Client) CallRaw(ctx context.Context, method string, params any) (json.RawMessage, error) {
	if params == nil {
		params = struct{}{}
	}
	p, err := json.Marshal(params)
	if err != nil {
		return nil, fmt.Errorf("cdp: encode %s params: %w", method, err)
	}
	ch := make(chan *Message, 1)
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return nil, fmt.Errorf("%s: %w", method, ErrClientClosed)
	}
	c.nextID++
	id := c.nextID
	c.pending[id] = ch
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
	}()

	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultCallTimeout)
		defer cancel()
	}
	b, err := json.Marshal(&Message{ID: id, Method: method, Params: p})
	if err != nil {
		return nil, err
	}
	if err := c.ws.Write(ctx, websocket.MessageText, b); err != nil {
		return nil, fmt.Errorf("cdp: send %s: %w", method, err)
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return nil, fmt.Errorf("%s: %w", method, m.Error)
		}
		return m.Result, nil
	case <-c.done:
		return nil, fmt.Errorf("%s: %w", method, ErrClientClosed)
	case <-ctx.Done():
		return nil, fmt.Errorf("cdp: %s: %w", method, ctx.Err())
	}
}

// Close ends the connection at once; pending calls fail with
// ErrClientClosed. It is safe to call more than once.
func (c *Client) Close() error {
	err := c.ws.CloseNow()
	c.shutdown(ErrClientClosed)
	return err
}

func (c *Client) readLoop() {
	for {
		_, b, err := c.ws.Read(context.Background())
		if err != nil {
			c.shutdown(fmt.Errorf("%w: %v", ErrClientClosed, err))
			return
		}
		m, err := DecodeMessage(b)
		if err != nil {
			continue // one bad frame must not end the session
		}
		if m.IsResponse() {
			c.mu.Lock()
			ch := c.pending[m.ID]
			delete(c.pending, m.ID)
			c.mu.Unlock()
			if ch != nil {
				ch <- m
			}
			continue
		}
		if m.IsEvent() {
			c.mu.Lock()
			c.queue = append(c.queue, m)
			c.mu.Unlock()
			c.signal()
		}
	}
}

func (c *Client) signal() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

func (c *Client) eventLoop() {
	defer close(c.eventsDone)
	for {
		c.mu.Lock()
		batch := c.queue
		c.queue = nil
		ended := c.err != nil
		c.mu.Unlock()
		for _, m := range batch {
			if c.onEvent != nil {
				c.onEvent(m)
			}
		}
		if len(batch) > 0 {
			continue
		}
		if ended {
			return
		}
		<-c.wake
	}
}

func (c *Client) shutdown(err error) {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return
	}
	c.err = err
	c.mu.Unlock()
	close(c.done)
	c.signal()
}

// cdpConn is what the adapter needs of a CDP connection: the inspector's
// WebSocket ([Client]) or a worker's session relayed through it
// ([workerConn]).
type cdpConn interface {
	Call(ctx context.Context, method string, params, result any) error
	Close() error
	Done() <-chan struct{}
	EventsDone() <-chan struct{}
}
