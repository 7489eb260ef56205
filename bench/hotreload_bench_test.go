package bench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/dap"
)

// BenchmarkJavaHotReload compares the two ways to run an edited method of
// a program stopped at a breakpoint in it: hot_reload of its one class
// (javac plus RedefineClasses, through dbg's Java adapter) against
// relaunching the program to the same breakpoint. It prints the ratio.
func BenchmarkJavaHotReload(b *testing.B) {
	for _, tool := range []string{"java", "javac"} {
		if _, err := exec.LookPath(tool); err != nil {
			b.Skipf("%s not installed (scripts/deps/java.sh installs it)", tool)
		}
	}
	orig, err := filepath.Abs("../testdata/java/Price.java")
	if err != nil {
		b.Fatal(err)
	}
	text, err := os.ReadFile(orig)
	if err != nil {
		b.Fatal(err)
	}
	src := filepath.Join(b.TempDir(), "Price.java")
	if err := os.WriteFile(src, text, 0o644); err != nil {
		b.Fatal(err)
	}
	cp := b.TempDir()
	if out, err := exec.Command("javac", "-g", "-d", cp, src).CombinedOutput(); err != nil {
		b.Fatalf("javac: %v\n%s", err, out)
	}
	line := markerLine(b, src, "wrong")
	var reload, relaunch time.Duration
	var reloadN, relaunchN int
	b.Run("hot_reload", func(b *testing.B) {
		s := startJavaAt(b, src, cp, line)
		defer s.close()
		fixed := strings.Replace(string(text), "return sum + 1;", "return sum;", 1)
		b.ResetTimer()
		start := time.Now()
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			edit := fixed
			if i%2 == 1 {
				edit = string(text)
			}
			if err := os.WriteFile(src, []byte(edit), 0o644); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			t0 := time.Now()
			m := s.req("hotReload", map[string]any{"files": []string{src}})
			reload += time.Since(t0)
			var body struct {
				Replaced []any `json:"replaced"`
			}
			if err := m.DecodeBody(&body); err != nil || len(body.Replaced) != 1 {
				b.Fatalf("hotReload answered %s", m.Body)
			}
		}
		_ = start
		reloadN = b.N
		b.ReportMetric(float64(reload.Microseconds())/1000/float64(b.N), "reload-ms")
	})
	b.Run("relaunch", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			t0 := time.Now()
			s := startJavaAt(b, src, cp, line)
			relaunch += time.Since(t0)
			s.close()
		}
		relaunchN = b.N
		b.ReportMetric(float64(relaunch.Microseconds())/1000/float64(b.N), "relaunch-ms")
	})
	if reloadN > 0 && relaunchN > 0 {
		r, l := reload/time.Duration(reloadN), relaunch/time.Duration(relaunchN)
		fmt.Printf("java hot_reload of one class %v, relaunch to the same breakpoint %v, relaunch/hot_reload %.2f\n", r, l, float64(l)/float64(r))
	}
}

// javaAt is a Java adapter session stopped at a breakpoint.
type javaAt struct {
	b      *testing.B
	ctx    context.Context
	cancel context.CancelFunc
	ep     *adapters.Endpoint
	conn   *dap.Conn
}

func (s *javaAt) req(cmd string, a any) *dap.Message {
	m, err := s.conn.Request(s.ctx, cmd, a)
	if err != nil {
		s.b.Fatalf("%s: %v", cmd, err)
	}
	return m
}

func (s *javaAt) close() {
	_, _ = s.conn.Request(s.ctx, "disconnect", map[string]any{"terminateDebuggee": true})
	_ = s.conn.Close()
	s.ep.Close(context.Background())
	s.cancel()
}

// startJavaAt launches Price from cp under the Java adapter and returns
// once it stopped at src:line.
func startJavaAt(b *testing.B, src, cp string, line int) *javaAt {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	target := adapters.Target{Mode: adapters.Launch, Program: "Price", Extra: map[string]any{"classpath": cp}}
	args, err := adapters.Java{}.LaunchArgs(ctx, target)
	if err != nil {
		b.Fatal(err)
	}
	ep, err := adapters.Java{}.Start(ctx, target)
	if err != nil {
		b.Fatal(err)
	}
	stopped := make(chan struct{}, 10)
	conn := dap.NewConn(ep.Conn, dap.Options{OnEvent: func(m *dap.Message) {
		if m.Event == "stopped" {
			stopped <- struct{}{}
		}
	}})
	s := &javaAt{b: b, ctx: ctx, cancel: cancel, ep: ep, conn: conn}
	s.req("initialize", map[string]any{"clientID": "dbg", "adapterID": "java", "linesStartAt1": true})
	launch, err := conn.Start(ctx, "launch", args)
	if err != nil {
		b.Fatal(err)
	}
	s.req("setBreakpoints", map[string]any{"source": map[string]any{"path": src}, "breakpoints": []any{map[string]any{"line": line}}})
	s.req("configurationDone", nil)
	if _, err := launch.Wait(ctx, 0); err != nil {
		b.Fatal(err)
	}
	select {
	case <-stopped:
	case <-ctx.Done():
		b.Fatal("no stop at the breakpoint")
	}
	return s
}
