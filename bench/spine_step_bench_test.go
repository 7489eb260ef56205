package bench

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/dap"
)

// BenchmarkSpineStep measures one step_over three ways at once: through
// the dbg under test, through the dbg DBG_BENCH_BASE names (when set),
// and by a raw DAP client driving the same adapter, each on its own run of
// an endless loop paused at the same line. The three take their steps in
// turn (each turn another first), the same step each, so that all see the
// same load; an overhead is
// the median of the differences of matched steps (the same line, the same
// moment), in milliseconds. Steps alternate between changed (the raw
// client reads the stack, the top frame's scopes and locals) and
// changed:false (the stack alone). Each dbg's resident memory is read
// before the steps and after them (rss-before-MB, rss-after-MB).
//
//	go test -run XXX -bench SpineStep -benchtime 40x ./bench/
//
// b.N is the number of steps of each kind.
func BenchmarkSpineStep(b *testing.B) {
	root := nativeRoot(b)
	loops := map[string]struct {
		program, mark string
		args          []string
	}{
		"go":         {"testdata/go/loadloop/main.go", "// BREAK", nil},
		"python":     {"testdata/python/loadloop.py", "# BREAK", nil},
		"javascript": {"testdata/javascript/loadloop.js", "BP:loop", nil},
		"c":          {"testdata/c/loop.c", "BREAK", []string{"forever"}},
	}
	for _, sc := range spineCases(b) {
		lp, ok := loops[sc.lang]
		if !ok {
			continue
		}
		b.Run(sc.lang, func(b *testing.B) {
			if !sc.adapter.Find(context.Background()).Found {
				b.Skipf("%s adapter not installed", sc.lang)
			}
			sc.program = filepath.Join(root, lp.program)
			line := nativeLine(b, sc.program, lp.mark)
			steppers := []stepper{newMCPStepper(b, dbgBinary(b), sc, line, lp.args)}
			if base := os.Getenv(baseBinaryEnv); base != "" {
				steppers = append(steppers, newMCPStepper(b, base, sc, line, lp.args))
			}
			raw := newRawStepper(b, sc, line, lp.args)
			steppers = append(steppers, raw)
			defer func() {
				for _, s := range steppers {
					s.close()
				}
			}()
			took := make([][2][]time.Duration, len(steppers)) // by stepper: changed, changed:false
			before := make([]float64, len(steppers)-1)        // each dbg's resident memory, MB
			for j := range before {
				before[j] = steppers[j].(*mcpStepper).residentMB(b)
			}
			b.ResetTimer()
			for i := 0; i < 2*b.N; i++ {
				kind := i % 2 // 0: changed
				// Each turn another one goes first.
				for k := range steppers {
					j := (i/2 + k) % len(steppers)
					took[j][kind] = append(took[j][kind], steppers[j].step(kind == 0))
				}
			}
			b.StopTimer()
			r := len(steppers) - 1
			report := func(prefix string, j int) {
				b.ReportMetric(ms(medianOf(took[j][0])), prefix+"step-ms")
				b.ReportMetric(ms(medianOf(took[j][1])), prefix+"step-nochanged-ms")
				b.ReportMetric(ms(medianOf(differences(took[j][0], took[r][0]))), prefix+"step-overhead-ms")
				b.ReportMetric(ms(medianOf(differences(took[j][1], took[r][1]))), prefix+"step-nochanged-overhead-ms")
				b.ReportMetric(before[j], prefix+"rss-before-MB")
				b.ReportMetric(steppers[j].(*mcpStepper).residentMB(b), prefix+"rss-after-MB")
			}
			b.ReportMetric(ms(medianOf(took[r][0])), "raw-step-ms")
			b.ReportMetric(ms(medianOf(took[r][1])), "raw-step-nochanged-ms")
			report("dbg-", 0)
			if len(steppers) == 3 {
				report("base-", 1)
			}
		})
	}
}

// differences are a[i]-b[i].
func differences(a, b []time.Duration) []time.Duration {
	out := make([]time.Duration, min(len(a), len(b)))
	for i := range out {
		out[i] = a[i] - b[i]
	}
	return out
}

// stepper takes one step of a paused program and says how long it took.
type stepper interface {
	step(changed bool) time.Duration
	close()
}

