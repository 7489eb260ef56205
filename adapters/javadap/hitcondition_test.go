package javadap

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// spinUntil continues the program and reads its events until the output
// contains text; it returns the n of each stop on the way (continuing
// after each one).
func (c *client) spinUntil(text string) []string {
	c.t.Helper()
	var stops []string
	deadline := time.After(30 * time.Second)
	for !strings.Contains(c.Output(), text) {
		select {
		case m := <-c.events:
			if m.Event != "stopped" {
				continue
			}
			var ev struct {
				ThreadID int `json:"threadId"`
			}
			_ = m.DecodeBody(&ev)
			st := c.req("stackTrace", map[string]any{"threadId": ev.ThreadID, "startFrame": 0, "levels": 1})
			f := st["stackFrames"].([]any)[0].(map[string]any)
			stops = append(stops, c.locals(int(f["id"].(float64)))["n"])
			c.cont(ev.ThreadID)
		case <-deadline:
			c.t.Fatalf("output never contained %q (stops so far at n=%v); got:\n%s", text, stops, c.Output())
		case <-time.After(20 * time.Millisecond):
		}
	}
	return stops
}

// TestHitConditionPastTheFourthPass runs Spin's loop (pass k has n == k)
// well past its fourth pass: a bare "3" stops on the third pass only,
// ">= 3" on the third and every one after it.
func TestHitConditionPastTheFourthPass(t *testing.T) {
	cp := compileFixtures(t)
	spin := fixtureLine(t, "Spin.java", "spin")
	for _, tc := range []struct {
		cond  string
		until string
		want  []string
	}{
		{"3", "tick 20", []string{"3"}},
		{">= 3", "tick 20", []string{"3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16", "17", "18", "19"}},
	} {
		t.Run(tc.cond, func(t *testing.T) {
			c := newClient(t)
			c.launch(map[string]any{"mainClass": "Spin", "classpath": cp}, func() {
				c.setBreakpoints("Spin.java", map[string]any{"line": spin, "hitCondition": tc.cond})
			})
			var got []string
			for _, n := range c.spinUntil(tc.until) {
				// A stop at n = 20 may come before "tick 20" is read:
				// the window is the passes before it.
				if k, err := strconv.Atoi(n); err != nil || k < 20 {
					got = append(got, n)
				}
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("hitCondition %q stopped at n=%v, want n=%v", tc.cond, got, tc.want)
			}
			c.req("disconnect", map[string]any{"terminateDebuggee": true})
		})
	}
}

func TestBadHitConditionIsReported(t *testing.T) {
	cp := compileFixtures(t)
	spin := fixtureLine(t, "Spin.java", "spin")
	c := newClient(t)
	c.launch(map[string]any{"mainClass": "Spin", "classpath": cp}, func() {
		b := c.setBreakpoints("Spin.java", map[string]any{"line": spin, "hitCondition": "often"})[0].(map[string]any)
		if b["verified"] != false || !strings.Contains(b["message"].(string), "hit condition") {
			t.Errorf("a malformed hit condition: %v", b)
		}
	})
	if stops := c.spinUntil("tick 20"); len(stops) != 0 {
		t.Errorf("a breakpoint with a malformed hit condition stopped at n=%v", stops)
	}
	c.req("disconnect", map[string]any{"terminateDebuggee": true})
}

func TestLogpointExpressions(t *testing.T) {
	cp := compileFixtures(t)
	spin := fixtureLine(t, "Spin.java", "spin")
	c := newClient(t)
	c.launch(map[string]any{"mainClass": "Spin", "classpath": cp}, func() {
		c.setBreakpoints("Spin.java", map[string]any{"line": spin, "hitCondition": "<= 3",
			"logMessage": `n={n} twice={ n * 2 } \{n\} {nope}`})
	})
	if stops := c.spinUntil("tick 20"); len(stops) != 0 {
		t.Errorf("a logpoint stopped at n=%v", stops)
	}
	out := c.Output()
	for _, want := range []string{"n=1 twice=2 {n} <", "n=3 twice=6 {n} <"} {
		if !strings.Contains(out, want) {
			t.Errorf("logpoint output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "n=4 ") {
		t.Errorf("logpoint with hitCondition <= 3 logged the fourth pass:\n%s", out)
	}
	c.req("disconnect", map[string]any{"terminateDebuggee": true})
}
