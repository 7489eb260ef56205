package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/proc"
)

// A server is one MCP debugging server under test: how to start it and
// how to describe a program to its start_debugging.
type server struct {
	name string
	argv []string
	env  []string
	// logs, when set, is a folder the server's stderr is kept in.
	logs string
	// start gives start_debugging's arguments for a fixture (sessionId is
	// added by the caller).
	start func(fx fixture) map[string]any
}

// conn is a running server with an MCP client session over its stdio.
type conn struct {
	cs  *mcp.ClientSession
	cmd *exec.Cmd
	// listBytes is the bytes of the answers to tools/list so far.
	listBytes *atomic.Int64
}

// connect starts srv and runs the MCP handshake, returning the time from
// exec to the answer to initialize.
func connect(ctx context.Context, srv server) (*conn, time.Duration, error) {
	cmd := exec.Command(srv.argv[0], srv.argv[1:]...)
	cmd.Env = append(os.Environ(), srv.env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if srv.logs != "" {
		f, err := os.CreateTemp(srv.logs, srv.name+"-*.log")
		if err != nil {
			return nil, 0, err
		}
		defer f.Close() // the child has its own copy
		cmd.Stderr = f
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	start := time.Now()
	listed := &atomic.Int64{}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "dbg-bench-peer", Version: "1"}, nil).
		Connect(ctx, &countingTransport{Transport: &mcp.CommandTransport{Command: cmd}, listBytes: listed}, nil)
	if err != nil {
		if cmd.Process != nil {
			_ = proc.KillGroup(cmd.Process.Pid)
		}
		return nil, 0, fmt.Errorf("start %s: %w", srv.name, err)
	}
	init := time.Since(start)
	c := &conn{cs: cs, cmd: cmd, listBytes: listed}
	for _, err := range cs.Tools(ctx, nil) {
		if err != nil {
			c.close()
			return nil, 0, fmt.Errorf("%s: tools/list: %w", srv.name, err)
		}
	}
	return c, init, nil
}

// close ends the MCP session, then kills whatever of the server's tree is
// left (debuggees started in groups of their own included).
func (c *conn) close() {
	left := proc.Descendants(c.cmd.Process.Pid)
	_ = c.cs.Close()
	_ = proc.KillGroup(c.cmd.Process.Pid)
	var alive []int
	for _, p := range left {
		if proc.Alive(p) {
			alive = append(alive, p)
		}
	}
	proc.KillAll(alive)
}

// call runs one tool and returns its JSON answer. dbg's envelope
// ({success, data, requestId}) is unwrapped so both servers read alike; a
// tool error, or success:false, is an error.
func (c *conn) call(ctx context.Context, name string, args map[string]any) (map[string]any, error) {
	out, _, err := c.callBytes(ctx, name, args)
	return out, err
}

// callBytes is call, also returning the bytes of the answer's text
// content: what a client hands its model.
func (c *conn) callBytes(ctx context.Context, name string, args map[string]any) (map[string]any, int, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", name, err)
	}
	var text string
	n := 0
	for _, ct := range res.Content {
		if tc, ok := ct.(*mcp.TextContent); ok {
			if text == "" {
				text = tc.Text
			}
			n += len(tc.Text)
		}
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		return nil, n, fmt.Errorf("%s: answer is not JSON: %s", name, clip(text))
	}
	if res.IsError || out["success"] != true {
		return nil, n, fmt.Errorf("%s: %s", name, errorText(out, text))
	}
	if data, ok := out["data"].(map[string]any); ok && out["requestId"] != nil {
		return data, n, nil
	}
	return out, n, nil
}

// errorText picks the message out of a failed answer.
func errorText(out map[string]any, text string) string {
	switch e := out["error"].(type) {
	case string:
		return clip(e)
	case map[string]any:
		if m, ok := e["message"].(string); ok {
			return clip(m)
		}
	}
	if m, ok := out["message"].(string); ok {
		return clip(m)
	}
	return clip(text)
}

