package debugtools

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"
)

// Errors of the agent client.
var (
	// ErrClosed is returned by calls on a closed (or broken) connection.
	ErrClosed = errors.New("debugtools: agent connection closed")
	// ErrAgentTimeout is returned when the agent does not answer in time.
	ErrAgentTimeout = errors.New("debugtools: the agent did not answer in time")
)

// AgentClient is a TCP connection to an agent speaking the DebugTools
// protocol.
//
// Goroutines: one read goroutine decodes frames and hands run responses
// to the waiting Run call (by identity) and heartbeat answers to waiting
// Heartbeat calls (in order). Calls may come from any goroutine; writes
// are serialized. Close stops the reader and fails every waiter with
// ErrClosed.
type AgentClient struct {
	conn net.Conn
	wmu  sync.Mutex // serializes frame writes

	mu        sync.Mutex
	runs      map[string]chan runReply
	beats     []chan struct{}
	closed    bool
	closeErr  error
	lastFrame time.Time
	done      chan struct{}
}

type runReply struct {
	res  RunResult
	ok   bool
	body []byte
}

// DialAgent connects to an agent at addr and checks it answers a
// heartbeat before ctx ends.
func DialAgent(ctx context.Context, addr string) (*AgentClient, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("dial agent %s: %w", addr, err)
	}
	c := &AgentClient{conn: conn, runs: map[string]chan runReply{}, done: make(chan struct{})}
	go c.readLoop()
	if err := c.Heartbeat(ctx); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// Done is closed when the connection ends.
func (c *AgentClient) Done() <-chan struct{} { return c.done }

// Alive reports whether the connection is open.
func (c *AgentClient) Alive() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return !c.closed
}

func (c *AgentClient) readLoop() {
	r := bufio.NewReader(c.conn)
	for {
		f, err := ReadFrame(r)
		if err != nil {
			c.fail(err)
			return
		}
		c.mu.Lock()
		c.lastFrame = time.Now()
		switch f.Command {
		case CmdHeartbeatResponse:
			if len(c.beats) > 0 {
				ch := c.beats[0]
				c.beats = c.beats[1:]
				close(ch)
			}
		case CmdRunResponse:
			var res RunResult
			if err := json.Unmarshal(f.Body, &res); err == nil {
				ch, ok := c.runs[res.Identity]
				if !ok && len(c.runs) == 1 { // an agent that does not echo identities
					for id, only := range c.runs {
						ch, ok = only, true
						delete(c.runs, id)
					}
				} else if ok {
					delete(c.runs, res.Identity)
				}
				if ok {
					ch <- runReply{res: res, ok: f.ResultFlag == ResultSuccess, body: f.Body}
				}
			}
		case CmdHeartbeatRequest:
			go func() { _ = c.write(NewFrame(CmdHeartbeatResponse, ResultSuccess, []byte(`{}`))) }()
		}
		c.mu.Unlock()
	}
}

func (c *AgentClient) fail(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	c.closed = true
	c.closeErr = err
	for id, ch := range c.runs {
		close(ch)
		delete(c.runs, id)
	}
	for _, ch := range c.beats {
		close(ch)
	}
	c.beats = nil
	_ = c.conn.Close()
	close(c.done)
}

// Close closes the connection. It is safe to call more than once.
func (c *AgentClient) Close() error {
	c.fail(ErrClosed)
	return nil
}

func (c *AgentClient) write(f Frame) error {
	b, err := f.MarshalBinary()
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_ = c.conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
	if _, err := c.conn.Write(b); err != nil {
		c.fail(err)
		return fmt.Errorf("%w: %v", ErrClosed, err)
	}
	return nil
}

// Heartbeat sends a heartbeat and waits for the answer.
func (c *AgentClient) Heartbeat(ctx context.Context) error {
	ch := make(chan struct{})
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return ErrClosed
	}
	c.beats = append(c.beats, ch)
	c.mu.Unlock()
	if err := c.write(NewFrame(CmdHeartbeatRequest, ResultSuccess, []byte(`{}`))); err != nil {
		return err
	}
	select {
	case <-ch:
		if !c.Alive() {
			return ErrClosed
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("%w: heartbeat: %v", ErrAgentTimeout, ctx.Err())
	}
}

// NewIdentity returns a random request identity.
func NewIdentity() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Run sends a run request and waits for its response. ok is the frame's
// result flag. On ctx's end it returns an error wrapping ErrAgentTimeout;
// a late answer is dropped.
func (c *AgentClient) Run(ctx context.Context, dto *RunDTO) (res *RunResult, ok bool, err error) {
	if dto.Identity == "" {
		dto.Identity = NewIdentity()
	}
	body, err := json.Marshal(dto)
	if err != nil {
		return nil, false, fmt.Errorf("encode run request: %w", err)
	}
	ch := make(chan runReply, 1)
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, false, ErrClosed
	}
	c.runs[dto.Identity] = ch
	c.mu.Unlock()
	if err := c.write(NewFrame(CmdRunRequest, ResultSuccess, body)); err != nil {
		return nil, false, err
	}
	select {
	case r, open := <-ch:
		if !open {
			return nil, false, ErrClosed
		}
		return &r.res, r.ok, nil
	case <-ctx.Done():
		c.mu.Lock()
		delete(c.runs, dto.Identity)
		c.mu.Unlock()
		return nil, false, fmt.Errorf("%w: %v", ErrAgentTimeout, ctx.Err())
	}
}

// ClearResult asks the agent to free stored results (all of them when
// offsetPath is empty).
func (c *AgentClient) ClearResult(offsetPath string) error {
	body, _ := json.Marshal(ClearResultDTO{OffsetPath: offsetPath})
	return c.write(NewFrame(CmdClearResult, ResultSuccess, body))
}
