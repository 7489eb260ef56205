package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// An uncaught exception (Python) or panic (Go) stops the launched program
// at the crash site with its message (launch default: uncaught).
func TestUncaughtExceptionStops(t *testing.T) {
	cases := []struct {
		lang, program, wantText, wantLine string
		require                           func(*testing.T)
	}{
		{"python", "python/raises.py", "ValueError", "return int(text)", requireDebugpy},
		{"go", "go/panic/main.go", "index out of range", "return xs[i]", requireDelve},
	}
	for _, tc := range cases {
		t.Run(tc.lang, func(t *testing.T) {
			tc.require(t)
			c := startDbg(t)
			prog := fixture(t, tc.program)
			id := c.ok("create_debug_session", map[string]any{"language": tc.lang}).str("sessionId")
			st := c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog, "waitMs": 60000})
			if st.str("state") != "paused" || st.str("lastStop.reason") != "exception" {
				t.Fatalf("no exception stop: %v", st)
			}
			if !strings.Contains(st.str("lastStop.text"), tc.wantText) {
				t.Fatalf("exception text %q, want %q", st.str("lastStop.text"), tc.wantText)
			}
			if !strings.Contains(st.str("lastStop.location.text"), tc.wantLine) {
				t.Fatalf("stopped at %q, want the line %q", st.str("lastStop.location.text"), tc.wantLine)
			}
			// Output events travel apart from the stop: give them a moment.
			var text string
			for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
				if text = c.ok("get_output", map[string]any{"sessionId": id}).str("text"); strings.Contains(text, "about to") {
					break
				}
			}
			if !strings.Contains(text, "about to") {
				t.Fatalf("output before the crash is missing: %q", text)
			}
			c.ok("close_debug_session", map[string]any{"sessionId": id})
		})
	}
}

// DBG_DAP_LOG writes each session's DAP traffic as JSON lines.
func TestTrafficLogThroughServer(t *testing.T) {
	dir := t.TempDir()
	c := startDbg(t, "DBG_DAP_LOG="+dir)
	id := c.ok("create_debug_session", map[string]any{"language": "mock"}).str("sessionId")
	c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": fixture(t, "mock/loop.mock")})
	c.ok("close_debug_session", map[string]any{"sessionId": id})
	b, err := os.ReadFile(filepath.Join(dir, id+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var commands []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var v struct {
			Dir string
			Msg struct{ Type, Command, Event string }
		}
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("bad line %q: %v", line, err)
		}
		if v.Dir == "send" {
			commands = append(commands, v.Msg.Command)
		}
	}
	joined := strings.Join(commands, ",")
	for _, want := range []string{"initialize", "launch", "configurationDone", "disconnect"} {
		if !strings.Contains(joined, want) {
			t.Fatalf("log lacks %s: %s", want, joined)
		}
	}
}
