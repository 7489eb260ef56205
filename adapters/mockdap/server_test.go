package mockdap

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/dap"
)

// loopProgram runs six passes of a loop; pass k has i == k.
const loopProgram = `let total = 0
for i in 1..6
  let total = total + i
  print "i={i}"
end
print "done {total}"
`

const loopLine = 3 // let total = total + i

// mockClient drives one mock adapter over an in-memory pipe.
type mockClient struct {
	t      testing.TB
	conn   *dap.Conn
	events chan *dap.Message

	mu     sync.Mutex
	output strings.Builder
}

func newMockClient(t testing.TB) *mockClient {
	t.Helper()
	cl, srv := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = Serve(ctx, srv, nil)
	}()
	c := &mockClient{t: t, events: make(chan *dap.Message, 1000)}
	c.conn = dap.NewConn(cl, dap.Options{Timeout: 10 * time.Second, OnEvent: func(m *dap.Message) {
		if m.Event == "output" {
			var b struct{ Output string }
			_ = json.Unmarshal(m.Body, &b)
			c.mu.Lock()
			c.output.WriteString(b.Output)
			c.mu.Unlock()
		}
		c.events <- m
	}})
	t.Cleanup(func() {
		_ = c.conn.Close()
		cancel()
		<-served
	})
	return c
}

func (c *mockClient) req(cmd string, args any) json.RawMessage {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	m, err := c.conn.Request(ctx, cmd, args)
	if err != nil {
		c.t.Fatalf("%s: %v", cmd, err)
	}
	return m.Body
}

func (c *mockClient) outputText() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.output.String()
}

type mockBreakpoint struct {
	Verified bool   `json:"verified"`
	Message  string `json:"message"`
}

// start launches program with one breakpoint and returns what the adapter
// answered for it.
func (c *mockClient) start(program string, bp map[string]any) mockBreakpoint {
	c.t.Helper()
	c.req("initialize", map[string]any{"adapterID": "mock", "linesStartAt1": true})
	c.req("launch", map[string]any{"program": program})
	var got struct{ Breakpoints []mockBreakpoint }
	_ = json.Unmarshal(c.req("setBreakpoints", map[string]any{"source": map[string]any{"path": program},
		"breakpoints": []any{bp}}), &got)
	c.req("configurationDone", nil)
	return got.Breakpoints[0]
}

// stopsUntilTerminated continues after every stop until the program ends
// and returns i at each stop.
func (c *mockClient) stopsUntilTerminated() []string {
	c.t.Helper()
	var stops []string
	deadline := time.After(20 * time.Second)
	for {
		select {
		case m := <-c.events:
			switch m.Event {
			case "terminated":
				return stops
			case "stopped":
				var st struct{ StackFrames []struct{ ID int } }
				_ = json.Unmarshal(c.req("stackTrace", map[string]any{"threadId": 1}), &st)
				var ev struct{ Result string }
				_ = json.Unmarshal(c.req("evaluate", map[string]any{"expression": "i", "frameId": st.StackFrames[0].ID}), &ev)
				stops = append(stops, ev.Result)
				c.req("continue", map[string]any{"threadId": 1})
			}
		case <-deadline:
			c.t.Fatalf("the program never ended (stops at i=%v); output: %q", stops, c.outputText())
		}
	}
}

func writeProgram(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "loop.mock")
	if err := os.WriteFile(p, []byte(loopProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestHitConditionPastTheFourthPass: a bare "3" stops on the third pass
// only, ">= 3" on the third and every one after it.
func TestHitConditionPastTheFourthPass(t *testing.T) {
	for _, tc := range []struct {
		cond string
		want []string
	}{
		{"3", []string{"3"}},
		{"== 3", []string{"3"}},
		{">= 3", []string{"3", "4", "5", "6"}},
		{"% 2", []string{"2", "4", "6"}},
	} {
		t.Run(tc.cond, func(t *testing.T) {
			c := newMockClient(t)
			prog := writeProgram(t)
			if b := c.start(prog, map[string]any{"line": loopLine, "hitCondition": tc.cond}); !b.Verified {
				t.Fatalf("breakpoint %+v", b)
			}
			got := c.stopsUntilTerminated()
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("hitCondition %q stopped at i=%v, want i=%v", tc.cond, got, tc.want)
			}
			if !strings.Contains(c.outputText(), "done 21") {
				t.Errorf("the loop did not run to its end: %q", c.outputText())
			}
		})
	}
}

func TestBadHitConditionIsReported(t *testing.T) {
	c := newMockClient(t)
	b := c.start(writeProgram(t), map[string]any{"line": loopLine, "hitCondition": "often"})
	if b.Verified || !strings.Contains(b.Message, "hit condition") {
		t.Errorf("a malformed hit condition: %+v", b)
	}
	if got := c.stopsUntilTerminated(); len(got) != 0 {
		t.Errorf("a breakpoint with a malformed hit condition stopped at i=%v", got)
	}
}

func TestLogpointExpressionParts(t *testing.T) {
	c := newMockClient(t)
	c.start(writeProgram(t), map[string]any{"line": loopLine, "hitCondition": ">= 5",
		"logMessage": `i={i} twice={ i * 2 } \{i\} bad={nope}`})
	if got := c.stopsUntilTerminated(); len(got) != 0 {
		t.Fatalf("a logpoint stopped at i=%v", got)
	}
	out := c.outputText()
	for _, s := range []string{"i=5 twice=10 {i} bad=<", "i=6 twice=12 {i} bad=<"} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q: %q", s, out)
		}
	}
	if strings.Contains(out, "i=4 twice") {
		t.Errorf("logpoint with hitCondition >= 5 logged the fourth pass: %q", out)
	}
}
