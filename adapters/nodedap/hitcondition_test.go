package nodedap

import (
	"strings"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/dap"
)

// stopsUntilTerminated continues the program after every stop until it
// ends and returns the loop variable i at each stop.
func (c *client) stopsUntilTerminated() []string {
	c.t.Helper()
	var stops []string
	deadline := time.After(30 * time.Second)
	for {
		var next *dap.Message
		c.mu.Lock()
		for next == nil && c.cursor < len(c.events) {
			if m := c.events[c.cursor]; m.Event == "stopped" || m.Event == "terminated" {
				next = m
			}
			c.cursor++
		}
		c.mu.Unlock()
		switch {
		case next == nil:
			select {
			case <-c.wake:
			case <-deadline:
				c.t.Fatalf("the program never ended (stops at i=%v); output: %q", stops, c.outputText())
			}
		case next.Event == "terminated":
			return stops
		default:
			stops = append(stops, c.locals()["i"].Value)
			c.req("continue", map[string]any{"threadId": 1})
		}
	}
}

// TestHitConditionPastTheFourthPass runs loop.js's five passes (pass k
// has i == k-1): a bare "3" stops on the third pass only, ">= 3" on the
// third and every one after it.
func TestHitConditionPastTheFourthPass(t *testing.T) {
	t.Parallel()
	script := fixture(t, "loop.js")
	line := lineOf(t, script, "BP:loop")
	for _, tc := range []struct {
		cond string
		want []string
	}{
		{"3", []string{"2"}},
		{">= 3", []string{"2", "3", "4"}},
	} {
		t.Run(tc.cond, func(t *testing.T) {
			c := newClient(t)
			c.launch(map[string]any{"program": script})
			c.setBreakpoints(script, map[string]any{"line": line, "hitCondition": tc.cond})
			c.req("configurationDone", nil)
			got := c.stopsUntilTerminated()
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("hitCondition %q stopped at i=%v, want i=%v", tc.cond, got, tc.want)
			}
			if !strings.Contains(c.outputText(), "done 10") {
				t.Errorf("the loop did not run to its end: %q", c.outputText())
			}
		})
	}
}

func TestLogpointExpressionParts(t *testing.T) {
	t.Parallel()
	script := fixture(t, "loop.js")
	line := lineOf(t, script, "BP:loop")
	c := newClient(t)
	c.launch(map[string]any{"program": script})
	c.setBreakpoints(script, map[string]any{"line": line,
		"logMessage": `i={i} obj={JSON.stringify({i: i})} \{i\} "q"`})
	c.req("configurationDone", nil)
	if got := c.stopsUntilTerminated(); len(got) != 0 {
		t.Fatalf("a logpoint stopped at i=%v", got)
	}
	out := c.outputText()
	for _, s := range []string{`i=0 obj={"i":0} {i} "q"`, `i=4 obj={"i":4} {i} "q"`} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q: %q", s, out)
		}
	}
}
