package bench

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/dap"
)

// javaPhases are the times of one debugging scenario on Loop.java: launch
// to the first breakpoint stop, one step over, one evaluate.
type javaPhases struct{ firstStop, step, eval time.Duration }

func (p *javaPhases) add(q javaPhases) {
	p.firstStop += q.firstStop
	p.step += q.step
	p.eval += q.eval
}

func (p javaPhases) report(b *testing.B, n int) {
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(n) }
	b.ReportMetric(ms(p.firstStop), "first-stop-ms")
	b.ReportMetric(ms(p.step), "step-ms")
	b.ReportMetric(ms(p.eval), "eval-ms")
}

// BenchmarkJavaVsJdb runs the same scenario (breakpoint in Loop.main,
// first stop, step over, evaluate "sum + i") through dbg's built-in Java
// adapter and through jdb driven over a pipe, and prints the ratios.
func BenchmarkJavaVsJdb(b *testing.B) {
	for _, tool := range []string{"java", "javac", "jdb"} {
		if _, err := exec.LookPath(tool); err != nil {
			b.Skipf("%s not installed (scripts/deps/java.sh installs it)", tool)
		}
	}
	src, err := filepath.Abs("../testdata/java/Loop.java")
	if err != nil {
		b.Fatal(err)
	}
	cp := b.TempDir()
	if out, err := exec.Command("javac", "-g", "-d", cp, src).CombinedOutput(); err != nil {
		b.Fatalf("javac: %v\n%s", err, out)
	}
	line := markerLine(b, src, "loop")
	var dbgT, jdbT javaPhases
	var dbgN, jdbN int
	b.Run("dbg", func(b *testing.B) {
		var t javaPhases
		for i := 0; i < b.N; i++ {
			t.add(runDbgJava(b, src, cp, line))
		}
		t.report(b, b.N)
		dbgT, dbgN = t, b.N
	})
	b.Run("jdb", func(b *testing.B) {
		var t javaPhases
		for i := 0; i < b.N; i++ {
			t.add(runJdb(b, cp, line))
		}
		t.report(b, b.N)
		jdbT, jdbN = t, b.N
	})
	if dbgN > 0 && jdbN > 0 {
		avg := func(d time.Duration, n int) time.Duration { return d / time.Duration(n) }
		ratio := func(a, b time.Duration) float64 { return float64(a) / float64(b) }
		d1, d2, d3 := avg(dbgT.firstStop, dbgN), avg(dbgT.step, dbgN), avg(dbgT.eval, dbgN)
		j1, j2, j3 := avg(jdbT.firstStop, jdbN), avg(jdbT.step, jdbN), avg(jdbT.eval, jdbN)
		fmt.Printf("java first stop: dbg %v, jdb %v, dbg/jdb %.2f\n", d1, j1, ratio(d1, j1))
		fmt.Printf("java step:       dbg %v, jdb %v, dbg/jdb %.2f\n", d2, j2, ratio(d2, j2))
		fmt.Printf("java evaluate:   dbg %v, jdb %v, dbg/jdb %.2f\n", d3, j3, ratio(d3, j3))
	}
}

func markerLine(b *testing.B, path, marker string) int {
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	for i, l := range strings.Split(string(data), "\n") {
		if strings.HasSuffix(strings.TrimSpace(l), "// BP:"+marker) {
			return i + 1
		}
	}
	b.Fatalf("no marker %s", marker)
	return 0
}

