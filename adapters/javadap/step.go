package javadap

import (
	"context"
	"errors"
	"strings"

	godap "github.com/google/go-dap"

	"github.com/dbg-dev/dbg/dap"
)

// stepState is the one step in flight.
type stepState struct {
	req    int32
	thread uint64
	depth  int32
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

func (s *Server) resume(ctx context.Context, _ *godap.ContinueRequest) (*godap.ContinueResponse, error) {
	if s.vm == nil {
		return nil, errors.New("no program is being debugged")
	}
	s.clearStep(ctx)
	dap.AfterResponse(ctx, func() {
		if err := s.resumeVM(ctx); err != nil {
			s.console("continue: " + err.Error())
		}
	})
	return &godap.ContinueResponse{Body: godap.ContinueResponseBody{AllThreadsContinued: true}}, nil
}

// stepRequest steps thread (the stopped one when 0) by depth: StepOver,
// StepInto or StepOut.
func (s *Server) stepRequest(ctx context.Context, thread int, depth int32) error {
	if s.vm == nil {
		return errors.New("no program is being debugged")
	}
	if !s.stopped {
		return errNotStopped
	}
	t, err := s.thread(thread)
	if err != nil {
		return err
	}
	if err := s.startStep(ctx, t, depth); err != nil {
		return err
	}
	dap.AfterResponse(ctx, func() {
		if err := s.resumeVM(ctx); err != nil {
			s.console("step: " + err.Error())
		}
	})
	return nil
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

func (s *Server) pause(ctx context.Context, req *godap.PauseRequest) (*godap.PauseResponse, error) {
	if s.vm == nil {
		return nil, errors.New("no program is being debugged")
	}
	if s.stopped {
		return nil, nil
	}
	if err := s.vm.SuspendAll(ctx); err != nil {
		return nil, err
	}
	s.suspends++
	// All threads stop; report the main thread when there is one, since
	// the thread a client names first is often a JDK daemon.
	t := s.anyThread(ctx)
	if t == 0 {
		t = s.jdwpThread(req.Arguments.ThreadId)
	}
	s.clearStep(ctx)
	dap.AfterResponse(ctx, func() { s.markStopped(ctx, t, "pause", "Paused", "", nil) })
	return nil, nil
}
