package sessions

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/proc"
	"github.com/dbg-dev/dbg/toolkit"
)

func testdata(t testing.TB, rel string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "testdata", rel)
}

func newTestManager(t testing.TB) *Manager {
	m := NewManager(Config{Adapters: adapters.Default(), StateDir: t.TempDir()})
	t.Cleanup(func() { m.Shutdown(context.Background()) })
	return m
}

// mockStopped creates a mock session stopped at line 10 of loop.mock.
func mockStopped(t testing.TB, m *Manager) *Session {
	t.Helper()
	ctx := context.Background()
	s, _, err := m.Create(ctx, CreateRequest{Language: "mock"})
	if err != nil {
		t.Fatal(err)
	}
	prog := testdata(t, "mock/loop.mock")
	if _, err := s.SetBreakpoint(ctx, BreakpointSpec{File: prog, Line: 10}); err != nil {
		t.Fatal(err)
	}
	res, err := s.Launch(ctx, StartRequest{ScriptPath: prog})
	if err != nil {
		t.Fatal(err)
	}
	if res.State != StatePaused || res.LastStop.Location.Line != 10 {
		t.Fatalf("launch: %+v", res)
	}
	return s
}

// 100 sessions step in parallel; each sees its own, correct values.
func TestManySessionsInParallel(t *testing.T) {
	t.Parallel()
	m := newTestManager(t)
	ctx := context.Background()
	const n = 100
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- func() error {
				s := mockStopped(t, m)
				for step := 0; step < 6; step++ {
					r, err := s.Step(ctx, StepOver, 0, 10*time.Second)
					if err != nil {
						return err
					}
					if r.State != StatePaused {
						return fmt.Errorf("step %d: %+v", step, r)
					}
				}
				// Steps from line 10: 11, 9, 10, 11, 9, 10: i is 3 again at the loop body.
				ev, err := s.Evaluate(ctx, "i * 100 + total", 0, "")
				if err != nil {
					return err
				}
				if ev.Result != "303" {
					return fmt.Errorf("i*100+total = %s, want 303", ev.Result)
				}
				return m.CloseSession(ctx, s.ID())
			}()
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if got := len(m.List()); got != 0 {
		t.Fatalf("%d sessions left", got)
	}
}

