package sessions

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/dap"
	"github.com/dbg-dev/dbg/proc"
	"github.com/dbg-dev/dbg/sessions/toolkit"
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
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if strings.Contains(sc.Text(), marker) {
			return n
		}
	}
	t.Fatalf("no %s in %s", marker, path)
	return 0
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
