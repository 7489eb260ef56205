package bench

// Benchmarks of the spine, through the MCP tools of a real `dbg mcp`
// process (go-sdk client over stdio), side by side with a raw DAP client
// driving the same adapter directly with the same launch arguments:
//
//	go test -run XXX -bench 'Spine|MCPStartup|ServerMemory' -benchtime 5x ./bench/
//
// Reported metrics (milliseconds unless named otherwise): first stop after
// create, one step_over round trip and one evaluate round trip, for dbg and
// for the raw adapter, their differences and ratios; and dbg's step with
// changed:false, so that the cost of reading the locals for changed shows
// (dbg's steps alternate between the two, so both see the same load). The
// raw client's step reads what dbg's answer holds: the stack, and for
// changed the top frame's scopes and locals (raw-step-ms), or the stack
// alone (raw-step-nochanged-ms); step-overhead-ms is dbg's step less the
// raw one, each with changed. Each figure is the median of its calls in
// the run (a shared machine's stalls move a mean by milliseconds). Go
// (delve), Python (debugpy), JavaScript (dbg's built-in Node adapter,
// served raw by `dbg dap`) and C (lldb-dap).
//
// With DBG_BENCH_BASE naming another dbg binary (an older build), every
// iteration also runs that one, between the two others, and its figures
// come as base-*: before and after, in one run, under the same load.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/dap"
	"github.com/dbg-dev/dbg/proc"
)

var (
	buildOnce sync.Once
	dbgPath   string
	buildErr  error
)

// baseBinaryEnv names a second dbg binary BenchmarkSpine runs beside
// the one it builds.
const baseBinaryEnv = "DBG_BENCH_BASE"

// dbgBinary builds cmd/dbg once per benchmark run.
func dbgBinary(b *testing.B) string {
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "dbg-bench-")
		if err != nil {
			buildErr = err
			return
		}
		dbgPath = filepath.Join(dir, "dbg")
		cmd := exec.Command("go", "build", "-o", dbgPath, "./cmd/dbg")
		cmd.Dir = nativeRoot(b)
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("%v: %s", err, out)
		}
	})
	if buildErr != nil {
		b.Fatal(buildErr)
	}
	return dbgPath
}

type mcpClient struct {
	b   *testing.B
	cs  *mcp.ClientSession
	cmd *exec.Cmd
}

func startMCP(b *testing.B) *mcpClient { return startMCPWith(b, dbgBinary(b)) }

