package bench

// Attach: how fast a session attached to a program dbg did not start
// runs, against one dbg launched.
//
// BenchmarkPythonStepByPort steps the same loop (testdata/python/loop.py)
// in a program dbg launched and in one started under
// `python -m debugpy --listen`, to which dbg attaches by port, in one
// run, as medians of single step_over calls through MCP:
//
//	go test -run XXX -bench PythonStepByPort -benchtime 3x ./bench/
//
// BenchmarkGoAttachIdle times create_debug_session {processId} to its
// paused answer on an HTTP server blocked in accept
// (testdata/go/idle):
//
//	go test -run XXX -bench GoAttachIdle -benchtime 3x ./bench/

import (
	"fmt"
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/proc"
)

// stepsPerRun is how many step_over calls the loop fixture takes without
// leaving its loop.
const stepsPerRun = 8

func BenchmarkPythonStepByPort(b *testing.B) {
	if exec.Command("python3", "-c", "import debugpy").Run() != nil {
		b.Skip("python3 has no debugpy")
	}
	prog := filepath.Join(nativeRoot(b), "testdata/python/loop.py")
	line := nativeLine(b, prog, "BREAK")
	c := startMCP(b)
	defer c.cs.Close()
	var launched, byPort []time.Duration
	for i := 0; i < b.N+1; i++ { // the first run warms up
		id := c.call("create_debug_session", map[string]any{"language": "python"})["sessionId"].(string)
		c.call("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": line})
		if st := c.call("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog, "waitMs": 60000}); st["state"] != "paused" {
			b.Fatalf("launch: not stopped: %v", st)
		}
		l := stepTimes(c, id)
		c.call("close_debug_session", map[string]any{"sessionId": id})

		port := freeLocalPort(b)
		target := exec.Command("python3", "-m", "debugpy", "--listen", fmt.Sprintf("127.0.0.1:%d", port), "--wait-for-client", prog)
		target.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := target.Start(); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = syscall.Kill(-target.Process.Pid, syscall.SIGKILL); _ = target.Wait() })
		waitListening(b, port)
		s := c.call("create_debug_session", map[string]any{"language": "python", "port": port})
		id = s["sessionId"].(string)
		if s["state"] != "paused" { // the pause lands where the program's own code runs
			if st := c.call("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 60000}); st["state"] != "paused" {
				b.Fatalf("attach by port: not paused: %v", st)
			}
		}
		c.call("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": line})
		c.call("continue_execution", map[string]any{"sessionId": id})
		if st := c.call("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 60000}); st["state"] != "paused" {
			b.Fatalf("attach by port: not stopped at the breakpoint: %v", st)
		}
		p := stepTimes(c, id)
		c.call("close_debug_session", map[string]any{"sessionId": id})
		if i > 0 {
			launched, byPort = append(launched, l...), append(byPort, p...)
		}
	}
	l, p := median(launched), median(byPort)
	b.ReportMetric(l, "launched-step-ms")
	b.ReportMetric(p, "port-step-ms")
	b.ReportMetric(p/l, "port/launched")
}

// stepTimes steps the paused session stepsPerRun times and returns each
// step's time.
func stepTimes(c *mcpClient, id string) []time.Duration {
	var out []time.Duration
	for j := 0; j < stepsPerRun; j++ {
		t0 := time.Now()
		r := c.call("step_over", map[string]any{"sessionId": id})
		out = append(out, time.Since(t0))
		if r["state"] != "paused" {
			c.b.Fatalf("step %d: %v", j, r)
		}
	}
	return out
}

func freeLocalPort(b *testing.B) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// waitListening waits until a socket listens on the local port. It
// reads the kernel's table rather than connecting: debugpy's adapter
// takes the first connection for its client.
func waitListening(b *testing.B, port int) {
	for deadline := time.Now().Add(30 * time.Second); ; {
		for _, sk := range proc.TCPSockets() {
			if sk.State == proc.TCPListen && int(sk.Local.Port()) == port {
				return
			}
		}
		if time.Now().After(deadline) {
			b.Fatalf("nothing listens on port %d", port)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func BenchmarkGoAttachIdle(b *testing.B) {
	if _, err := exec.LookPath("dlv"); err != nil {
		b.Skip("delve is not installed")
	}
	bin := filepath.Join(b.TempDir(), "idle")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = filepath.Join(nativeRoot(b), "testdata/go/idle")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("%v: %s", err, out)
	}
	c := startMCP(b)
	defer c.cs.Close()
	var times []time.Duration
	for i := 0; i < b.N+1; i++ { // the first run warms up
		target := exec.Command(bin)
		out, _ := target.StdoutPipe()
		if err := target.Start(); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = target.Process.Kill(); _ = target.Wait() })
		buf := make([]byte, 64)
		if n, _ := out.Read(buf); !strings.HasPrefix(string(buf[:n]), "ready") {
			b.Fatalf("the idle server printed %q", buf[:n])
		}
		t0 := time.Now()
		s := c.call("create_debug_session", map[string]any{"language": "go", "processId": target.Process.Pid})
		d := time.Since(t0)
		if s["state"] != "paused" {
			b.Fatalf("attach: %v", s)
		}
		c.call("close_debug_session", map[string]any{"sessionId": s["sessionId"]})
		if i > 0 {
			times = append(times, d)
		}
	}
	b.ReportMetric(median(times), "attach-ms")
}
