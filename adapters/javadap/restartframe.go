package javadap

import (
	"context"
	"errors"
	"fmt"

	godap "github.com/google/go-dap"

	"github.com/dbg-dev/dbg/dap"
)

// PopFrames pops the frames of a suspended thread up to and including
// frame (StackFrame.PopFrames); the thread then stands at the call that
// made frame, which runs again when it resumes.
func (c *Client) PopFrames(ctx context.Context, thread, frame uint64) error {
	w := c.frameArg(thread, frame)
	return c.send(ctx, "StackFrame.PopFrames", csStackFrame, 4, w)
}

// IsObsolete reports whether method of refType was replaced by a
// redefinition (Method.IsObsolete): a frame running it runs the old code.
func (c *Client) IsObsolete(ctx context.Context, refType, method uint64) (bool, error) {
	w := c.writer()
	w.refType(refType)
	w.method(method)
	return reply(ctx, c, "Method.IsObsolete", csMethod, 4, w, (*Reader).bool)
}

// restartFrame answers DAP restartFrame: the frames up to the one named
// are popped and the thread steps into the call again, stopping at the
// first line of the restarted method.
func (s *Server) restartFrame(ctx context.Context, req *godap.RestartFrameRequest) (*godap.RestartFrameResponse, error) {
	if s.vm == nil {
		return nil, errors.New("no program is being debugged")
	}
	if !s.stopped {
		return nil, errNotStopped
	}
	f, ok := s.refs.frame(req.Arguments.FrameId)
	if !ok {
		return nil, fmt.Errorf("unknown frameId %d (frames are invalid once the program resumes)", req.Arguments.FrameId)
	}
	if err := s.popTo(ctx, f.thread, f.depth); err != nil {
		return nil, err
	}
	dap.AfterResponse(ctx, func() { s.runIntoRestarted(ctx, f.thread) })
	return nil, nil
}

// popTo pops a thread's frames up to and including depth.
func (s *Server) popTo(ctx context.Context, thread uint64, depth int) error {
	fs, err := s.vm.Frames(ctx, thread, 0, -1)
	if err != nil {
		return err
	}
	if depth < 0 || depth >= len(fs) {
		return fmt.Errorf("the thread has no frame at depth %d", depth)
	}
	if depth == len(fs)-1 {
		return errors.New("the bottom frame of a thread cannot be restarted: nothing called it that could call it again")
	}
	err = s.vm.PopFrames(ctx, thread, fs[depth].ID)
	switch {
	case IsErrorCode(err, ErrCodeOpaqueFrame):
		return errors.New("the JVM cannot pop this frame: it or its caller is a native method")
	case IsErrorCode(err, ErrCodeNotImplemented):
		return errors.New("this JVM cannot pop frames (canPopFrames is false)")
	case err != nil:
		return fmt.Errorf("popping the frames: %w", err)
	}
	return nil
}

// runIntoRestarted resumes a thread whose frames were popped with a step
// into the call it stands at: the stop comes at the restarted method's
// first line, with reason "step".
func (s *Server) runIntoRestarted(ctx context.Context, thread uint64) {
	err := s.startStep(ctx, thread, StepInto)
	if err == nil {
		err = s.resumeVM(ctx)
	}
	if err != nil {
		s.console("restart frame: " + err.Error())
	}
}
