package main

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// flowSteps is how many step_over and evaluate_expression calls the flow
// makes: with the other eight calls, 14.
const flowSteps = 3

// flowCalls is how many answers the flow reads.
const flowCalls = 8 + 2*flowSteps

// flow runs the 14-call flow of one session and returns the bytes of its
// answers: create_debug_session, set_breakpoint, start_debugging,
// get_stack_trace, get_local_variables, three step_over, three
// evaluate_expression, continue_execution, get_output and
// close_debug_session. Polls of list_debug_sessions for the first stop
// are not part of it.
func (c *conn) flow(ctx context.Context, srv server, fx fixture) (int, error) {
	total := 0
	call := func(name string, args map[string]any) (map[string]any, error) {
		out, n, err := c.callBytes(ctx, name, args)
		total += n
		return out, err
	}
	created, err := call("create_debug_session", map[string]any{"language": fx.lang})
	if err != nil {
		return total, err
	}
	id, _ := created["sessionId"].(string)
	if id == "" {
		return total, errors.New("create_debug_session: no sessionId")
	}
	closed := false
	defer func() {
		if !closed {
			_, _ = c.call(ctx, "close_debug_session", map[string]any{"sessionId": id})
		}
	}()
	if _, err := call("set_breakpoint", map[string]any{"sessionId": id, "file": fx.source, "line": fx.line}); err != nil {
		return total, err
	}
	args := srv.start(fx)
	args["sessionId"] = id
	st, err := call("start_debugging", args)
	if err != nil {
		return total, err
	}
	if !paused(st) || st["pending"] == true {
		if err := c.waitPaused(ctx, id); err != nil {
			return total, err
		}
	}
	session := map[string]any{"sessionId": id}
	for _, name := range []string{"get_stack_trace", "get_local_variables"} {
		if _, err := call(name, session); err != nil {
			return total, err
		}
	}
	for i := 0; i < flowSteps; i++ {
		out, err := call("step_over", session)
		if err != nil {
			return total, err
		}
		if out["pending"] == true || (out["state"] != nil && !paused(out)) {
			if err := c.waitPaused(ctx, id); err != nil {
				return total, err
			}
		}
	}
	for i := 0; i < flowSteps; i++ {
		if _, err := call("evaluate_expression", map[string]any{"sessionId": id, "expression": fx.expr}); err != nil {
			return total, err
		}
	}
	for _, name := range []string{"continue_execution", "get_output", "close_debug_session"} {
		if _, err := call(name, session); err != nil {
			return total, err
		}
	}
	closed = true
	return total, nil
}

// countingTransport counts the bytes of the results of tools/list that
// come over a transport.
type countingTransport struct {
	mcp.Transport
	listBytes *atomic.Int64
}

func (t *countingTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &countingConn{Connection: c, n: t.listBytes, ids: map[any]bool{}}, nil
}

type countingConn struct {
	mcp.Connection
	n   *atomic.Int64
	mu  sync.Mutex
	ids map[any]bool // the ids of the tools/list requests sent
}

func (c *countingConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if r, ok := msg.(*jsonrpc.Request); ok && r.Method == "tools/list" {
		c.mu.Lock()
		c.ids[r.ID.Raw()] = true
		c.mu.Unlock()
	}
	return c.Connection.Write(ctx, msg)
}

func (c *countingConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if r, ok := msg.(*jsonrpc.Response); ok {
		c.mu.Lock()
		if c.ids[r.ID.Raw()] {
			delete(c.ids, r.ID.Raw())
			c.n.Add(int64(len(r.Result)))
		}
		c.mu.Unlock()
	}
	return msg, err
}
