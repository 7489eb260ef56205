package sessions

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/proc"
)

// loadStep steps s once and reads its locals; at the loop body (line 5
// of steps.mock) n is i - 1.
func loadStep(ctx context.Context, s *Session) error {
	r, err := s.Step(ctx, StepOver, 0, 10*time.Second, WantStop)
	if err != nil {
		return err
	}
	if r.State != StatePaused || r.LastStop == nil || r.LastStop.Location == nil {
		return fmt.Errorf("step: %+v", r)
	}
	line := r.LastStop.Location.Line
	vars, _, _, err := s.LocalVariables(ctx, 0, nil)
	if err != nil {
		return err
	}
	vals := map[string]string{}
	for _, v := range vars {
		vals[v.Name] = v.Value
	}
	switch line {
	case 4: // the loop header
	case 5:
		i, err1 := strconv.Atoi(vals["i"])
		n, err2 := strconv.Atoi(vals["n"])
		if err1 != nil || err2 != nil || n != i-1 {
			return fmt.Errorf("at line 5: i=%q n=%q, want n = i-1", vals["i"], vals["n"])
		}
	default:
		return fmt.Errorf("stepped to line %d, want 4 or 5", line)
	}
	return nil
}

// 100 mock sessions step 300 times each at once, reading their
// variables at every stop: every value is right, and once the sessions
// are closed the server holds no more goroutines than before.
func TestLoadManyMockSessionsManySteps(t *testing.T) {
	sessions, steps := 100, 300
	if testing.Short() {
		sessions, steps = 20, 100
	}
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	m := NewManager(Config{Adapters: adapters.Default(), StateDir: t.TempDir()})
	defer m.Shutdown(context.Background())
	ctx := context.Background()
	prog := testdata(t, "mock/steps.mock")
	var wg sync.WaitGroup
	errs := make(chan error, sessions)
	for k := 0; k < sessions; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- func() error {
				s, _, err := m.Create(ctx, CreateRequest{Language: "mock"})
				if err != nil {
					return err
				}
				if _, err := s.SetBreakpoint(ctx, BreakpointSpec{File: prog, Line: 5}); err != nil {
					return err
				}
				res, err := s.Launch(ctx, StartRequest{ScriptPath: prog, Wait: time.Minute})
				if err != nil {
					return err
				}
				if res.State != StatePaused || res.LastStop.Location.Line != 5 {
					return fmt.Errorf("launch: %+v", res)
				}
				if _, err := s.ClearBreakpoints(ctx, prog); err != nil {
					return err
				}
				for i := 0; i < steps; i++ {
					if err := loadStep(ctx, s); err != nil {
						return fmt.Errorf("%s step %d: %w", s.ID(), i, err)
					}
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

// 20 Go programs run under delve at once: each stops at its breakpoint
// with the right values, steps, and leaves no process once closed.
func TestLoadTwentyDelveSessions(t *testing.T) {
	t.Parallel()
	needTool(t, "dlv")
	m := newTestManager(t)
	ctx := context.Background()
	prog := testdata(t, "go/loop/main.go")
	line := markedLine(t, prog, "BREAK")
	const n = 20
	var wg sync.WaitGroup
	errs := make(chan error, n)
	pids := make(chan int, 2*n)
	for k := 0; k < n; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- func() error {
				s, _, err := m.Create(ctx, CreateRequest{Language: "go"})
				if err != nil {
					return err
				}
				if _, err := s.SetBreakpoint(ctx, BreakpointSpec{File: prog, Line: line}); err != nil {
					return err
				}
				res, err := s.Launch(ctx, StartRequest{ScriptPath: prog, Wait: 2 * time.Minute})
				if err != nil {
					return err
				}
				if res.State != StatePaused || res.LastStop.Location.Line != line {
					return fmt.Errorf("launch: %+v", res)
				}
				info := s.Info()
				pids <- info.PID
				pids <- info.AdapterPID
				for pass := 0; pass < 3; pass++ {
					v, err := s.Evaluate(ctx, "i*100 + total", 0, EvalREPL)
					if err != nil {
						return err
					}
					// total is 0, 0+1, 1+2 before add at passes 0, 1, 2.
					if want := strconv.Itoa(pass*100 + pass*(pass-1)/2); v.Result != want {
						return fmt.Errorf("pass %d: i*100+total = %s, want %s", pass, v.Result, want)
					}
					r, err := s.Continue(ctx, 0, time.Minute, WantStop)
					if err != nil {
						return err
					}
					if pass < 2 && (r.State != StatePaused || r.LastStop.Location.Line != line) {
						return fmt.Errorf("continue %d: %+v", pass, r)
					}
				}
				return m.CloseSession(ctx, s.ID())
			}()
		}()
	}
	wg.Wait()
	close(errs)
	close(pids)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	for p := range pids {
		for deadline := time.Now().Add(10 * time.Second); p > 0 && proc.Alive(p); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p))
				t.Errorf("process %d (%q) outlived its session", p, b)
				break
			}
		}
	}
}
