package main

import (
	"regexp"
	"strings"
	"testing"
)

// A logpoint's output arrives from debugpy as stdout, between the two
// writes of a program's line; it goes to console, whole, and the
// program's lines stay whole in stdout.
func TestLogpointOutputNeverSplices(t *testing.T) {
	t.Parallel()
	requireDebugpy(t)
	c := startDbg(t)
	prog := fixture(t, "python/splice.py")
	id := c.ok("create_debug_session", map[string]any{"language": "python"}).str("sessionId")
	c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": mcpLine(t, prog, "# LOGPOINT"), "logMessage": "lp {i}"})
	mcpEnded(t, c, id, c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog}))
	stdout := c.ok("get_output", map[string]any{"sessionId": id, "category": "stdout"}).str("text")
	if want := "trace-donep 0\ntrace-donep 1\ntrace-donep 2\n"; !strings.HasSuffix(stdout, want) || strings.Contains(stdout, "lp ") {
		t.Errorf("stdout %q, want the program's lines %q whole", stdout, want)
	}
	console := c.ok("get_output", map[string]any{"sessionId": id, "category": "console"}).str("text")
	lp := regexp.MustCompile(`(?m)^lp \d$`).FindAllString(console, -1)
	if len(lp) == 0 || strings.Count(console, "lp ") != len(lp) {
		t.Errorf("console %q, want the logpoint lines whole", console)
	}
	mcpClose(t, c, id, nil)
}

// A Python probe in record mode: its condition is kept, an expression the
// program cannot read is an error on each hit, and the program's output
// is untouched.
func TestPythonProbeRecordsHits(t *testing.T) {
	t.Parallel()
	requireDebugpy(t)
	c := startDbg(t)
	prog := fixture(t, "python/splice.py")
	id := c.ok("create_debug_session", map[string]any{"language": "python"}).str("sessionId")
	tr := c.ok("add_trace", map[string]any{"sessionId": id, "stacks": -1, "probes": []any{map[string]any{
		"file": prog, "line": mcpLine(t, prog, "# LOGPOINT"), "expressions": []string{"i", "nosuch"}, "condition": "i > 0"}}})
	mcpEnded(t, c, id, c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog}))
	p := c.ok("get_trace", map[string]any{"sessionId": id, "traceId": tr.str("traceId")}).list("probes")[0]
	if p.num("hits") != 2 || p.str("expressions.0.min") != "1" || p.str("expressions.0.max") != "2" || p.num("expressions.1.errors") != 2 {
		t.Errorf("probe %v, want 2 hits with i 1..2 and nosuch unreadable", p)
	}
	if p.str("mode") != "record" {
		t.Errorf("mode %q, want record", p.str("mode"))
	}
	stdout := c.ok("get_output", map[string]any{"sessionId": id, "category": "stdout"}).str("text")
	if want := "trace-donep 0\ntrace-donep 1\ntrace-donep 2\n"; !strings.HasSuffix(stdout, want) {
		t.Errorf("stdout %q, want %q", stdout, want)
	}
	mcpClose(t, c, id, nil)
}
