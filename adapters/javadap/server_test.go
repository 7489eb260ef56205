package javadap

import (
	"context"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/dap"
)

// client is a synchronous DAP test client of one Server over net.Pipe.
type client struct {
	t      *testing.T
	c      *dap.Conn
	events chan *dap.Message

	mu     sync.Mutex
	output strings.Builder
	last   map[string]map[string]any // last body of each event
}

// lastEvent returns the body of the last event named name, nil if none.
func (c *client) lastEvent(name string) map[string]any {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.last[name]
}

func newClient(t *testing.T) *client {
	t.Helper()
	cli, srvEnd := net.Pipe()
	srv := NewServer()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = dap.Serve(ctx, srvEnd, srv, nil)
	}()
	c := &client{t: t, events: make(chan *dap.Message, 10000), last: map[string]map[string]any{}}
	c.c = dap.NewConn(cli, dap.Options{Timeout: 30 * time.Second, OnEvent: func(m *dap.Message) {
		var body map[string]any
		_ = m.DecodeBody(&body)
		c.mu.Lock()
		c.last[m.Event] = body
		c.mu.Unlock()
		if m.Event == "output" {
			var b struct{ Output string }
			_ = m.DecodeBody(&b)
			c.mu.Lock()
			c.output.WriteString(b.Output)
			c.mu.Unlock()
		}
		c.events <- m
	}})
	t.Cleanup(func() {
		c.c.Close()
		cancel()
		<-served
		srv.Close()
	})
	return c
}

func (c *client) Output() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.output.String()
}

// req sends a request and fails the test on error.
func (c *client) req(cmd string, args any) map[string]any {
	c.t.Helper()
	body, err := c.try(cmd, args)
	if err != nil {
		c.t.Fatalf("%s: %v", cmd, err)
	}
	return body
}

func (c *client) try(cmd string, args any) (map[string]any, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	m, err := c.c.Request(ctx, cmd, args)
	if err != nil {
		return nil, err
	}
	var body map[string]any
	_ = m.DecodeBody(&body)
	return body, nil
}

// wait returns the next event named name, skipping others.
func (c *client) wait(name string) map[string]any {
	c.t.Helper()
	t := time.NewTimer(30 * time.Second)
	defer t.Stop()
	for {
		select {
		case m := <-c.events:
			if m.Event == name {
				var body map[string]any
				_ = m.DecodeBody(&body)
				return body
			}
		case <-t.C:
			c.t.Fatalf("no %q event within 30s; output so far:\n%s", name, c.Output())
		}
	}
}

