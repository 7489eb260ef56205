package sessions

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/dap"
	"github.com/dbg-dev/dbg/internal/dbgtest"
	"github.com/dbg-dev/dbg/proc"
	"github.com/dbg-dev/dbg/toolkit"
)

func needTool(t *testing.T, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		t.Skipf("%s not installed", name)
	}
}

// markedLine returns the first line of path containing marker.
func markedLine(t *testing.T, path, marker string) int {
	t.Helper()
	return dbgtest.LineOf(t, path, marker)
}

// A Go program SIGKILLed while paused under delve: delve answers the next
// step with a stop ("no such process") and never reports the end. The
// session must turn terminated with the reason, and say so everywhere.
func TestFaultDebuggeeKilledWhilePaused(t *testing.T) {
	needTool(t, "dlv")
	m := newTestManager(t)
	ctx := context.Background()
	other := mockStopped(t, m)
	s, _, err := m.Create(ctx, CreateRequest{Language: "go"})
	if err != nil {
		t.Fatal(err)
	}
	prog := testdata(t, "go/loop/main.go")
	line := markedLine(t, prog, "BREAK")
	if _, err := s.SetBreakpoint(ctx, BreakpointSpec{File: prog, Line: line}); err != nil {
		t.Fatal(err)
	}
	res, err := s.Launch(ctx, StartRequest{ScriptPath: prog, Wait: time.Minute})
	if err != nil || res.State != StatePaused {
		t.Fatalf("launch: %+v %v", res, err)
	}
	info := s.Info()
	if info.PID == 0 {
		t.Fatalf("no debuggee pid: %+v", info)
	}
	adapterPID := info.AdapterPID
	if err := syscall.Kill(info.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	sctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	r, err := s.Step(sctx, StepOver, 0, 0)
	if time.Since(start) > 20*time.Second {
		t.Fatalf("the step took %s", time.Since(start))
	}
	if err == nil && r.State != StateTerminated {
		t.Fatalf("step after the debuggee died: %+v", r)
	}
	info = s.Info()
	if info.State != StateTerminated || !strings.Contains(info.Reason, "is gone") {
		t.Fatalf("session after the debuggee died: %+v", info)
	}
	if !strings.Contains(info.Reason, "killed by SIGKILL") || !strings.Contains(info.Reason, "pid") {
		t.Errorf("reason %q does not say how the debuggee ended", info.Reason)
	}
	listed := false
	for _, li := range m.List() {
		if li.ID == s.ID() && li.State == StateTerminated && li.Reason == info.Reason {
			listed = true
		}
	}
	if !listed {
		t.Fatalf("list does not show the end: %+v", m.List())
	}
	if _, err := s.Evaluate(ctx, "total", 0, ""); !isCode(err, toolkit.CodeInvalidState) {
		t.Fatalf("evaluate on a dead debuggee: %v", err)
	}
	if _, err := s.Continue(ctx, 0, 0); !isCode(err, toolkit.CodeInvalidState) {
		t.Fatalf("continue on a dead debuggee: %v", err)
	}
	// Other sessions keep working.
	if r, err := other.Step(ctx, StepOver, 0, 10*time.Second); err != nil || r.State != StatePaused {
		t.Fatalf("other session: %+v %v", r, err)
	}
	if err := m.CloseSession(ctx, s.ID()); err != nil {
		t.Fatal(err)
	}
	waitDead(t, 5*time.Second, adapterPID)
}

func isCode(err error, code string) bool {
	te, ok := err.(*toolkit.ToolError)
	return ok && te.Code == code
}

// waitDead fails unless every pid exits within d.
func waitDead(t *testing.T, d time.Duration, pids ...int) {
	t.Helper()
	deadline := time.Now().Add(d)
	for _, p := range pids {
		for p > 0 && proc.Alive(p) {
			if time.Now().After(deadline) {
				t.Errorf("process %d outlived its session", p)
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// garbageMock is the mock adapter behind a stream that carries garbage
// before the adapter's first frame and before every stop: a line that is
// no header, a frame whose body is not JSON, and a JSON frame that is not
// a DAP message.
type garbageMock struct{ adapters.Mock }

func (g garbageMock) Start(ctx context.Context, t adapters.Target) (*adapters.Endpoint, error) {
	ep, err := g.Mock.Start(ctx, t)
	if err != nil {
		return nil, err
	}
	ep.Conn, ep.Child = withGarbage(ep.Conn), nil
	return ep, nil
}

// garbageBody marks the non-JSON garbage frames.
const garbageBody = "\x00\xff garbage frame {"

func withGarbage(c io.ReadWriteCloser) io.ReadWriteCloser {
	pr, pw := io.Pipe()
	go func() {
		fr := dap.NewFrameReader(c)
		first := true
		for {
			body, err := fr.ReadFrame()
			if err != nil {
				pw.CloseWithError(err)
				return
			}
			if first || bytes.Contains(body, []byte(`"event":"stopped"`)) {
				first = false
				_, _ = pw.Write([]byte("not a header\r\n"))
				_ = dap.WriteFrame(pw, []byte(garbageBody))
				_ = dap.WriteFrame(pw, []byte(`{"type":"event"}`))
			}
			if dap.WriteFrame(pw, body) != nil {
				return
			}
		}
	}()
	return garbled{c, pr}
}

type garbled struct {
	io.ReadWriteCloser
	r *io.PipeReader
}

func (g garbled) Read(b []byte) (int, error) { return g.r.Read(b) }

func (g garbled) Close() error {
	_ = g.r.Close()
	return g.ReadWriteCloser.Close()
}

// The adapter writes garbage frames, then valid messages: the session goes
// on, and the traffic log shows the garbage arrived and was skipped, not
// taken for a message.
func TestFaultGarbageFrames(t *testing.T) {
	t.Parallel()
	reg := adapters.NewRegistry()
	reg.Register(garbageMock{})
	logs := t.TempDir()
	m := NewManager(Config{Adapters: reg, StateDir: t.TempDir(), DAPLogDir: logs})
	t.Cleanup(func() { m.Shutdown(context.Background()) })
	ctx := context.Background()
	s := mockStopped(t, m)
	for i := 0; i < 3; i++ {
		r, err := s.Step(ctx, StepOver, 0, 10*time.Second)
		if err != nil || r.State != StatePaused {
			t.Fatalf("step %d through garbage: %+v %v", i, r, err)
		}
	}
	if ev, err := s.Evaluate(ctx, "i", 0, ""); err != nil || ev.Result != "2" {
		t.Fatalf("evaluate through garbage: %+v %v", ev, err)
	}
	b, err := os.ReadFile(filepath.Join(logs, s.ID()+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	garbage, notMessages := 0, 0
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var l struct {
			Dir string          `json:"dir"`
			Msg json.RawMessage `json:"msg"`
		}
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("traffic log line %q: %v", line, err)
		}
		var text string
		if l.Dir == "recv" && json.Unmarshal(l.Msg, &text) == nil && strings.Contains(text, "garbage frame") {
			garbage++
		}
		if l.Dir == "recv" && string(l.Msg) == `{"type":"event"}` {
			notMessages++
		}
	}
	// The first frame and four stops (the breakpoint, three steps).
	if garbage < 5 || notMessages != garbage {
		t.Fatalf("the traffic log holds %d garbage frames and %d non-messages, want 5 or more of each", garbage, notMessages)
	}
	if info := s.Info(); info.State != StatePaused || info.LastStop.Location.Line == 0 {
		t.Fatalf("session after garbage: %+v", info)
	}
	if err := m.CloseSession(ctx, s.ID()); err != nil {
		t.Fatal(err)
	}
}

// The debuggee watch is the session's, not an adapter's: a paused session
// of any adapter whose debuggee process is killed says so at the next
// look; a running one after its adapter had a grace to report the end; a
// pid that was never seen here is not watched.
func TestFaultDebuggeeWatchAnyAdapter(t *testing.T) {
	m := newTestManager(t)
	ctx := context.Background()
	watch := func(t *testing.T, s *Session) *exec.Cmd {
		t.Helper()
		sleep := exec.Command("sleep", "300")
		if err := sleep.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = sleep.Process.Kill(); _ = sleep.Wait() })
		s.mu.Lock()
		s.pid = sleep.Process.Pid
		s.watchedDebuggeeLocked()
		s.mu.Unlock()
		return sleep
	}
	t.Run("paused", func(t *testing.T) {
		s := mockStopped(t, m)
		sleep := watch(t, s)
		if st := s.State(); st != StatePaused {
			t.Fatalf("state %s while the debuggee runs", st)
		}
		_ = sleep.Process.Kill()
		deadline := time.Now().Add(5 * time.Second)
		for s.Info().State != StateTerminated && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		info := s.Info()
		want := "the debuggee (pid " + strconv.Itoa(sleep.Process.Pid) + ") is gone: killed by SIGKILL"
		if info.State != StateTerminated || info.Reason != want {
			t.Fatalf("after the kill: %s %q, want %q", info.State, info.Reason, want)
		}
		if _, err := s.Step(ctx, StepOver, 0, time.Second); !isCode(err, toolkit.CodeInvalidState) {
			t.Fatalf("step: %v", err)
		}
	})
	t.Run("running", func(t *testing.T) {
		s := mockStopped(t, m)
		sleep := watch(t, s)
		s.mu.Lock()
		s.setStateLocked(StateRunning, "") // as between a continue and its stop
		s.mu.Unlock()
		_ = sleep.Process.Kill()
		_ = sleep.Wait()
		if st := s.State(); st != StateRunning {
			t.Fatalf("a running session ended without a grace for its adapter: %s", st)
		}
		start := time.Now()
		if !s.checkDebuggee(ctx) {
			t.Fatal("the gone debuggee was not noticed")
		}
		if d := time.Since(start); d < debuggeeGoneGrace/2 || d > 3*time.Second {
			t.Fatalf("the check took %s, want about %s", d, debuggeeGoneGrace)
		}
		if info := s.Info(); info.State != StateTerminated || !strings.Contains(info.Reason, "is gone") {
			t.Fatalf("after the check: %+v", info)
		}
	})
	t.Run("never seen", func(t *testing.T) {
		s := mockStopped(t, m)
		s.mu.Lock()
		s.pid = 1 << 22 // beyond pid_max: not a process here (remote, another namespace)
		s.mu.Unlock()
		if st := s.State(); st != StatePaused {
			t.Fatalf("a pid never seen here ended the session: %s", st)
		}
	})
}
