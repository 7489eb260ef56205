package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/debugtools"
	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
	"github.com/dbg-dev/dbg/toolkit/mcpbind"
)

// The JVM benchmarks run the java-service fixture (scripts/deps/jvm.sh
// installs the JDK and H2):
//
//	go test -run XXX -bench JVM ./bench/
//
// BenchmarkJVMAttach: pid -> live agent connection (the agent jar is built
// once before timing). BenchmarkJVMInvoke: one invoke_java_method call of
// a trivial static method through MCP (in-memory transport). Both report
// the median in ms.

const h2Jar = "/usr/share/java/h2.jar"

func compileFixture(b *testing.B) string {
	b.Helper()
	if _, err := exec.LookPath("javac"); err != nil {
		b.Skip("javac not installed (run scripts/deps/jvm.sh)")
	}
	if _, err := os.Stat(h2Jar); err != nil {
		b.Skip("H2 not installed (run scripts/deps/jvm.sh)")
	}
	src, _ := filepath.Abs("../testdata/java-service/src/main/java")
	var files []string
	_ = filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(p, ".java") {
			files = append(files, p)
		}
		return nil
	})
	out := b.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if o, err := exec.CommandContext(ctx, "javac", append([]string{"-d", out}, files...)...).CombinedOutput(); err != nil {
		b.Fatalf("javac: %v\n%s", err, o)
	}
	return out
}

// startJVM runs the fixture and waits for READY; cleanup kills its group.
func startJVM(b *testing.B, classes string) int {
	b.Helper()
	cmd := exec.Command("java", "-cp", classes+":"+h2Jar, "com.example.shop.ShopApplication")
	cmd.Dir = b.TempDir()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	pid := cmd.Process.Pid
	b.Cleanup(func() {
		// SIGTERM lets the JVM remove its hsperfdata file; SIGKILL after a grace.
		_ = syscall.Kill(-pid, syscall.SIGTERM)
		done := make(chan struct{})
		go func() {
			_ = cmd.Wait()
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(3 * time.Second):
			_ = syscall.Kill(-pid, syscall.SIGKILL)
			<-done
		}
	})
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "READY") {
				ready <- true
				for sc.Scan() {
				}
				return
			}
		}
		ready <- false
	}()
	select {
	case ok := <-ready:
		if !ok {
			b.Fatal("fixture exited")
		}
	case <-time.After(60 * time.Second):
		b.Fatal("fixture not ready in 60s")
	}
	return pid
}

func median(d []time.Duration) float64 {
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return float64(d[len(d)/2]) / float64(time.Millisecond)
}

func BenchmarkJVMAttach(b *testing.B) {
	classes := compileFixture(b)
	svc := debugtools.NewService(debugtools.Config{CacheDir: b.TempDir()})
	defer svc.Close()
	// Build the agent jar outside the measurement.
	warm := startJVM(b, classes)
	wctx, wcancel := context.WithTimeout(context.Background(), 3*time.Minute)
	if _, err := svc.Attach(wctx, warm, "", 60*time.Second); err != nil {
		b.Fatal(err)
	}
	wcancel()
	var samples []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		pid := startJVM(b, classes)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		b.StartTimer()
		start := time.Now()
		res, err := svc.Attach(ctx, pid, "", 30*time.Second)
		samples = append(samples, time.Since(start))
		b.StopTimer()
		cancel()
		if err != nil || res.Conn == nil {
			b.Fatalf("attach: %v %+v", err, res)
		}
	}
	b.ReportMetric(median(samples), "ms/attach-median")
}

func BenchmarkJVMInvoke(b *testing.B) {
	classes := compileFixture(b)
	pid := startJVM(b, classes)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	srv := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "0"}, nil)
	tb := mcpbind.NewToolbox(srv, nil)
	m := sessions.NewManager(sessions.Config{})
	svc := debugtools.NewService(debugtools.Config{CacheDir: b.TempDir()})
	defer svc.Close()
	debugtools.New(m, svc, debugtools.Config{}).Register(tb)
	if res, err := svc.Attach(ctx, pid, "", 2*time.Minute); err != nil || res.Conn == nil {
		b.Fatalf("attach: %v", err)
	}
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	args := map[string]any{"className": "com.example.shop.PriceUtil", "methodName": "ping", "resultView": "NONE"}
	call := func() {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "invoke_java_method", Arguments: args})
		if err != nil {
			b.Fatal(err)
		}
		var env toolkit.Envelope[debugtools.InvokeOut]
		if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &env); err != nil || !env.Success || *env.Data.Result != "1" {
			b.Fatalf("invoke: %v %+v", err, env.Error)
		}
	}
	for i := 0; i < 20; i++ { // warm up the JIT on both sides
		call()
	}
	samples := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		call()
		samples = append(samples, time.Since(start))
	}
	b.StopTimer()
	b.ReportMetric(median(samples), "ms/invoke-median")
}
