package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// traceLine is the fixture's line marked "TRACE: body".
func traceLine(b *testing.B, path string) int {
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	for i, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, "TRACE: body") {
			return i + 1
		}
	}
	b.Fatalf("no TRACE: body line in %s", path)
	return 0
}

// traceRun runs testdata's 10,000-pass trace fixture of lang through
// dbg's MCP tools to its end, with a probe on the loop body reading i and
// k (traced) or without one, and returns the time from start_debugging to
// the end and the hits the trace counted.
func traceRun(b *testing.B, c *mcpClient, lang, program string, traced bool) (time.Duration, int) {
	id := c.call("create_debug_session", map[string]any{"language": lang})["sessionId"].(string)
	defer c.call("close_debug_session", map[string]any{"sessionId": id})
	traceID := ""
	if traced {
		line := traceLine(b, program)
		tr := c.call("add_trace", map[string]any{"sessionId": id,
			"probes": []any{map[string]any{"file": program, "line": line, "expressions": []string{"i", "k"}}}})
		traceID = tr["traceId"].(string)
	}
	start := time.Now()
	st := c.call("start_debugging", map[string]any{"sessionId": id, "scriptPath": program})
	for st["state"] != "terminated" {
		if st["state"] == "paused" {
			b.Fatalf("%s: the program stopped: %v", lang, st)
		}
		st = c.call("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 60000})
	}
	d := time.Since(start)
	if !traced {
		return d, 0
	}
	r := c.call("get_trace", map[string]any{"sessionId": id, "traceId": traceID})
	p := r["probes"].([]any)[0].(map[string]any)
	return d, int(p["hits"].(float64))
}

// BenchmarkTraceThroughput measures, per language, the hits per second a
// trace counts over a 10,000-pass loop (the extra time of the traced run
// over the same run with no probe), and the traced run against the plain
// one.
func BenchmarkTraceThroughput(b *testing.B) {
	c := startMCP(b)
	defer c.cs.Close()
	cases := []struct{ lang, program string }{
		{"python", "python/trace.py"},
		{"go", "go/trace/main.go"},
		{"javascript", "javascript/trace.js"},
		{"java", "java/Trace.java"},
	}
	for _, tc := range cases {
		program, err := filepath.Abs(filepath.Join("..", "testdata", tc.program))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(tc.lang, func(b *testing.B) {
			var plain, traced time.Duration
			hits := 0
			for i := 0; i < b.N; i++ {
				d, _ := traceRun(b, c, tc.lang, program, false)
				plain += d
				d, n := traceRun(b, c, tc.lang, program, true)
				traced += d
				hits += n
			}
			if hits != 10000*b.N {
				b.Fatalf("%s: %d hits in %d runs, want 10,000 each", tc.lang, hits, b.N)
			}
			extra := (traced - plain).Seconds()
			rate := float64(hits) / max(extra, 1e-3)
			b.ReportMetric(rate, "hits/s")
			b.ReportMetric(traced.Seconds()/plain.Seconds(), "traced/plain")
			fmt.Printf("trace %-10s plain %v, traced %v (traced/plain %.1f), %.0f hits/s\n", tc.lang,
				plain/time.Duration(b.N), traced/time.Duration(b.N), traced.Seconds()/plain.Seconds(), rate)
		})
	}
}