func TestStateMachineAndLastStop(t *testing.T) {
	t.Parallel()
	m := newTestManager(t)
	ctx := context.Background()
	s := mockStopped(t, m)
	info := s.Info()
	if info.State != StatePaused || info.LastStop == nil || info.LastStop.Reason != "breakpoint" || len(info.LastStop.HitBreakpoint) != 1 {
		t.Fatalf("info %+v", info)
	}
	if _, err := s.Continue(ctx, 0, 0); err != nil {
		t.Fatal(err)
	}
	// The breakpoint is hit again on the next iteration.
	r, err := s.WaitForStop(ctx, 10*time.Second)
	if err != nil || r.State != StatePaused || r.LastStop.Location.Line != 10 {
		t.Fatalf("second stop %+v %v", r, err)
	}
	if _, err := s.ClearBreakpoints(ctx, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Continue(ctx, 0, 0); err != nil {
		t.Fatal(err)
	}
	r, err = s.WaitForStop(ctx, 10*time.Second)
	if err != nil || r.State != StateTerminated || r.ExitCode == nil || *r.ExitCode != 0 {
		t.Fatalf("end %+v %v", r, err)
	}
	if _, err := s.Step(ctx, StepOver, 0, 0); err == nil {
		t.Fatal("stepping a terminated session must fail")
	}
	if got := s.Output().Text("stdout"); got != "i=1 total=1\ni=2 total=3\ni=3 total=6\ndone total=6\n" {
		t.Fatalf("output %q", got)
	}
}

func TestConditionsLogpointsAndExceptions(t *testing.T) {
	t.Parallel()
	m := newTestManager(t)
	ctx := context.Background()
	prog := testdata(t, "mock/loop.mock")
	s, _, err := m.Create(ctx, CreateRequest{Language: "mock"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetBreakpoint(ctx, BreakpointSpec{File: prog, Line: 11, Condition: "i == 2"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetBreakpoint(ctx, BreakpointSpec{File: prog, Line: 10, LogMessage: "before add i={i}"}); err != nil {
		t.Fatal(err)
	}
	res, err := s.Launch(ctx, StartRequest{ScriptPath: prog})
	if err != nil || res.State != StatePaused {
		t.Fatalf("%+v %v", res, err)
	}
	ev, _ := s.Evaluate(ctx, "i", 0, "")
	if ev == nil || ev.Result != "2" {
		t.Fatalf("conditional breakpoint stopped with i=%v", ev)
	}
	if got := s.Output().Text("console"); got != "before add i=1\nbefore add i=2\n" {
		t.Fatalf("log points printed %q", got)
	}

	// An uncaught exception stops with its message (launch default: uncaught).
	s2, _, _ := m.Create(ctx, CreateRequest{Language: "mock"})
	res, err = s2.Launch(ctx, StartRequest{ScriptPath: testdata(t, "mock/throw.mock"), Wait: 5 * time.Second})
	if err != nil || res.State != StatePaused || res.LastStop.Reason != "exception" || res.LastStop.Text == "" {
		t.Fatalf("exception stop %+v %v", res, err)
	}
	if res.LastStop.Location.Line != 4 {
		t.Fatalf("exception at line %d", res.LastStop.Location.Line)
	}
	// With breakOnExceptions none, the program just ends with an error.
	s3, _, _ := m.Create(ctx, CreateRequest{Language: "mock"})
	res, err = s3.Launch(ctx, StartRequest{ScriptPath: testdata(t, "mock/throw.mock"), BreakOnExceptions: "none", Wait: 5 * time.Second})
	if err != nil || res.State != StateTerminated || res.ExitCode == nil || *res.ExitCode != 1 {
		t.Fatalf("uncaught without a stop %+v %v", res, err)
	}
}

func TestSetVariableAndFunctionBreakpoint(t *testing.T) {
	t.Parallel()
	m := newTestManager(t)
	ctx := context.Background()
	prog := testdata(t, "mock/loop.mock")
	s, _, _ := m.Create(ctx, CreateRequest{Language: "mock"})
	if _, err := s.SetBreakpoint(ctx, BreakpointSpec{Function: "add"}); err != nil {
		t.Fatal(err)
	}
	res, err := s.Launch(ctx, StartRequest{ScriptPath: prog})
	if err != nil || res.LastStop == nil || res.LastStop.Reason != "function breakpoint" || res.LastStop.Location.Function != "add" {
		t.Fatalf("function breakpoint %+v %v", res, err)
	}
	if _, err := s.SetVariable(ctx, 0, "b", "100", 0); err != nil {
		t.Fatal(err)
	}
	r, err := s.Step(ctx, StepOut, 0, 5*time.Second)
	if err != nil || r.LastStop.Location.Function != "main" {
		t.Fatalf("step out %+v %v", r, err)
	}
	ev, err := s.Evaluate(ctx, "total", 0, "")
	if err != nil || ev.Result != "100" {
		t.Fatalf("total after set b=100: %+v %v", ev, err)
	}
}

func TestBreakpointsBeforeAndAfterLaunch(t *testing.T) {
	t.Parallel()
	m := newTestManager(t)
	ctx := context.Background()
	prog := testdata(t, "mock/loop.mock")
	s, _, _ := m.Create(ctx, CreateRequest{Language: "mock"})
	bp, err := s.SetBreakpoint(ctx, BreakpointSpec{File: prog, Line: 13})
	if err != nil || bp.Verified {
		t.Fatalf("before launch: %+v %v", bp, err)
	}
	if _, err := s.Launch(ctx, StartRequest{ScriptPath: prog, StopOnEntry: true}); err != nil {
		t.Fatal(err)
	}
	list := s.Breakpoints()
	if len(list) != 1 || !list[0].Verified {
		t.Fatalf("after launch: %+v", list)
	}
	if err := s.RemoveBreakpoint(ctx, list[0].ID); err != nil {
		t.Fatal(err)
	}
	if err := s.RemoveBreakpoint(ctx, 999); err == nil {
		t.Fatal("removing an unknown breakpoint must fail")
	}
	r, err := s.RunToLine(ctx, prog, 11, 0, 5*time.Second)
	if err != nil || r.LastStop.Location.Line != 11 {
		t.Fatalf("run_to_line %+v %v", r, err)
	}
	if got := len(s.Breakpoints()); got != 0 {
		t.Fatalf("run_to_line left %d breakpoints", got)
	}
}

func TestRestartKeepsBreakpoints(t *testing.T) {
	t.Parallel()
	m := newTestManager(t)
	ctx := context.Background()
	s := mockStopped(t, m)
	if _, err := s.Step(ctx, StepOver, 0, 0); err != nil {
		t.Fatal(err)
	}
	res, err := s.Restart(ctx)
	if err != nil || res.State != StatePaused || res.LastStop.Location.Line != 10 {
		t.Fatalf("restart %+v %v", res, err)
	}
	ev, _ := s.Evaluate(ctx, "i", 0, "")
	if ev == nil || ev.Result != "1" {
		t.Fatalf("after restart i = %v", ev)
	}
}

// A server that died leaves records; the next one kills what they name,
// including group members whose leader is gone.
func TestReapAfterCrash(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	dead := NewManager(Config{StateDir: state})
	cmd := exec.Command("sh", "-c", "sleep 300 & wait")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); _ = cmd.Wait() })
	dead.RegisterProcess(toolkit.OwnedProcess{Name: "sleeper", PID: cmd.Process.Pid})
	// Pretend the record was written by a server that has since died.
	entries, _ := os.ReadDir(filepath.Join(state, "sessions"))
	if len(entries) != 1 {
		t.Fatalf("records: %v", entries)
	}
	path := filepath.Join(state, "sessions", entries[0].Name())
	b, _ := os.ReadFile(path)
	b = []byte(strings.Replace(string(b), fmt.Sprintf(`"pid":%d,`, os.Getpid()), `"pid":999999999,`, 1))
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	var child int
	for deadline := time.Now().Add(5 * time.Second); child == 0 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if kids := proc.Descendants(cmd.Process.Pid); len(kids) > 0 {
			child = kids[0]
		}
	}
	if n := NewManager(Config{StateDir: state}).Reap(); n != 1 {
		t.Fatalf("reaped %d records", n)
	}
	_ = cmd.Wait()
	for deadline := time.Now().Add(5 * time.Second); proc.Alive(child); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the group member %d survived", child)
		}
	}
}

