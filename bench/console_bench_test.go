package bench

import (
	"bytes"
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

	"github.com/creack/pty"
)

// BenchmarkConsoleAttach times `dbg attach --pid` from exec to the first
// prompt (attached, the target paused, its stop printed), against `dlv
// attach PID` for Go and `gdb -p PID` for C driven to their first prompt
// the same way, each on a pseudo-terminal, and prints the ratios:
//
//	go test -run XXX -bench ConsoleAttach -benchtime 5x ./bench/
func BenchmarkConsoleAttach(b *testing.B) {
	root := nativeRoot(b)
	dbg := dbgBinary(b)
	work := b.TempDir()
	goProg := filepath.Join(work, "goserver")
	build := exec.Command("go", "build", "-gcflags=all=-N -l", "-o", goProg, ".")
	build.Dir = filepath.Join(root, "testdata/go/server")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("build the Go fixture: %v\n%s", err, out)
	}
	cProg := filepath.Join(work, "cloop")
	if out, err := exec.Command("cc", "-g", "-O0", "-o", cProg, filepath.Join(root, "testdata/c/loop.c")).CombinedOutput(); err != nil {
		b.Fatalf("build the C fixture: %v\n%s", err, out)
	}
	state := b.TempDir()
	cases := []struct {
		lang, peer string
		prog       []string
		ready      string
		dbgArgs    func(pid int) []string
		peerArgs   func(pid int) []string
		peerPrompt string
		peerQuit   string
	}{
		{"go", "dlv", []string{goProg}, "ready", func(pid int) []string { return []string{"attach", "--pid", fmt.Sprint(pid)} },
			func(pid int) []string { return []string{"attach", fmt.Sprint(pid)} }, "(dlv) ", "quit\rn\r"},
		{"c", "gdb", []string{cProg, "forever"}, "total=", func(pid int) []string { return []string{"attach", "--pid", fmt.Sprint(pid), "--language", "c"} },
			func(pid int) []string { return []string{"-q", "-p", fmt.Sprint(pid)} }, "(gdb) ", "detach\rquit\r"},
	}
	for _, c := range cases {
		if _, err := exec.LookPath(c.peer); err != nil {
			b.Logf("%s not installed: %s skipped", c.peer, c.lang)
			continue
		}
		var dbgT, peerT []time.Duration
		b.Run(c.lang+"/dbg", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				pid, stop := startBenchTarget(b, c.ready, c.prog...)
				d := toPrompt(b, dbg, c.dbgArgs(pid), []string{"DBG_STATE_DIR=" + state, "NO_COLOR=1"}, "(dbg) ", "detach\r")
				stop()
				dbgT = append(dbgT, d)
			}
			b.ReportMetric(median(dbgT), "prompt-ms")
		})
		b.Run(c.lang+"/"+c.peer, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				pid, stop := startBenchTarget(b, c.ready, c.prog...)
				d := toPrompt(b, c.peer, c.peerArgs(pid), nil, c.peerPrompt, c.peerQuit)
				stop()
				peerT = append(peerT, d)
			}
			b.ReportMetric(median(peerT), "prompt-ms")
		})
		if len(dbgT) > 0 && len(peerT) > 0 {
			b.Logf("%s: dbg attach %.0f ms, %s %.0f ms to the first prompt: ratio %.2f", c.lang, median(dbgT), c.peer, median(peerT), median(dbgT)/median(peerT))
		}
	}
}

// startBenchTarget starts a program that runs until killed and waits for
// it to print ready.
func startBenchTarget(b *testing.B, ready string, argv ...string) (int, func()) {
	b.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var mu sync.Mutex
	var out bytes.Buffer
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := pr.Read(buf)
			mu.Lock()
			out.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	deadline := time.Now().Add(30 * time.Second)
	for {
		mu.Lock()
		ok := strings.Contains(out.String(), ready)
		mu.Unlock()
		if ok {
			break
		}
		if time.Now().After(deadline) {
			b.Fatalf("%s never printed %q", argv[0], ready)
		}
		time.Sleep(10 * time.Millisecond)
	}
	return cmd.Process.Pid, func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
		_ = pw.Close()
	}
}

// toPrompt runs a debugger on a pseudo-terminal and returns the time from
// exec to its first prompt; then it types quit and waits for the exit.
func toPrompt(b *testing.B, name string, args, env []string, prompt, quit string) time.Duration {
	b.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = append(append(os.Environ(), "TERM=xterm"), env...)
	start := time.Now()
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 50, Cols: 200})
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var seen bytes.Buffer
	buf := make([]byte, 4096)
	_ = f.SetReadDeadline(time.Now().Add(2 * time.Minute))
	for !strings.Contains(seen.String(), prompt) {
		n, err := f.Read(buf)
		seen.Write(buf[:n])
		if err != nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			b.Fatalf("%s: no prompt (%v): %s", name, err, seen.String())
		}
	}
	d := time.Since(start)
	_, _ = f.Write([]byte(quit))
	done := make(chan struct{})
	go func() { _, _ = io.Copy(io.Discard, f); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
	}
	_ = cmd.Wait()
	return d
}
