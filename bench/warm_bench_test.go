package bench

// The warm adapter pool's gain on first stops: two `dbg mcp` servers, one
// with the pool (the default) and one without (DBG_WARM_ADAPTERS=0),
// alternating, each running create → breakpoint → start_debugging to the
// stop → close, one session at a time:
//
//	go test -run XXX -bench WarmFirstStop -benchtime 10x ./bench/
//
// Reported: the median first stop (ms) with and without the pool and
// their ratio. The first session of each server is not counted: the pool
// starts an adapter only after its language was used.

import (
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

func startMCPEnv(b *testing.B, env ...string) *mcpClient { return startMCPArgs(b, nil, env...) }

// firstStop runs one session of lang to the breakpoint at line and closes
// it; it returns the time from create to the stop.
func firstStop(c *mcpClient, lang, program string, line int) time.Duration {
	start := time.Now()
	id := c.call("create_debug_session", map[string]any{"language": lang})["sessionId"].(string)
	c.call("set_breakpoint", map[string]any{"sessionId": id, "file": program, "line": line})
	st := c.call("start_debugging", map[string]any{"sessionId": id, "scriptPath": program, "waitMs": 60000})
	d := time.Since(start)
	if st["state"] != "paused" {
		c.b.Fatalf("%s: not stopped: %v", lang, st)
	}
	c.call("close_debug_session", map[string]any{"sessionId": id})
	return d
}

func BenchmarkWarmFirstStop(b *testing.B) {
	root := nativeRoot(b)
	cases := []struct{ lang, tool, program string }{
		{"python", "python3", "testdata/python/loop.py"},
		{"go", "dlv", "testdata/go/loop/main.go"},
		{"c", "lldb-vscode-16", "testdata/c/loop.c"},
	}
	for _, tc := range cases {
		b.Run(tc.lang, func(b *testing.B) {
			if _, err := exec.LookPath(tc.tool); err != nil {
				b.Skipf("%s not installed", tc.tool)
			}
			program := filepath.Join(root, tc.program)
			line := nativeLine(b, program, "BREAK")
			warm := startMCPEnv(b, "DBG_WARM_ADAPTERS=1")
			cold := startMCPEnv(b, "DBG_WARM_ADAPTERS=0")
			firstStop(warm, tc.lang, program, line) // the language's first use
			firstStop(cold, tc.lang, program, line)
			var w, c []time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				time.Sleep(300 * time.Millisecond) // the idle adapter is up
				w = append(w, firstStop(warm, tc.lang, program, line))
				c = append(c, firstStop(cold, tc.lang, program, line))
			}
			b.StopTimer()
			mw, mc := median(w), median(c)
			b.ReportMetric(mw, "warm-first-ms")
			b.ReportMetric(mc, "cold-first-ms")
			b.ReportMetric(mw/mc, "warm/cold")
		})
	}
}