// The adapter's reverse requests: runInTerminal starts the command (its
// output captured, killed at close) and startDebugging opens a child
// session that stops on entry and closes with its parent.
func TestReverseRequests(t *testing.T) {
	t.Parallel()
	m := newTestManager(t)
	ctx := context.Background()
	prog := testdata(t, "mock/forever.mock")
	s, _, _ := m.Create(ctx, CreateRequest{Language: "mock"})
	_, err := s.Launch(ctx, StartRequest{ScriptPath: prog, Wait: 10 * time.Millisecond, DAPLaunchArgs: map[string]any{
		"runInTerminal": []string{"sh", "-c", "echo from-terminal; exec sleep 30"},
		"childSession":  true,
	}})
	if err != nil {
		t.Fatal(err)
	}
	var child SessionInfo
	deadline := time.Now().Add(10 * time.Second)
	for {
		for _, info := range m.List() {
			if info.ParentID == s.ID() && info.State == StatePaused {
				child = info
			}
		}
		if child.ID != "" && strings.Contains(s.Output().Text(""), "from-terminal") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no paused child or terminal output; sessions %+v output %q", m.List(), s.Output().Text(""))
		}
		time.Sleep(10 * time.Millisecond)
	}
	if child.LastStop == nil || child.LastStop.Reason != "entry" {
		t.Fatalf("child %+v", child)
	}
	var termPID int
	if _, err := fmt.Sscanf(s.Output().Text("console"), "runInTerminal started process %d", &termPID); err != nil || !proc.Alive(termPID) {
		t.Fatalf("terminal process: %d %v (%q)", termPID, err, s.Output().Text("console"))
	}
	if err := m.CloseSession(ctx, s.ID()); err != nil {
		t.Fatal(err)
	}
	if len(m.List()) != 0 {
		t.Fatalf("sessions left after closing the parent: %+v", m.List())
	}
	for deadline := time.Now().Add(5 * time.Second); proc.Alive(termPID); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the runInTerminal process survived")
		}
	}
}

