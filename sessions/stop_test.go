package sessions

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/dap"
)

// How the stack answers of stackMock behave.
const (
	stackAnswers int32 = iota // as the mock answers them
	stackFails                // a failed response
	stackSlow                 // the mock's answer, after stackDelay
)

// stackDelay is longer than the least a stop's reads are given
// (stopReadTime), so that a read that took it was not cut there.
const stackDelay = stopReadTime + time.Second

// stackMock is the mock adapter with its stackTrace responses failed or
// delayed as mode says.
type stackMock struct {
	adapters.Mock
	mode *atomic.Int32
}

func (a stackMock) Start(ctx context.Context, t adapters.Target) (*adapters.Endpoint, error) {
	ep, err := a.Mock.Start(ctx, t)
	if err != nil {
		return nil, err
	}
	pr, pw := io.Pipe()
	conn := ep.Conn
	go func() {
		fr := dap.NewFrameReader(conn)
		for {
			body, err := fr.ReadFrame()
			if err != nil {
				pw.CloseWithError(err)
				return
			}
			var m map[string]any
			if json.Unmarshal(body, &m) == nil && m["type"] == "response" && m["command"] == "stackTrace" {
				switch a.mode.Load() {
				case stackFails:
					m["success"], m["message"] = false, "no stack here"
					delete(m, "body")
					body, _ = json.Marshal(m)
				case stackSlow:
					time.Sleep(stackDelay)
				}
			}
			if dap.WriteFrame(pw, body) != nil {
				return
			}
		}
	}()
	ep.Conn, ep.Child = garbled{conn, pr}, nil
	return ep, nil
}

// stackManager serves the mock through stackMock, and the mode it obeys.
func stackManager(t *testing.T) (*Manager, *atomic.Int32) {
	mode := &atomic.Int32{}
	reg := adapters.NewRegistry()
	reg.Register(stackMock{mode: mode})
	m := NewManager(Config{Adapters: reg, StateDir: t.TempDir()})
	t.Cleanup(func() { m.Shutdown(context.Background()) })
	return m, mode
}

// A stop whose stack cannot be read has no location, and says why; it is
// never "line 0". Its next answer reads the stack again and gives the
// location.
func TestStopWithoutStackHasNoLocation(t *testing.T) {
	t.Parallel()
	m, mode := stackManager(t)
	ctx := context.Background()
	s := mockStopped(t, m)
	mode.Store(stackFails)
	r, err := s.Step(ctx, StepOver, 0, 10*time.Second, WantChanged)
	if err != nil || r.State != StatePaused || r.LastStop == nil {
		t.Fatalf("step: %+v %v", r, err)
	}
	if r.LastStop.Location != nil || !strings.Contains(r.LastStop.Unlocated, "no stack here") || len(r.Source) != 0 {
		t.Fatalf("a stop without its stack answers location %+v (%q), source %v; want none, with the reason", r.LastStop.Location, r.LastStop.Unlocated, r.Source)
	}
	if r.Changed == nil || !r.Changed.First() || r.ChangedNote == "" {
		t.Errorf("changed %+v (%q), want null with the reason", r.Changed, r.ChangedNote)
	}
	if strings.Contains(r.Message, ":0") {
		t.Errorf("message %q names line 0", r.Message)
	}
	mode.Store(stackAnswers)
	again, err := s.WaitForStop(ctx, time.Second, WantStop)
	if err != nil || again.LastStop == nil || again.LastStop.Location == nil || again.LastStop.Location.Line != 11 || again.LastStop.Unlocated != "" {
		t.Fatalf("the same stop answered again: %+v %v, want line 11", again, err)
	}
}

// A stack that takes longer than stopReadTime to come is still read when
// the caller's context allows it: the step answers the right line, not
// one cut at stopReadTime.
func TestStopReadsAsLongAsTheCallerAllows(t *testing.T) {
	t.Parallel()
	m, mode := stackManager(t)
	s := mockStopped(t, m)
	mode.Store(stackSlow)
	ctx, cancel := context.WithTimeout(context.Background(), stackDelay+20*time.Second)
	defer cancel()
	r, err := s.Step(ctx, StepOver, 0, 0, WantStop) // the grace (3 s) ends before the stack comes
	if err != nil || r.State != StatePaused || r.LastStop == nil || r.LastStop.Location == nil || r.LastStop.Location.Line != 11 {
		t.Fatalf("a step whose stack came after %s: %+v %v, want line 11", stackDelay, r, err)
	}
}