// waitOutput waits until the debuggee's output contains s.
func (c *client) waitOutput(s string) {
	c.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(c.Output(), s) {
		if time.Now().After(deadline) {
			c.t.Fatalf("output never contained %q; got:\n%s", s, c.Output())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (c *client) initialize() map[string]any {
	return c.req("initialize", map[string]any{"clientID": "dbg", "adapterID": "java", "linesStartAt1": true,
		"columnsStartAt1": true, "pathFormat": "path", "supportsVariableType": true})
}

// launch runs the DAPFLOW launch sequence; setup sets breakpoints between
// initialized and configurationDone.
func (c *client) launch(args map[string]any, setup func()) {
	c.t.Helper()
	c.initialize()
	call, err := c.c.Start(context.Background(), "launch", args)
	if err != nil {
		c.t.Fatal(err)
	}
	c.wait("initialized")
	if _, err := call.Wait(context.Background(), 30*time.Second); err != nil {
		c.t.Fatalf("launch: %v", err)
	}
	if setup != nil {
		setup()
	}
	c.req("configurationDone", nil)
}

func (c *client) setBreakpoints(file string, bps ...map[string]any) []any {
	c.t.Helper()
	body := c.req("setBreakpoints", map[string]any{"source": map[string]any{"path": filepath.Join(fixtureDir(c.t), file)}, "breakpoints": bps})
	return body["breakpoints"].([]any)
}

type stop struct {
	reason   string
	thread   int
	frame    int
	line     int
	name     string
	path     string
	text     string
	rawEvent map[string]any
}

// stopped waits for a stop and reads the top frame.
func (c *client) stopped() stop {
	c.t.Helper()
	ev := c.wait("stopped")
	s := stop{reason: ev["reason"].(string), thread: int(ev["threadId"].(float64)), rawEvent: ev}
	s.text, _ = ev["text"].(string)
	st := c.req("stackTrace", map[string]any{"threadId": s.thread, "startFrame": 0, "levels": 20})
	frames := st["stackFrames"].([]any)
	if len(frames) == 0 {
		c.t.Fatalf("no frames at stop %v", ev)
	}
	f := frames[0].(map[string]any)
	s.frame = int(f["id"].(float64))
	s.line = int(f["line"].(float64))
	s.name = f["name"].(string)
	if src, ok := f["source"].(map[string]any); ok {
		s.path, _ = src["path"].(string)
	}
	return s
}

// locals returns name -> value of the top scope of a frame.
func (c *client) locals(frame int) map[string]string {
	c.t.Helper()
	vars := c.localVars(frame)
	out := map[string]string{}
	for name, v := range vars {
		out[name] = v["value"].(string)
	}
	return out
}

func (c *client) localVars(frame int) map[string]map[string]any {
	c.t.Helper()
	sc := c.req("scopes", map[string]any{"frameId": frame})
	ref := sc["scopes"].([]any)[0].(map[string]any)["variablesReference"]
	return c.vars(ref, nil)
}

func (c *client) vars(ref any, extra map[string]any) map[string]map[string]any {
	c.t.Helper()
	args := map[string]any{"variablesReference": ref}
	for k, v := range extra {
		args[k] = v
	}
	vs := c.req("variables", args)
	out := map[string]map[string]any{}
	for _, v := range vs["variables"].([]any) {
		m := v.(map[string]any)
		out[m["name"].(string)] = m
	}
	return out
}

func (c *client) eval(frame int, expr string) string {
	c.t.Helper()
	b := c.req("evaluate", map[string]any{"expression": expr, "frameId": frame, "context": "repl"})
	return b["result"].(string)
}

func (c *client) cont(thread int) {
	c.t.Helper()
	c.req("continue", map[string]any{"threadId": thread})
}

// exited waits for exited and terminated and returns the exit code.
func (c *client) exited() int {
	c.t.Helper()
	ev := c.wait("exited")
	c.wait("terminated")
	return int(ev["exitCode"].(float64))
}

func bp(line int) map[string]any { return map[string]any{"line": line} }

func TestLoopBreakpointStepAndSetVariable(t *testing.T) {
	forEachJDK(t, 17, func(t *testing.T, j JDK) {
		cp := compileWith(t, j, "")
		c := newClient(t)
		loop, square, print := fixtureLine(t, "Loop.java", "loop"), fixtureLine(t, "Loop.java", "square"), fixtureLine(t, "Loop.java", "print")
		c.launch(map[string]any{"mainClass": "Loop", "classpath": cp, "javaHome": j.Home}, func() {
			// Verified at once against Loop.class on the class path.
			got := c.setBreakpoints("Loop.java", bp(loop))
			if b := got[0].(map[string]any); b["verified"] != true || int(b["line"].(float64)) != loop {
				t.Errorf("breakpoint before the class loads: %v", b)
			}
		})
		s := c.stopped()
		if s.reason != "breakpoint" || s.line != loop || s.name != "Loop.main" || s.path != filepath.Join(fixtureDir(t), "Loop.java") {
			t.Fatalf("first stop %+v", s)
		}
		if p := c.lastEvent("process"); p == nil || p["systemProcessId"].(float64) <= 0 || p["startMethod"] != "launch" {
			t.Errorf("process event %v", p)
		}
		if hit := s.rawEvent["hitBreakpointIds"]; hit == nil {
			t.Errorf("no hitBreakpointIds in %v", s.rawEvent)
		}
		l := c.locals(s.frame)
		if l["sum"] != "0" || l["i"] != "0" || l["label"] != `"total"` {
			t.Fatalf("locals %v", l)
		}
		if _, ok := l["args"]; !ok {
			t.Errorf("args missing from %v", l)
		}
		c.req("stepIn", map[string]any{"threadId": s.thread})
		s = c.stopped()
		if s.reason != "step" || s.line != square || s.name != "Loop.square" {
			t.Fatalf("after stepIn %+v", s)
		}
		c.req("stepOut", map[string]any{"threadId": s.thread})
		s = c.stopped()
		if s.reason != "step" || s.line != loop || s.name != "Loop.main" {
			t.Fatalf("after stepOut %+v", s)
		}
		c.req("next", map[string]any{"threadId": s.thread})
		s = c.stopped()
		if s.reason != "step" || s.name != "Loop.main" || s.line == square {
			t.Fatalf("after next %+v", s)
		}
		c.setBreakpoints("Loop.java", bp(print))
		c.cont(s.thread)
		s = c.stopped()
		if s.line != print {
			t.Fatalf("stop at print: %+v", s)
		}
		if l := c.locals(s.frame); l["sum"] != "5" {
			t.Fatalf("sum at print %v", l)
		}
		sc := c.req("scopes", map[string]any{"frameId": s.frame})
		ref := sc["scopes"].([]any)[0].(map[string]any)["variablesReference"]
		if r := c.req("setVariable", map[string]any{"variablesReference": ref, "name": "sum", "value": "100"}); r["value"] != "100" {
			t.Errorf("setVariable sum: %v", r)
		}
		if r := c.req("setVariable", map[string]any{"variablesReference": ref, "name": "label", "value": `"changed"`}); r["value"] != `"changed"` {
			t.Errorf("setVariable label: %v", r)
		}
		if _, err := c.try("setVariable", map[string]any{"variablesReference": ref, "name": "sum", "value": `"text"`}); err == nil {
			t.Errorf("assigning a string to an int succeeded")
		}
		c.cont(s.thread)
		c.waitOutput("changed=100\n")
		if code := c.exited(); code != 0 {
			t.Errorf("exit code %d", code)
		}
		if !strings.Contains(c.Output(), "done\n") {
			t.Errorf("stderr missing from output: %q", c.Output())
		}
	})
}
