package bench

// The cost of changed in stop answers: step_over through dbg's MCP tools
// with changed (the default) and with changed:false, alternating on the
// same session, as medians of single steps (a shared machine's hiccups
// move means, not medians):
//
//	go test -run XXX -bench StepChanged -benchtime 3x ./bench/

import (
	"context"
	"testing"
	"time"
)

func BenchmarkStepChanged(b *testing.B) {
	for _, sc := range spineCases(b) {
		b.Run(sc.lang, func(b *testing.B) {
			if !sc.adapter.Find(context.Background()).Found {
				b.Skipf("%s adapter not installed", sc.lang)
			}
			line := nativeLine(b, sc.program, sc.mark)
			c := startMCP(b)
			defer c.cs.Close()
			var on, off []time.Duration
			for i := 0; i < b.N+1; i++ { // the first run warms up
				id := c.call("create_debug_session", map[string]any{"language": sc.lang})["sessionId"].(string)
				c.call("set_breakpoint", map[string]any{"sessionId": id, "file": sc.program, "line": line})
				if st := c.call("start_debugging", map[string]any{"sessionId": id, "scriptPath": sc.program, "waitMs": 60000}); st["state"] != "paused" {
					b.Fatalf("not stopped: %v", st)
				}
				for j := 0; j < 8; j++ { // the loop fixtures step 8 times without leaving the loop
					args := map[string]any{"sessionId": id}
					if j%2 == 1 {
						args["changed"] = false
					}
					t0 := time.Now()
					r := c.call("step_over", args)
					d := time.Since(t0)
					if r["state"] != "paused" {
						b.Fatalf("step %d: %v", j, r)
					}
					if _, ok := r["changed"]; ok == (j%2 == 1) {
						b.Fatalf("step %d answered changed %v", j, r["changed"])
					}
					if i == 0 {
						continue
					}
					if j%2 == 1 {
						off = append(off, d)
					} else {
						on = append(on, d)
					}
				}
				c.call("close_debug_session", map[string]any{"sessionId": id})
			}
			with, without := median(on), median(off) // milliseconds (jvm_bench_test.go)
			b.ReportMetric(with, "step-changed-ms")
			b.ReportMetric(without, "step-nochanged-ms")
			b.ReportMetric(with-without, "changed-cost-ms")
			b.ReportMetric(with/without, "with/without")
		})
	}
}
