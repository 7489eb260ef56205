package javadap

import (
	"context"
	"errors"
	"strings"

	"github.com/dbg-dev/dbg/dap"
)

// stepState is the one step in flight.
type stepState struct {
	req    int32
	thread uint64
	depth  int32
}

type threadArgs struct {
	ThreadID int `json:"threadId"`
}

var errNotStopped = errors.New("the program is running; pause it or wait for a breakpoint first")

// thread returns the JDWP thread a request names, defaulting to the
// stopped thread.
func (s *Server) thread(id int) (uint64, error) {
	if id == 0 {
		if s.stopThread != 0 {
			return s.stopThread, nil
		}
		return 0, errors.New("no thread given")
	}
	t := s.jdwpThread(id)
	if t == 0 {
		return 0, errors.New("unknown threadId")
	}
	return t, nil
}

func (s *Server) resume(ctx context.Context, req *dap.Message) (any, error) {
	if s.vm == nil {
		return nil, errors.New("no program is being debugged")
	}
	s.clearStep(ctx)
	s.conn.Respond(req, map[string]any{"allThreadsContinued": true})
	if err := s.resumeVM(ctx); err != nil {
		s.conn.Event("output", map[string]any{"category": "console", "output": "continue: " + err.Error() + "\n"})
	}
	return nil, errAnswered
}

func (s *Server) stepRequest(ctx context.Context, req *dap.Message) (any, error) {
	if s.vm == nil {
		return nil, errors.New("no program is being debugged")
	}
	if !s.stopped {
		return nil, errNotStopped
	}
	var a threadArgs
	if err := dap.DecodeArgs(req, &a); err != nil {
		return nil, err
	}
	t, err := s.thread(a.ThreadID)
	if err != nil {
		return nil, err
	}
	depth := map[string]int32{"next": StepOver, "stepIn": StepInto, "stepOut": StepOut}[req.Command]
	if err := s.startStep(ctx, t, depth); err != nil {
		return nil, err
	}
	s.conn.Respond(req, nil)
	if err := s.resumeVM(ctx); err != nil {
		s.conn.Event("output", map[string]any{"category": "console", "output": "step: " + err.Error() + "\n"})
	}
	return nil, errAnswered
}

// startStep creates the step request (without resuming).
func (s *Server) startStep(ctx context.Context, t uint64, depth int32) error {
	s.clearStep(ctx)
	mods := []Modifier{{Kind: ModStep, Thread: t, StepSize: StepLine, StepDepth: depth}}
	if s.justMyCode {
		for _, p := range jdkPatterns {
			mods = append(mods, Modifier{Kind: ModClassExclude, Pattern: p})
		}
	}
	mods = append(mods, Modifier{Kind: ModCount, Count: 1})
	id, err := s.vm.SetEvent(ctx, EventSingleStep, SuspendAll, mods...)
	if err != nil {
		return err
	}
	s.step = &stepState{req: id, thread: t, depth: depth}
	return nil
}

func (s *Server) clearStep(ctx context.Context) {
	if s.step != nil {
		_ = s.vm.ClearEvent(ctx, EventSingleStep, s.step.req)
		s.step = nil
	}
}

// stepEvent handles a completed step: synthetic methods (but not lambda
// bodies) are stepped through, anything else stops.
func (s *Server) stepEvent(ctx context.Context, e Event) *stopInfo {
	if s.step == nil || s.step.req != e.RequestID {
		return nil
	}
	if m, ok := s.classes.method(ctx, e.Location.Class, e.Location.Method); ok && m.IsSynthetic() && !strings.HasPrefix(m.Name, "lambda$") {
		depth := StepOut
		if s.step.depth == StepInto {
			depth = StepInto
		}
		if err := s.startStep(ctx, e.Thread, int32(depth)); err == nil {
			return nil
		}
	}
	return &stopInfo{reason: "step", thread: e.Thread}
}

func (s *Server) pause(ctx context.Context, req *dap.Message) error {
	if s.vm == nil {
		return errors.New("no program is being debugged")
	}
	var a threadArgs
	_ = dap.DecodeArgs(req, &a)
	if s.stopped {
		return nil
	}
	if err := s.vm.SuspendAll(ctx); err != nil {
		return err
	}
	s.suspends++
	// All threads stop; report the main thread when there is one, since
	// the thread a client names first is often a JDK daemon.
	t := s.anyThread(ctx)
	if t == 0 {
		t = s.jdwpThread(a.ThreadID)
	}
	s.clearStep(ctx)
	s.conn.Respond(req, nil)
	s.markStopped(ctx, t, "pause", "Paused", "", nil)
	return errAnswered
}