// clip shortens s to one line of at most 160 characters.
func clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 160 {
		s = s[:157] + "..."
	}
	return s
}

// paused reports whether an answer says the session is stopped.
func paused(out map[string]any) bool {
	st, _ := out["state"].(string)
	return strings.EqualFold(st, "paused")
}

// pauseWait is how long a session may take to report the stop after the
// call that should lead to it.
const pauseWait = 30 * time.Second

// waitPaused polls list_debug_sessions until session id is paused.
func (c *conn) waitPaused(ctx context.Context, id string) error {
	start := time.Now()
	for {
		list, err := c.call(ctx, "list_debug_sessions", map[string]any{})
		if err != nil {
			return err
		}
		st := sessionState(list, id)
		switch {
		case strings.EqualFold(st, "paused"):
			return nil
		case st == "" || strings.EqualFold(st, "stopped") || strings.EqualFold(st, "terminated") || strings.EqualFold(st, "error"):
			return fmt.Errorf("state %q, not paused, after %v", st, time.Since(start).Round(time.Millisecond))
		case time.Since(start) > pauseWait:
			return fmt.Errorf("state %q %v after start_debugging, never paused", st, pauseWait)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// sessionState finds session id's state in list_debug_sessions' answer.
func sessionState(list map[string]any, id string) string {
	arr, _ := list["sessions"].([]any)
	for _, s := range arr {
		m, _ := s.(map[string]any)
		if m["sessionId"] == id || m["id"] == id {
			st, _ := m["state"].(string)
			return st
		}
	}
	return ""
}

// timings are the measurements of one debugging session.
type timings struct {
	firstStop    time.Duration
	steps, evals []time.Duration
	rss          int64 // bytes, of the server's tree at the first stop
	ownRSS       int64 // bytes, of the server's own process then
	procs        int   // processes in that tree
}

// session runs create → set_breakpoint → start_debugging → (the first
// stop) → steps × step_over → steps × evaluate_expression → close.
func (c *conn) session(ctx context.Context, srv server, fx fixture, steps int) (timings, error) {
	var t timings
	start := time.Now()
	created, err := c.call(ctx, "create_debug_session", map[string]any{"language": fx.lang})
	if err != nil {
		return t, err
	}
	id, _ := created["sessionId"].(string)
	if id == "" {
		return t, errors.New("create_debug_session: no sessionId")
	}
	defer func() { _, _ = c.call(ctx, "close_debug_session", map[string]any{"sessionId": id}) }()
	if _, err := c.call(ctx, "set_breakpoint", map[string]any{"sessionId": id, "file": fx.source, "line": fx.line}); err != nil {
		return t, err
	}
	args := srv.start(fx)
	args["sessionId"] = id
	st, err := c.call(ctx, "start_debugging", args)
	if err != nil {
		return t, err
	}
	if !paused(st) || st["pending"] == true {
		if err := c.waitPaused(ctx, id); err != nil {
			return t, err
		}
	}
	t.firstStop = time.Since(start)
	t.rss, t.procs = processTreeRSS(c.cmd.Process.Pid)
	t.ownRSS, _ = proc.RSS(c.cmd.Process.Pid)
	for i := 0; i < steps; i++ {
		t0 := time.Now()
		out, err := c.call(ctx, "step_over", map[string]any{"sessionId": id})
		if err != nil {
			return t, err
		}
		if out["pending"] == true || (out["state"] != nil && !paused(out)) {
			if err := c.waitPaused(ctx, id); err != nil {
				return t, err
			}
		}
		t.steps = append(t.steps, time.Since(t0))
	}
	for i := 0; i < steps; i++ {
		t0 := time.Now()
		if _, err := c.call(ctx, "evaluate_expression", map[string]any{"sessionId": id, "expression": fx.expr}); err != nil {
			return t, err
		}
		t.evals = append(t.evals, time.Since(t0))
	}
	return t, nil
}
