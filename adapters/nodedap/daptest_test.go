package nodedap

import (
	"context"
	"encoding/json"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/dap"
)

// client drives a Handler over an in-memory pipe, as dbg's session
// manager does.
type client struct {
	t    *testing.T
	conn *dap.Conn

	mu     sync.Mutex
	events []*dap.Message
	cursor int
	output strings.Builder
	wake   chan struct{}

	noChildren bool // initialize without supportsStartDebuggingRequest
}

// clientOptions adjust newClientWith's client and handler.
type clientOptions struct {
	// onRequest answers the adapter's reverse requests (nil rejects them).
	onRequest func(ctx context.Context, req *dap.Message) (any, error)
	// setup adjusts the handler before it serves.
	setup func(h *Handler)
	// noChildren leaves supportsStartDebuggingRequest out of initialize.
	noChildren bool
}

func newClient(t *testing.T) *client { return newClientWith(t, clientOptions{}) }

func newClientWith(t *testing.T, o clientOptions) *client {
	t.Helper()
	mustHaveNode(t)
	cl, srv := net.Pipe()
	h := NewHandler()
	if o.setup != nil {
		o.setup(h)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = dap.Serve(ctx, srv, h, nil)
	}()
	c := &client{t: t, wake: make(chan struct{}, 1), noChildren: o.noChildren}
	c.conn = dap.NewConn(cl, dap.Options{Timeout: clientWait, OnRequest: o.onRequest, OnEvent: func(m *dap.Message) {
		c.mu.Lock()
		c.events = append(c.events, m)
		if m.Event == "output" {
			var b struct{ Output string }
			_ = json.Unmarshal(m.Body, &b)
			c.output.WriteString(b.Output)
		}
		c.mu.Unlock()
		select {
		case c.wake <- struct{}{}:
		default:
		}
	}})
	t.Cleanup(func() {
		_ = c.conn.Close()
		cancel()
		select {
		case <-served:
		case <-time.After(10 * time.Second):
			t.Error("server did not stop")
		}
		h.Close()
	})
	return c
}

// req sends a request and fails the test on an error response.
func (c *client) req(cmd string, args any) *dap.Message {
	c.t.Helper()
	m, err := c.try(cmd, args)
	if err != nil {
		c.t.Fatalf("%s: %v", cmd, err)
	}
	return m
}

func (c *client) try(cmd string, args any) (*dap.Message, error) {
	ctx, cancel := context.WithTimeout(context.Background(), clientWait)
	defer cancel()
	return c.conn.Request(ctx, cmd, args)
}

// body decodes a response or event body.
func body[T any](t *testing.T, m *dap.Message) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(m.Body, &v); err != nil {
		t.Fatalf("%s%s body: %v: %s", m.Command, m.Event, err, m.Body)
	}
	return v
}

// event waits for the next event named name (skipping others).
// clientWait bounds each wait of the test client: long enough for a node
// to start and fork on a two-core machine running the whole suite, and a
// deadline all the same (a passing wait ends at its condition).
const clientWait = time.Minute

func (c *client) event(name string) *dap.Message {
	c.t.Helper()
	m := c.maybeEvent(name, clientWait)
	if m == nil {
		c.mu.Lock()
		var seen []string
		for _, e := range c.events {
			seen = append(seen, e.Event)
		}
		out := c.output.String()
		c.mu.Unlock()
		c.t.Fatalf("no %s event; events: %v; output: %q", name, seen, out)
	}
	return m
}

func (c *client) maybeEvent(name string, d time.Duration) *dap.Message {
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	for {
		c.mu.Lock()
		for c.cursor < len(c.events) {
			m := c.events[c.cursor]
			c.cursor++
			if m.Event == name {
				c.mu.Unlock()
				return m
			}
		}
		c.mu.Unlock()
		select {
		case <-c.wake:
		case <-deadline.C:
			return nil
		}
	}
}

// seen returns the first event named name received so far, wherever the
// cursor is.
func (c *client) seen(name string) *dap.Message {
	c.t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range c.events {
		if e.Event == name {
			return e
		}
	}
	c.t.Fatalf("no %s event", name)
	return nil
}

func (c *client) outputText() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.output.String()
}

