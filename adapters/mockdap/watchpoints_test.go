package mockdap

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
)

// A data breakpoint on total with hit condition 2 stops before the second
// write, at its line, with the old and the new value; the write runs when
// the program resumes, and it ends without another stop.
func TestDataBreakpointStopsBeforeTheWrite(t *testing.T) {
	c := newMockClient(t)
	prog := writeProgram(t)
	c.start(prog, map[string]any{"line": loopLine})
	c.waitStopped()
	var info struct {
		DataID      string   `json:"dataId"`
		AccessTypes []string `json:"accessTypes"`
	}
	_ = json.Unmarshal(c.req("dataBreakpointInfo", map[string]any{"name": "total"}), &info)
	if info.DataID == "" {
		t.Fatal("no dataId for total")
	}
	var none struct{ DataID *string }
	_ = json.Unmarshal(c.req("dataBreakpointInfo", map[string]any{"name": "nosuch"}), &none)
	if none.DataID != nil {
		t.Errorf("dataId %q for a variable that does not exist", *none.DataID)
	}
	var set struct {
		Breakpoints []struct {
			ID       int
			Verified bool
		}
	}
	_ = json.Unmarshal(c.req("setDataBreakpoints", map[string]any{"breakpoints": []any{
		map[string]any{"dataId": info.DataID, "accessType": "write", "hitCondition": "2"}}}), &set)
	if len(set.Breakpoints) != 1 || !set.Breakpoints[0].Verified {
		t.Fatalf("setDataBreakpoints: %+v", set)
	}
	c.req("setBreakpoints", map[string]any{"source": map[string]any{"path": prog}, "breakpoints": []any{}})
	c.req("continue", map[string]any{"threadId": 1})
	st := c.waitStopped()
	var body struct {
		Reason           string
		HitBreakpointIds []int
		DbgData          struct{ Old, New string }
	}
	_ = json.Unmarshal(st.Body, &body)
	if body.Reason != "data breakpoint" || body.DbgData.Old != "1" || body.DbgData.New != "3" || len(body.HitBreakpointIds) != 1 || body.HitBreakpointIds[0] != set.Breakpoints[0].ID {
		t.Fatalf("stop %s, want a data breakpoint: 1 → 3", st.Body)
	}
	var frames struct{ StackFrames []struct{ Line int } }
	_ = json.Unmarshal(c.req("stackTrace", map[string]any{"threadId": 1}), &frames)
	if frames.StackFrames[0].Line != loopLine {
		t.Errorf("stopped at line %d, want the writing line %d", frames.StackFrames[0].Line, loopLine)
	}
	c.req("continue", map[string]any{"threadId": 1})
	if stops := c.stopsUntilTerminated(); len(stops) != 0 {
		t.Errorf("stops after the data breakpoint's: %v", stops)
	}
	if out := c.outputText(); !containsLine(out, "done 21") {
		t.Errorf("output %q, want the writes done (done 21)", out)
	}
}

func (c *mockClient) waitStopped() *jsonEvent {
	c.t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case m := <-c.events:
			if m.Event == "stopped" {
				return &jsonEvent{Body: m.Body}
			}
		case <-deadline:
			c.t.Fatal("no stop within 10s")
		}
	}
}

type jsonEvent struct{ Body json.RawMessage }

func containsLine(out, line string) bool {
	return slices.Contains(strings.Split(out, "\n"), line)
}
