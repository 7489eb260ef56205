package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/adapters/nodedap"
	"github.com/dbg-dev/dbg/dap"
)

// nodePhases are the times of one scenario on testdata/javascript/loop.js:
// launch to the first breakpoint stop, one step over, one evaluate.
type nodePhases struct{ firstStop, step, eval time.Duration }

func (p *nodePhases) add(q nodePhases) {
	p.firstStop += q.firstStop
	p.step += q.step
	p.eval += q.eval
}

func (p nodePhases) report(b *testing.B, n int) {
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(n) }
	b.ReportMetric(ms(p.firstStop), "first-stop-ms")
	b.ReportMetric(ms(p.step), "step-ms")
	b.ReportMetric(ms(p.eval), "eval-ms")
}

// BenchmarkNodeVsRawCDP runs the same scenario (breakpoint in the loop,
// first stop, step over, evaluate "total + i") through dbg's built-in Node
// adapter, driven over DAP as the session manager drives it, and through a
// bare CDP client talking to node's inspector directly, and prints the
// ratios.
func BenchmarkNodeVsRawCDP(b *testing.B) {
	if _, err := exec.LookPath("node"); err != nil {
		b.Skip("node is not installed (scripts/deps/node.sh installs it)")
	}
	script, err := filepath.Abs("../testdata/javascript/loop.js")
	if err != nil {
		b.Fatal(err)
	}
	line := markerLine(b, script, "loop")
	var dbgT, rawT nodePhases
	var dbgN, rawN int
	b.Run("dbg", func(b *testing.B) {
		var t nodePhases
		for i := 0; i < b.N; i++ {
			t.add(runDbgNode(b, script, line))
		}
		t.report(b, b.N)
		dbgT, dbgN = t, b.N
	})
	b.Run("cdp", func(b *testing.B) {
		var t nodePhases
		for i := 0; i < b.N; i++ {
			t.add(runRawCDP(b, script, line))
		}
		t.report(b, b.N)
		rawT, rawN = t, b.N
	})
	if dbgN > 0 && rawN > 0 {
		avg := func(d time.Duration, n int) time.Duration { return d / time.Duration(n) }
		ratio := func(a, b time.Duration) float64 { return float64(a) / float64(b) }
		d1, d2, d3 := avg(dbgT.firstStop, dbgN), avg(dbgT.step, dbgN), avg(dbgT.eval, dbgN)
		r1, r2, r3 := avg(rawT.firstStop, rawN), avg(rawT.step, rawN), avg(rawT.eval, rawN)
		fmt.Printf("node first stop: dbg %v, raw CDP %v, dbg/cdp %.2f\n", d1, r1, ratio(d1, r1))
		fmt.Printf("node step:       dbg %v, raw CDP %v, dbg/cdp %.2f\n", d2, r2, ratio(d2, r2))
		fmt.Printf("node evaluate:   dbg %v, raw CDP %v, dbg/cdp %.2f\n", d3, r3, ratio(d3, r3))
	}
}

