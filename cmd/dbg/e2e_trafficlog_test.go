package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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