// mcpStepper steps through a dbg's MCP tools.
type mcpStepper struct {
	c  *mcpClient
	id string
}

func newMCPStepper(b *testing.B, bin string, sc spineCase, line int, args []string) *mcpStepper {
	c := startMCPWith(b, bin)
	id := c.call("create_debug_session", map[string]any{"language": sc.lang})["sessionId"].(string)
	c.call("set_breakpoint", map[string]any{"sessionId": id, "file": sc.program, "line": line})
	start := map[string]any{"sessionId": id, "scriptPath": sc.program, "waitMs": 60000}
	if args != nil {
		start["args"] = args
	}
	if st := c.call("start_debugging", start); st["state"] != "paused" {
		c.cs.Close()
		b.Fatalf("%s: not stopped: %v", bin, st)
	}
	return &mcpStepper{c: c, id: id}
}

// residentMB is the dbg server's resident memory, in MB.
func (s *mcpStepper) residentMB(b *testing.B) float64 {
	rss, _, _ := residentKB(b, s.c.cmd.Process.Pid)
	return rss / 1024
}

func (s *mcpStepper) step(changed bool) time.Duration {
	args := map[string]any{"sessionId": s.id}
	if !changed {
		args["changed"] = false
	}
	r, d := s.c.timedCall("step_over", args)
	if r["state"] != "paused" {
		s.c.b.Fatalf("step: %v", r)
	}
	return d
}

func (s *mcpStepper) close() {
	s.c.call("close_debug_session", map[string]any{"sessionId": s.id})
	_ = s.c.cs.Close()
}

// rawStepper steps with the requests a minimal DAP client sends, the
// same dbg's answer needs.
type rawStepper struct {
	b      *testing.B
	c      *dap.Conn
	ev     chan *dap.Message
	thread int
	stop   func()
}

func newRawStepper(b *testing.B, sc spineCase, line int, args []string) *rawStepper {
	ctx := context.Background()
	c, ev, stop := sc.rawStart(b, sc.program)
	s := &rawStepper{b: b, c: c, ev: ev, stop: stop}
	s.must(c.Request(ctx, "initialize", map[string]any{"adapterID": sc.lang, "linesStartAt1": true, "columnsStartAt1": true, "pathFormat": "path"}))
	la, err := sc.adapter.LaunchArgs(ctx, adapters.Target{Mode: adapters.Launch, Program: sc.program, Args: args})
	if err != nil {
		b.Fatal(err)
	}
	call, err := c.Start(ctx, "launch", la)
	if err != nil {
		b.Fatal(err)
	}
	waitEvent(b, ev, "initialized")
	s.must(c.Request(ctx, "setBreakpoints", map[string]any{"source": map[string]any{"path": sc.program}, "breakpoints": []map[string]any{{"line": line}}}))
	s.must(c.Request(ctx, "configurationDone", nil))
	s.must(call.Wait(ctx, time.Minute))
	var sb struct{ ThreadId int }
	_ = waitEvent(b, ev, "stopped").DecodeBody(&sb)
	s.thread = sb.ThreadId
	return s
}

func (s *rawStepper) must(_ *dap.Message, err error) {
	if err != nil {
		s.b.Fatal(err)
	}
}

func (s *rawStepper) step(changed bool) time.Duration {
	ctx := context.Background()
	t0 := time.Now()
	s.must(s.c.Request(ctx, "next", map[string]any{"threadId": s.thread}))
	waitEvent(s.b, s.ev, "stopped")
	resp, err := s.c.Request(ctx, "stackTrace", map[string]any{"threadId": s.thread, "levels": 20})
	s.must(resp, err)
	var frames rawFrames
	_ = resp.DecodeBody(&frames)
	if changed && len(frames.StackFrames) > 0 {
		resp, err = s.c.Request(ctx, "scopes", map[string]any{"frameId": frames.StackFrames[0].Id})
		s.must(resp, err)
		var sc rawFrames
		_ = resp.DecodeBody(&sc)
		if len(sc.Scopes) > 0 {
			s.must(s.c.Request(ctx, "variables", map[string]any{"variablesReference": sc.Scopes[0].VariablesReference}))
		}
	}
	return time.Since(t0)
}

func (s *rawStepper) close() {
	_, _ = s.c.Request(context.Background(), "disconnect", map[string]any{"terminateDebuggee": true})
	s.stop()
}