// waitOutput waits until the program's output contains s.
func (c *client) waitOutput(s string) {
	c.t.Helper()
	deadline := time.Now().Add(clientWait)
	for !strings.Contains(c.outputText(), s) {
		if time.Now().After(deadline) {
			c.t.Fatalf("output never contained %q; got %q", s, c.outputText())
		}
		select {
		case <-c.wake:
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func (c *client) initialize() {
	c.t.Helper()
	c.req("initialize", map[string]any{"clientID": "dbg", "adapterID": "javascript", "linesStartAt1": true,
		"columnsStartAt1": true, "pathFormat": "path", "supportsVariableType": true, "supportsStartDebuggingRequest": !c.noChildren})
}

// start sends launch or attach the way the session manager does: without
// waiting for the answer, then waits for initialized, then the answer.
func (c *client) start(cmd string, args map[string]any) error {
	c.t.Helper()
	c.initialize()
	call, err := c.conn.Start(context.Background(), cmd, args)
	if err != nil {
		c.t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), clientWait)
	defer cancel()
	_, err = call.Wait(ctx, 0)
	if err != nil {
		return err
	}
	c.event("initialized")
	return nil
}

func (c *client) launch(args map[string]any) {
	c.t.Helper()
	if err := c.start("launch", args); err != nil {
		c.t.Fatalf("launch: %v", err)
	}
}

type dapBreakpoint struct {
	ID       int    `json:"id"`
	Verified bool   `json:"verified"`
	Line     int    `json:"line"`
	Message  string `json:"message"`
}

func (c *client) setBreakpoints(path string, bps ...map[string]any) []dapBreakpoint {
	c.t.Helper()
	m := c.req("setBreakpoints", map[string]any{"source": map[string]any{"path": path}, "breakpoints": bps})
	return body[struct{ Breakpoints []dapBreakpoint }](c.t, m).Breakpoints
}

type stoppedBody struct {
	Reason           string `json:"reason"`
	ThreadID         int    `json:"threadId"`
	Text             string `json:"text"`
	Description      string `json:"description"`
	HitBreakpointIDs []int  `json:"hitBreakpointIds"`
}

func (c *client) stopped() stoppedBody {
	c.t.Helper()
	return body[stoppedBody](c.t, c.event("stopped"))
}

// breakAt launches script with a breakpoint on the line holding marker
// and waits for the program to stop there.
func (c *client) breakAt(script, marker string) {
	c.t.Helper()
	c.launch(map[string]any{"program": script})
	c.setBreakpoints(script, map[string]any{"line": lineOf(c.t, script, marker)})
	c.req("configurationDone", nil)
	want(c.t, "reason", c.stopped().Reason, "breakpoint")
}

// finish continues thread 1 to the end of the program, whose output must
// hold output.
func (c *client) finish(output string) {
	c.t.Helper()
	c.req("continue", map[string]any{"threadId": 1})
	c.event("terminated")
	if !strings.Contains(c.outputText(), output) {
		c.t.Errorf("output %q", c.outputText())
	}
}

type frame struct {
	ID     int    `json:"id"`
	Name   string `json:"name"`
	Line   int    `json:"line"`
	Source struct {
		Path string `json:"path"`
	} `json:"source"`
}

func (c *client) frames() []frame {
	c.t.Helper()
	m := c.req("stackTrace", map[string]any{"threadId": 1, "startFrame": 0, "levels": 20})
	fs := body[struct{ StackFrames []frame }](c.t, m).StackFrames
	if len(fs) == 0 {
		c.t.Fatal("empty stack")
	}
	return fs
}

type variable struct {
	Name               string `json:"name"`
	Value              string `json:"value"`
	Type               string `json:"type"`
	VariablesReference int    `json:"variablesReference"`
}

func (c *client) scopes(frameID int) map[string]int {
	c.t.Helper()
	m := c.req("scopes", map[string]any{"frameId": frameID})
	out := map[string]int{}
	for _, s := range body[struct {
		Scopes []struct {
			Name               string
			VariablesReference int
		}
	}](c.t, m).Scopes {
		out[s.Name] = s.VariablesReference
	}
	return out
}

func (c *client) vars(ref int) map[string]variable {
	c.t.Helper()
	m := c.req("variables", map[string]any{"variablesReference": ref})
	out := map[string]variable{}
	for _, v := range body[struct{ Variables []variable }](c.t, m).Variables {
		out[v.Name] = v
	}
	return out
}

// locals returns the Local scope of the top frame.
func (c *client) locals() map[string]variable {
	c.t.Helper()
	f := c.frames()[0]
	ref, ok := c.scopes(f.ID)["Local"]
	if !ok {
		c.t.Fatalf("no Local scope at %s:%d", f.Source.Path, f.Line)
	}
	return c.vars(ref)
}

func (c *client) eval(expr string, frameID int) variable {
	c.t.Helper()
	args := map[string]any{"expression": expr, "context": "repl"}
	if frameID != 0 {
		args["frameId"] = frameID
	}
	m := c.req("evaluate", args)
	b := body[struct {
		Result             string
		Type               string
		VariablesReference int
	}](c.t, m)
	return variable{Value: b.Result, Type: b.Type, VariablesReference: b.VariablesReference}
}

func want(t *testing.T, what string, got, wantv any) {
	t.Helper()
	if got != wantv {
		t.Fatalf("%s = %v, want %v", what, got, wantv)
	}
}
