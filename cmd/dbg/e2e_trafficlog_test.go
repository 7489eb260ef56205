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
	t.Parallel()
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

// Finding 10: the traffic log holds the program's values, so it is
// redacted as the answers are, unless the server reveals secrets.
func TestTrafficLogIsRedactedUnlessRevealed(t *testing.T) {
	t.Parallel()
	prog := fixture(t, "mock/secrets.mock")
	line := mcpLine(t, prog, `print "ready`)
	for _, reveal := range []bool{false, true} {
		dir := t.TempDir()
		var flags []string
		if reveal {
			flags = []string{"--reveal-secrets"}
		}
		c := startDbgWith(t, nil, flags, "DBG_DAP_LOG="+dir)
		id := c.ok("create_debug_session", map[string]any{"language": "mock"}).str("sessionId")
		c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": line})
		mcpPaused(t, c, id, c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog}))
		mcpLocals(t, c, id)
		c.ok("close_debug_session", map[string]any{"sessionId": id})
		b, err := os.ReadFile(filepath.Join(dir, id+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(b), "hunter2"); got != reveal {
			t.Errorf("reveal %v: the log holds the password: %v", reveal, got)
		}
		if !reveal && !strings.Contains(string(b), "‹redacted›") {
			t.Errorf("the redacted log shows no redaction: %.300s", b)
		}
		if fi, err := os.Stat(filepath.Join(dir, id+".jsonl")); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("log mode %v, %v; want 0600", fi.Mode(), err)
		}
	}
}