// runDbgNode drives the in-process adapter as the session manager does.
func runDbgNode(b *testing.B, script string, line int) nodePhases {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	a := adapters.Node{Getenv: func(string) string { return "" }, Roots: []string{}}
	target := adapters.Target{Mode: adapters.Launch, Program: script}
	var p nodePhases
	start := time.Now()
	ep, err := a.Start(ctx, target)
	if err != nil {
		b.Fatal(err)
	}
	defer ep.Close(context.Background())
	events := make(chan *dap.Message, 64)
	conn := dap.NewConn(ep.Conn, dap.Options{OnEvent: func(m *dap.Message) {
		if m.Event == "stopped" || m.Event == "initialized" {
			events <- m
		}
	}})
	wait := func(name string) {
		for {
			select {
			case m := <-events:
				if m.Event == name {
					return
				}
			case <-ctx.Done():
				b.Fatalf("no %s event", name)
			}
		}
	}
	must := func(_ *dap.Message, err error) {
		if err != nil {
			b.Fatal(err)
		}
	}
	must(conn.Request(ctx, "initialize", map[string]any{"adapterID": "javascript", "linesStartAt1": true, "columnsStartAt1": true}))
	args, err := a.LaunchArgs(ctx, target)
	if err != nil {
		b.Fatal(err)
	}
	call, err := conn.Start(ctx, "launch", args)
	if err != nil {
		b.Fatal(err)
	}
	wait("initialized")
	must(conn.Request(ctx, "setBreakpoints", map[string]any{"source": map[string]any{"path": script}, "breakpoints": []map[string]any{{"line": line}}}))
	must(conn.Request(ctx, "configurationDone", nil))
	must(call.Wait(ctx, 0))
	wait("stopped")
	p.firstStop = time.Since(start)

	start = time.Now()
	must(conn.Request(ctx, "next", map[string]any{"threadId": 1}))
	wait("stopped")
	p.step = time.Since(start)

	resp, err := conn.Request(ctx, "stackTrace", map[string]any{"threadId": 1, "levels": 1})
	if err != nil {
		b.Fatal(err)
	}
	var st struct{ StackFrames []struct{ ID int } }
	_ = json.Unmarshal(resp.Body, &st)
	start = time.Now()
	must(conn.Request(ctx, "evaluate", map[string]any{"expression": "total + i", "frameId": st.StackFrames[0].ID, "context": "repl"}))
	p.eval = time.Since(start)
	_, _ = conn.Request(ctx, "disconnect", map[string]any{"terminateDebuggee": true})
	return p
}

var wsURLRE = regexp.MustCompile(`Debugger listening on (ws://\S+)`)

// runRawCDP does the same with nothing but node's inspector and a CDP
// client.
func runRawCDP(b *testing.B, script string, line int) nodePhases {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var p nodePhases
	start := time.Now()
	cmd := exec.Command("node", "--inspect-brk=127.0.0.1:0", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	}()
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := wsURLRE.FindStringSubmatch(sc.Text()); m != nil {
				urls <- m[1]
			}
		}
	}()
	var wsURL string
	select {
	case wsURL = <-urls:
	case <-ctx.Done():
		b.Fatal("node's inspector did not start")
	}
	paused := make(chan json.RawMessage, 16)
	c, err := nodedap.Dial(ctx, wsURL, func(m *nodedap.Message) {
		if m.Method == "Debugger.paused" {
			paused <- m.Params
		}
	})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	call := func(method string, params, result any) {
		if err := c.Call(ctx, method, params, result); err != nil {
			b.Fatal(err)
		}
	}
	type frames struct {
		CallFrames []struct {
			CallFrameID string `json:"callFrameId"`
		} `json:"callFrames"`
	}
	next := func() frames {
		select {
		case raw := <-paused:
			var f frames
			_ = json.Unmarshal(raw, &f)
			return f
		case <-ctx.Done():
			b.Fatal("no Debugger.paused")
			return frames{}
		}
	}
	call("Runtime.enable", nil, nil)
	call("Debugger.enable", nil, nil)
	call("Debugger.setBreakpointByUrl", map[string]any{"url": "file://" + script, "lineNumber": line - 1}, nil)
	call("Runtime.runIfWaitingForDebugger", nil, nil)
	next() // break on start
	call("Debugger.resume", nil, nil)
	next()
	p.firstStop = time.Since(start)

	start = time.Now()
	call("Debugger.stepOver", nil, nil)
	f := next()
	p.step = time.Since(start)

	start = time.Now()
	var res struct {
		Result struct{ Description string } `json:"result"`
	}
	call("Debugger.evaluateOnCallFrame", map[string]any{"callFrameId": f.CallFrames[0].CallFrameID, "expression": "total + i"}, &res)
	p.eval = time.Since(start)
	if strings.TrimSpace(res.Result.Description) == "" {
		b.Fatal("evaluate answered nothing")
	}
	return p
}