// runDbgJava drives the in-process adapter as the session manager does.
func runDbgJava(b *testing.B, src, cp string, line int) javaPhases {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	target := adapters.Target{Mode: adapters.Launch, Program: "Loop", Extra: map[string]any{"classpath": cp}}
	var p javaPhases
	start := time.Now()
	args, err := adapters.Java{}.LaunchArgs(ctx, target)
	if err != nil {
		b.Fatal(err)
	}
	ep, err := adapters.Java{}.Start(ctx, target)
	if err != nil {
		b.Fatal(err)
	}
	defer ep.Close(context.Background())
	events := make(chan *dap.Message, 1000)
	conn := dap.NewConn(ep.Conn, dap.Options{OnEvent: func(m *dap.Message) { events <- m }})
	defer conn.Close()
	wait := func(name string) *dap.Message {
		for {
			select {
			case m := <-events:
				if m.Event == name {
					return m
				}
			case <-ctx.Done():
				b.Fatalf("no %s event", name)
			}
		}
	}
	req := func(cmd string, a any) *dap.Message {
		m, err := conn.Request(ctx, cmd, a)
		if err != nil {
			b.Fatalf("%s: %v", cmd, err)
		}
		return m
	}
	req("initialize", map[string]any{"clientID": "dbg", "adapterID": "java", "linesStartAt1": true})
	launch, err := conn.Start(ctx, "launch", args)
	if err != nil {
		b.Fatal(err)
	}
	wait("initialized")
	req("setBreakpoints", map[string]any{"source": map[string]any{"path": src}, "breakpoints": []any{map[string]any{"line": line}}})
	req("configurationDone", nil)
	if _, err := launch.Wait(ctx, 0); err != nil {
		b.Fatal(err)
	}
	var st struct {
		ThreadID int `json:"threadId"`
	}
	_ = wait("stopped").DecodeBody(&st)
	p.firstStop = time.Since(start)

	start = time.Now()
	req("next", map[string]any{"threadId": st.ThreadID})
	wait("stopped")
	p.step = time.Since(start)

	start = time.Now()
	req("evaluate", map[string]any{"expression": "sum + i", "context": "repl"})
	p.eval = time.Since(start)
	req("disconnect", map[string]any{"terminateDebuggee": true})
	return p
}

// jdbSession is jdb with its stdin and a reader of its output.
type jdbSession struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	mu  sync.Mutex
	out strings.Builder
	got chan struct{}
}

func (j *jdbSession) waitFor(b *testing.B, from int, s string) int {
	deadline := time.NewTimer(time.Minute)
	defer deadline.Stop()
	for {
		j.mu.Lock()
		text := j.out.String()
		j.mu.Unlock()
		if i := strings.Index(text[from:], s); i >= 0 {
			return from + i + len(s)
		}
		select {
		case <-j.got:
		case <-deadline.C:
			b.Fatalf("jdb never printed %q; output:\n%s", s, text)
		}
	}
}

// runJdb drives jdb through a pipe on the same breakpoint.
func runJdb(b *testing.B, cp string, line int) javaPhases {
	var p javaPhases
	start := time.Now()
	cmd := exec.Command("jdb", "-classpath", cp, "Loop")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	j := &jdbSession{cmd: cmd, in: in, got: make(chan struct{}, 1)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		r := bufio.NewReader(out)
		buf := make([]byte, 4096)
		for {
			n, err := r.Read(buf)
			j.mu.Lock()
			j.out.Write(buf[:n])
			j.mu.Unlock()
			select {
			case j.got <- struct{}{}:
			default:
			}
			if err != nil {
				return
			}
		}
	}()
	defer func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
		_ = cmd.Wait()
	}()
	send := func(s string) {
		if _, err := io.WriteString(in, s+"\n"); err != nil {
			b.Fatalf("jdb stdin: %v", err)
		}
	}
	pos := j.waitFor(b, 0, "> ")
	send(fmt.Sprintf("stop at Loop:%d", line))
	pos = j.waitFor(b, pos, "> ")
	send("run")
	pos = j.waitFor(b, pos, "Breakpoint hit:")
	pos = j.waitFor(b, pos, "main[1] ")
	p.firstStop = time.Since(start)

	start = time.Now()
	send("next")
	pos = j.waitFor(b, pos, "Step completed:")
	pos = j.waitFor(b, pos, "main[1] ")
	p.step = time.Since(start)

	start = time.Now()
	send("print sum + i")
	pos = j.waitFor(b, pos, "sum + i = ")
	j.waitFor(b, pos, "main[1] ")
	p.eval = time.Since(start)
	send("exit")
	return p
}