// startMCPWith serves the MCP tools of the dbg binary bin.
func startMCPWith(b *testing.B, bin string) *mcpClient {
	cmd := exec.Command(bin, "mcp")
	cmd.Env = append(os.Environ(), "DBG_STATE_DIR="+b.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	return &mcpClient{b: b, cs: cs, cmd: cmd}
}

func (c *mcpClient) call(name string, args map[string]any) map[string]any {
	data, _ := c.timedCall(name, args)
	return data
}

// timedCall calls a tool and returns its data and how long the call took
// until the client had its answer (the benchmark's own decoding of the
// envelope after that is not counted).
func (c *mcpClient) timedCall(name string, args map[string]any) (map[string]any, time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	t0 := time.Now()
	res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	took := time.Since(t0)
	if err != nil {
		c.b.Fatalf("%s: %v", name, err)
	}
	var env struct {
		Success bool
		Data    map[string]any
		Error   map[string]any
	}
	raw, _ := json.Marshal(res.StructuredContent)
	_ = json.Unmarshal(raw, &env)
	if !env.Success {
		c.b.Fatalf("%s failed: %v", name, env.Error)
	}
	return env.Data, took
}

// spineCase is one language of the spine.
type spineCase struct {
	lang    string
	adapter adapters.Adapter
	program string
	mark    string // the text of the breakpoint's line
	expr    string
	// rawStart starts the adapter as a raw client would.
	rawStart func(b *testing.B, program string) (*dap.Conn, chan *dap.Message, func())
}

func spineCases(b *testing.B) []spineCase {
	root := nativeRoot(b)
	js, _ := adapters.Default().Lookup("javascript")
	return []spineCase{
		{lang: "go", adapter: adapters.Go{}, program: filepath.Join(root, "testdata/go/loop/main.go"), mark: "BREAK", expr: "total + 10", rawStart: rawDelve},
		{lang: "python", adapter: adapters.Python{}, program: filepath.Join(root, "testdata/python/loop.py"), mark: "BREAK", expr: "total + 10", rawStart: rawDebugpy},
		{lang: "javascript", adapter: js, program: filepath.Join(root, "testdata/javascript/loop.js"), mark: "BP:loop", expr: "total + 10", rawStart: rawBuiltin(js)},
		{lang: "c", adapter: adapters.NewC(), program: filepath.Join(root, "testdata/c/loop.c"), mark: "BREAK", expr: "total + 10", rawStart: rawLLDB},
	}
}

// rawBuiltin serves a built-in adapter as a plain DAP server (`dbg dap
// NAME` over stdio), for a raw client.
func rawBuiltin(a adapters.Adapter) func(b *testing.B, program string) (*dap.Conn, chan *dap.Message, func()) {
	return func(b *testing.B, program string) (*dap.Conn, chan *dap.Message, func()) {
		bi := a.Traits().Builtin
		if bi == nil {
			b.Fatal("javascript has no built-in adapter")
		}
		p, err := dap.StartProcess(exec.Command(dbgBinary(b), "dap", bi.Name), dap.ProcessOptions{Stdio: true})
		if err != nil {
			b.Fatal(err)
		}
		c, ev := rawConn(p)
		return c, ev, func() { _ = c.Close(); p.Kill() }
	}
}

// rawLLDB starts the lldb-dap dbg finds for C.
func rawLLDB(b *testing.B, program string) (*dap.Conn, chan *dap.Message, func()) {
	p, err := dap.StartProcess(exec.Command(adapters.NewC().Find(context.Background()).Path), dap.ProcessOptions{Stdio: true})
	if err != nil {
		b.Fatal(err)
	}
	c, ev := rawConn(p)
	return c, ev, func() { _ = c.Close(); p.Kill() }
}

func rawConn(rw interface {
	Read([]byte) (int, error)
	Write([]byte) (int, error)
	Close() error
}) (*dap.Conn, chan *dap.Message) {
	events := make(chan *dap.Message, 256)
	c := dap.NewConn(rw, dap.Options{OnEvent: func(m *dap.Message) {
		select {
		case events <- m:
		default:
		}
	}})
	return c, events
}

func rawDelve(b *testing.B, program string) (*dap.Conn, chan *dap.Message, func()) {
	dlv, err := exec.LookPath("dlv")
	if err != nil {
		dlv = filepath.Join(os.Getenv("HOME"), "go", "bin", "dlv")
	}
	ln, err := dap.Listen("127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(dlv, "dap", "--client-addr="+ln.Addr())
	cmd.Dir = filepath.Dir(program)
	proc, err := dap.StartProcess(cmd, dap.ProcessOptions{})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	conn, err := ln.Accept(ctx)
	if err != nil {
		b.Fatal(err)
	}
	c, ev := rawConn(conn)
	return c, ev, func() { _ = c.Close(); proc.Kill() }
}

func rawDebugpy(b *testing.B, program string) (*dap.Conn, chan *dap.Message, func()) {
	proc, err := dap.StartProcess(exec.Command("python3", "-m", "debugpy.adapter"), dap.ProcessOptions{Stdio: true})
	if err != nil {
		b.Fatal(err)
	}
	c, ev := rawConn(proc)
	return c, ev, func() { _ = c.Close(); proc.Kill() }
}

func waitEvent(b *testing.B, ev chan *dap.Message, name string) *dap.Message {
	t := time.NewTimer(60 * time.Second)
	defer t.Stop()
	for {
		select {
		case m := <-ev:
			if m.Event == name {
				return m
			}
		case <-t.C:
			b.Fatalf("no %s event", name)
		}
	}
}

// phases are the durations of one run's calls, each kind apart.
type phases struct{ first, step, stepOff, eval []time.Duration }

// add appends the calls of q.
func (p *phases) add(q phases) {
	p.first = append(p.first, q.first...)
	p.step = append(p.step, q.step...)
	p.stepOff = append(p.stepOff, q.stepOff...)
	p.eval = append(p.eval, q.eval...)
}

// medianOf is the median of ds (the mean of the two middle ones), 0 for
// none.
func medianOf(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// rawFrames is the part of a stackTrace, scopes or variables answer the
// raw client reads.
type rawFrames struct {
	StackFrames []struct{ Id int }
	Scopes      []struct{ VariablesReference int }
}

// rawRun does what a minimal DAP client does to stop at line, step and
// evaluate, with the same arguments dbg sends.
func rawRun(b *testing.B, sc spineCase, line, steps int) phases {
	ctx := context.Background()
	start := time.Now()
	c, ev, stop := sc.rawStart(b, sc.program)
	defer stop()
	must := func(_ *dap.Message, err error) {
		if err != nil {
			b.Fatal(err)
		}
	}
	must(c.Request(ctx, "initialize", map[string]any{"adapterID": sc.lang, "linesStartAt1": true, "columnsStartAt1": true, "pathFormat": "path"}))
	args, err := sc.adapter.LaunchArgs(ctx, adapters.Target{Mode: adapters.Launch, Program: sc.program})
	if err != nil {
		b.Fatal(err)
	}
	call, err := c.Start(ctx, "launch", args)
	if err != nil {
		b.Fatal(err)
	}
	waitEvent(b, ev, "initialized")
	must(c.Request(ctx, "setBreakpoints", map[string]any{"source": map[string]any{"path": sc.program}, "breakpoints": []map[string]any{{"line": line}}}))
	must(c.Request(ctx, "configurationDone", nil))
	must(call.Wait(ctx, time.Minute))
	stopped := waitEvent(b, ev, "stopped")
	var p phases
	p.first = append(p.first, time.Since(start))
	var sb struct{ ThreadId int }
	_ = stopped.DecodeBody(&sb)
	var frames rawFrames
	resp, err := c.Request(ctx, "stackTrace", map[string]any{"threadId": sb.ThreadId, "levels": 1})
	must(resp, err)
	_ = resp.DecodeBody(&frames)
	for i := 0; i < 2*steps; i++ {
		t0 := time.Now()
		must(c.Request(ctx, "next", map[string]any{"threadId": sb.ThreadId}))
		waitEvent(b, ev, "stopped")
		// dbg reads the new location as part of the answer; so does this
		// client, and with changed the top frame's locals.
		resp, err = c.Request(ctx, "stackTrace", map[string]any{"threadId": sb.ThreadId, "levels": 20})
		must(resp, err)
		_ = resp.DecodeBody(&frames)
		if i%2 == 0 && len(frames.StackFrames) > 0 {
			var sc rawFrames
			resp, err = c.Request(ctx, "scopes", map[string]any{"frameId": frames.StackFrames[0].Id})
			must(resp, err)
			_ = resp.DecodeBody(&sc)
			if len(sc.Scopes) > 0 {
				must(c.Request(ctx, "variables", map[string]any{"variablesReference": sc.Scopes[0].VariablesReference}))
			}
			p.step = append(p.step, time.Since(t0))
		} else {
			p.stepOff = append(p.stepOff, time.Since(t0))
		}
	}
	for i := 0; i < steps; i++ {
		t0 := time.Now()
		must(c.Request(ctx, "evaluate", map[string]any{"expression": sc.expr, "frameId": frames.StackFrames[0].Id, "context": "repl"}))
		p.eval = append(p.eval, time.Since(t0))
	}
	_, _ = c.Request(ctx, "disconnect", map[string]any{"terminateDebuggee": true})
	return p
}

// dbgRun does the same through dbg's MCP tools.
func dbgRun(b *testing.B, c *mcpClient, sc spineCase, line, steps int) phases {
	start := time.Now()
	s := c.call("create_debug_session", map[string]any{"language": sc.lang})
	id := s["sessionId"].(string)
	c.call("set_breakpoint", map[string]any{"sessionId": id, "file": sc.program, "line": line})
	st := c.call("start_debugging", map[string]any{"sessionId": id, "scriptPath": sc.program, "waitMs": 60000})
	if st["state"] != "paused" {
		b.Fatalf("not stopped: %v", st)
	}
	var p phases
	p.first = append(p.first, time.Since(start))
	for i := 0; i < 2*steps; i++ {
		args := map[string]any{"sessionId": id}
		if i%2 == 1 {
			args["changed"] = false
		}
		r, d := c.timedCall("step_over", args)
		if r["state"] != "paused" {
			b.Fatalf("step: %v", r)
		}
		if _, ok := r["changed"]; ok == (i%2 == 1) {
			b.Fatalf("step %d (changed:%v) answered changed %v", i, i%2 == 0, r["changed"])
		}
		if i%2 == 1 {
			p.stepOff = append(p.stepOff, d)
		} else {
			p.step = append(p.step, d)
		}
	}
	for i := 0; i < steps; i++ {
		_, d := c.timedCall("evaluate_expression", map[string]any{"sessionId": id, "expression": sc.expr})
		p.eval = append(p.eval, d)
	}
	c.call("close_debug_session", map[string]any{"sessionId": id})
	return p
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func BenchmarkSpine(b *testing.B) {
	for _, sc := range spineCases(b) {
		b.Run(sc.lang, func(b *testing.B) {
			if !sc.adapter.Find(context.Background()).Found {
				b.Skipf("%s adapter not installed", sc.lang)
			}
			line := nativeLine(b, sc.program, sc.mark)
			const steps = 4
			c := startMCP(b)
			defer c.cs.Close()
			var base *mcpClient
			if bin := os.Getenv(baseBinaryEnv); bin != "" {
				base = startMCPWith(b, bin)
				defer base.cs.Close()
				dbgRun(b, base, sc, line, 1)
			}
			// Warm both paths once (delve's build cache, Python's bytecode).
			dbgRun(b, c, sc, line, 1)
			rawRun(b, sc, line, 1)
			var d, r, o phases
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				// Interleave, so all see the same machine load.
				d.add(dbgRun(b, c, sc, line, steps))
				if base != nil {
					o.add(dbgRun(b, base, sc, line, steps))
				}
				r.add(rawRun(b, sc, line, steps))
			}
			df, rf := medianOf(d.first), medianOf(r.first)
			ds, rs, dso, rso := medianOf(d.step), medianOf(r.step), medianOf(d.stepOff), medianOf(r.stepOff)
			de, re := medianOf(d.eval), medianOf(r.eval)
			b.ReportMetric(ms(df), "dbg-first-stop-ms")
			b.ReportMetric(ms(rf), "raw-first-stop-ms")
			b.ReportMetric(ms(ds), "dbg-step-ms")
			b.ReportMetric(ms(rs), "raw-step-ms")
			b.ReportMetric(ms(de), "dbg-eval-ms")
			b.ReportMetric(ms(re), "raw-eval-ms")
			b.ReportMetric(ms(df-rf), "first-stop-overhead-ms")
			b.ReportMetric(ms(ds-rs), "step-overhead-ms")
			b.ReportMetric(ms(de-re), "eval-overhead-ms")
			b.ReportMetric(ms(dso), "dbg-step-nochanged-ms")
			b.ReportMetric(ms(rso), "raw-step-nochanged-ms")
			b.ReportMetric(ms(dso-rso), "step-nochanged-overhead-ms")
			b.ReportMetric(ms(ds-dso), "changed-cost-ms")
			b.ReportMetric(float64(ds)/float64(rs), "step-dbg/raw")
			b.ReportMetric(float64(dso)/float64(rs), "step-nochanged-dbg/raw")
			b.ReportMetric(float64(de)/float64(re), "eval-dbg/raw")
			if base != nil {
				bs, bso, be := medianOf(o.step), medianOf(o.stepOff), medianOf(o.eval)
				b.ReportMetric(ms(bs), "base-step-ms")
				b.ReportMetric(ms(bs-rs), "base-step-overhead-ms")
				b.ReportMetric(ms(bso-rso), "base-step-nochanged-overhead-ms")
				b.ReportMetric(ms(be-re), "base-eval-overhead-ms")
			}
		})
	}
}

// BenchmarkMCPStartup measures exec of `dbg mcp` to the initialize answer.
func BenchmarkMCPStartup(b *testing.B) {
	bin := dbgBinary(b)
	state := b.TempDir()
	var total time.Duration
	for i := 0; i < b.N; i++ {
		cmd := exec.Command(bin, "mcp")
		cmd.Env = append(os.Environ(), "DBG_STATE_DIR="+state)
		start := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		total += time.Since(start)
		cancel()
		if err != nil {
			b.Fatal(err)
		}
		_ = cs.Close()
	}
	b.ReportMetric(ms(total/time.Duration(b.N)), "exec-to-initialize-ms")
}

// BenchmarkServerMemory opens 10 paused sessions and reads the server's
// resident memory (adapter processes are separate and not counted).
func BenchmarkServerMemory(b *testing.B) {
	root := nativeRoot(b)
	for _, lang := range []string{"mock", "python"} {
		b.Run(lang, func(b *testing.B) {
			prog, line := filepath.Join(root, "testdata/mock/loop.mock"), 10
			if lang == "python" {
				if !(adapters.Python{}).Find(context.Background()).Found {
					b.Skip("debugpy not installed")
				}
				prog = filepath.Join(root, "testdata/python/loop.py")
				line = nativeLine(b, prog, "BREAK")
			}
			for i := 0; i < b.N; i++ {
				c := startMCP(b)
				for j := 0; j < 10; j++ {
					id := c.call("create_debug_session", map[string]any{"language": lang})["sessionId"].(string)
					c.call("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": line})
					if st := c.call("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog, "waitMs": 60000}); st["state"] != "paused" {
						b.Fatalf("session %d not paused: %v", j, st)
					}
					c.call("get_local_variables", map[string]any{"sessionId": id})
				}
				rss, _ := proc.RSS(c.cmd.Process.Pid)
				b.ReportMetric(float64(rss)/(1<<20), "server-rss-MB")
				_ = c.cs.Close()
			}
		})
	}
}

// BenchmarkPausedCPU pauses one session of each language at its
// breakpoint and reads the server's processor time over pausedWindow,
// once its watches have settled: a paused server should use none. With
// DBG_BENCH_BASE, that binary is measured too (base-paused-cpu-ms/s).
func BenchmarkPausedCPU(b *testing.B) {
	for _, sc := range spineCases(b) {
		b.Run(sc.lang, func(b *testing.B) {
			if !sc.adapter.Find(context.Background()).Found {
				b.Skipf("%s adapter not installed", sc.lang)
			}
			line := nativeLine(b, sc.program, sc.mark)
			base := os.Getenv(baseBinaryEnv)
			var used, baseUsed time.Duration
			for i := 0; i < b.N; i++ {
				used += pausedCPU(b, dbgBinary(b), sc, line)
				if base != "" {
					baseUsed += pausedCPU(b, base, sc, line)
				}
			}
			n := time.Duration(b.N)
			b.ReportMetric(ms(used/n)/pausedWindow.Seconds(), "paused-cpu-ms/s")
			if base != "" {
				b.ReportMetric(ms(baseUsed/n)/pausedWindow.Seconds(), "base-paused-cpu-ms/s")
			}
		})
	}
}

// How long a paused server is left before it is measured (its watches
// back off), and how long it is measured.
const pausedSettle, pausedWindow = 6 * time.Second, 10 * time.Second

// pausedCPU is the processor time the server bin used over pausedWindow
// with one session of sc paused at line.
func pausedCPU(b *testing.B, bin string, sc spineCase, line int) time.Duration {
	c := startMCPWith(b, bin)
	defer c.cs.Close()
	id := c.call("create_debug_session", map[string]any{"language": sc.lang})["sessionId"].(string)
	c.call("set_breakpoint", map[string]any{"sessionId": id, "file": sc.program, "line": line})
	if st := c.call("start_debugging", map[string]any{"sessionId": id, "scriptPath": sc.program, "waitMs": 60000}); st["state"] != "paused" {
		b.Fatalf("not paused: %v", st)
	}
	defer c.call("close_debug_session", map[string]any{"sessionId": id})
	time.Sleep(pausedSettle)
	pid := c.cmd.Process.Pid
	before, err := proc.ReadStat(pid)
	if err != nil {
		b.Fatal(err)
	}
	time.Sleep(pausedWindow)
	after, err := proc.ReadStat(pid)
	if err != nil {
		b.Fatal(err)
	}
	return after.CPU - before.CPU
}