// Breakpoints set at the same time on one file all reach the adapter.
func TestParallelBreakpointsOneFile(t *testing.T) {
	t.Parallel()
	m := newTestManager(t)
	ctx := context.Background()
	prog := testdata(t, "mock/loop.mock")
	s, _, _ := m.Create(ctx, CreateRequest{Language: "mock"})
	if _, err := s.Launch(ctx, StartRequest{ScriptPath: prog, StopOnEntry: true}); err != nil {
		t.Fatal(err)
	}
	lines := []int{3, 10, 11, 13}
	var wg sync.WaitGroup
	for _, l := range lines {
		wg.Add(1)
		go func(l int) {
			defer wg.Done()
			if _, err := s.SetBreakpoint(ctx, BreakpointSpec{File: prog, Line: l}); err != nil {
				t.Error(err)
			}
		}(l)
	}
	wg.Wait()
	hit := map[int]bool{}
	for i := 0; i < 20; i++ {
		r, err := s.Continue(ctx, 0, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if r.State != StatePaused {
			break
		}
		hit[r.LastStop.Location.Line] = true
	}
	for _, l := range lines {
		if !hit[l] {
			t.Errorf("breakpoint at line %d never hit (hits %v)", l, hit)
		}
	}
}

// A detached session can attach again.
func TestAttachAgainAfterDetach(t *testing.T) {
	t.Parallel()
	m := newTestManager(t)
	ctx := context.Background()
	req := CreateRequest{Language: "mock", ProcessID: os.Getpid(), AdapterConfig: map[string]any{"program": testdata(t, "mock/forever.mock")}}
	s, res, err := m.Create(ctx, req)
	if err != nil || res.State != StatePaused {
		t.Fatalf("attach: %+v %v", res, err)
	}
	if err := s.Detach(ctx, false); err != nil {
		t.Fatal(err)
	}
	res, err = s.Attach(ctx, req)
	if err != nil || res.State != StatePaused {
		t.Fatalf("attach again: %+v %v", res, err)
	}
}

func TestToIntAcceptsJSONNumbers(t *testing.T) {
	t.Parallel()
	for v, want := range map[any]int{json.Number("1234"): 1234, float64(7): 7, "42": 42, 5: 5, true: 0} {
		if got := toInt(v); got != want {
			t.Errorf("toInt(%#v) = %d, want %d", v, got, want)
		}
	}
}

// Create attaches only when the request names a target as the adapter
// reads it; Attach refuses a request that names none.
func TestCreateAttachesOnlyWithATarget(t *testing.T) {
	t.Parallel()
	m := newTestManager(t)
	ctx := context.Background()
	// A key that names a target for another adapter (Dart's) is no target
	// for the mock: the session is created for launch.
	s, res, err := m.Create(ctx, CreateRequest{Language: "mock", AdapterConfig: map[string]any{"vmServiceUri": "ws://127.0.0.1:1/ws"}})
	if err != nil || res != nil || s.State() != StateCreated {
		t.Fatalf("create: %v %+v %v", s, res, err)
	}
	_, err = s.Attach(ctx, CreateRequest{Language: "mock", AdapterConfig: map[string]any{"program": testdata(t, "mock/forever.mock")}})
	var te *toolkit.ToolError
	if !errors.As(err, &te) || te.Code != toolkit.CodeInvalidArgument || !strings.Contains(te.Message, "processId or port") {
		t.Fatalf("attach without a target: %v", err)
	}
}
