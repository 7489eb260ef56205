package sessions

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	godap "github.com/google/go-dap"

	"github.com/dbg-dev/dbg/dap"
	"github.com/dbg-dev/dbg/toolkit"
)

// Stop is the answer of continue, step, pause and wait: where the
// session stands when the call returns. Pending means the operation is
// still under way (the program is running) and wait_for_stop will report
// its end.
type Stop struct {
	// SessionID names the session the answer is about, when a wait on
	// several (or on a session and its children) answers for one.
	SessionID string      `json:"sessionId,omitempty"`
	State     State       `json:"state"`
	Pending   bool        `json:"pending,omitempty"`
	LastStop  *StopInfo   `json:"lastStop,omitempty"`
	Source    SourceLines `json:"source,omitempty"` // lines around the stop
	ExitCode  *int        `json:"exitCode,omitempty"`
	Reason    string      `json:"reason,omitempty"`
	Message   string      `json:"message,omitempty"`
	// Changed is what changed in the top frame's locals since its
	// previous stop (null on its first stop; see changed.go), and
	// ChangedNote why it is null.
	Changed     *Changes `json:"changed,omitempty"`
	ChangedNote string   `json:"changedNote,omitempty"`
}

// Default grace periods of operations that wait for a stop.
const (
	stepGrace  = 3 * time.Second
	pauseGrace = 3 * time.Second
)

// MaxWait caps every wait: the waits tool calls ask for, and how long a
// temporary breakpoint waits for its stop.
const MaxWait = 10 * time.Minute

// currentThread is the thread of the last stop, else any known thread.
func (s *Session) currentThread() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lastStop != nil && s.lastStop.ThreadID != 0 {
		return s.lastStop.ThreadID
	}
	best := 0
	for id := range s.threads {
		if best == 0 || id < best {
			best = id
		}
	}
	if best == 0 {
		best = 1
	}
	return best
}

// requirePaused returns the stop sequence and thread to act on.
func (s *Session) requirePaused(threadID int) (int, int, error) {
	if err := s.snapshotError("run or step"); err != nil {
		return 0, 0, err
	}
	s.observe()
	s.mu.Lock()
	defer s.mu.Unlock()
	switch s.state {
	case StatePaused:
	case StateRunning:
		return 0, 0, toolkit.NewError(toolkit.CodeInvalidState, "session "+s.id+" is running", "call pause_execution, or wait_for_stop until it stops")
	case StateTerminated, StateError:
		return 0, 0, toolkit.NewError(toolkit.CodeInvalidState, "session "+s.id+" has ended: "+s.reason, "restart_debugging, or create a new session")
	default:
		return 0, 0, toolkit.NewError(toolkit.CodeInvalidState, fmt.Sprintf("session %s is %s", s.id, s.state), "start it with start_debugging first")
	}
	if threadID == 0 && s.lastStop != nil {
		threadID = s.lastStop.ThreadID
	}
	if threadID == 0 {
		threadID = 1
	}
	return s.stopSeq, threadID, nil
}

// markRunning records that the program resumed, by a step or not, unless
// a stop already arrived after seq.
func (s *Session) markRunning(seq int, step bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopSeq == seq && s.state == StatePaused {
		s.setStateLocked(StateRunning, "")
		s.stepping = step
	}
}

// StepKind says how far a step goes.
type StepKind int

const (
	// StepOver runs to the next line of the same function.
	StepOver StepKind = iota + 1
	// StepInto enters the call on the current line.
	StepInto
	// StepOut runs until the current function returns.
	StepOut
)

// command is the DAP request of the step.
func (k StepKind) command() (string, bool) {
	switch k {
	case StepOver:
		return "next", true
	case StepInto:
		return "stepIn", true
	case StepOut:
		return "stepOut", true
	}
	return "", false
}

// String returns over, into or out.
func (k StepKind) String() string {
	switch k {
	case StepOver:
		return "over"
	case StepInto:
		return "into"
	case StepOut:
		return "out"
	}
	return fmt.Sprintf("StepKind(%d)", int(k))
}

// Step steps the paused thread (0: the stopped one), waits up to grace
// for the new location and answers it as want says.
func (s *Session) Step(ctx context.Context, kind StepKind, threadID int, grace time.Duration, want Want) (*Stop, error) {
	command, ok := kind.command()
	if !ok {
		return nil, toolkit.NewError(toolkit.CodeInvalidArgument, "unknown step "+kind.String(), "step over, into or out")
	}
	seq, tid, err := s.requirePaused(threadID)
	if err != nil {
		return nil, err
	}
	if grace <= 0 {
		grace = stepGrace
	}
	wctx, cancel := context.WithTimeout(ctx, grace)
	defer cancel()
	if err := s.resume(ctx, wctx, seq, command, map[string]any{"threadId": tid}); err != nil {
		return nil, err
	}
	return s.answer(ctx, wctx, seq, want), nil
}

// resume sends a request that resumes the program paused at stop seq (a
// step) without waiting for its response before the stop it leads to: the
// stop's stack read goes out as soon as the stop arrives, whichever of the
// response and the stop comes first. It returns when the response came,
// or a newer stop or the end, or wctx ended; a failed response while no
// stop came (and the session lives) leaves the session paused at seq and
// is the error.
func (s *Session) resume(ctx, wctx context.Context, seq int, command string, args any) error {
	c, err := s.connection()
	if err != nil {
		return err
	}
	s.markRunning(seq, true)
	done, err := s.onTarget(ctx, command)
	if err != nil {
		s.unmarkRunning(seq)
		return err
	}
	call, err := c.Start(ctx, command, args)
	done()
	if err != nil {
		s.unmarkRunning(seq)
		return s.requestError(ctx, err)
	}
	answered := false
	moved := s.await(wctx, func() bool {
		if s.stopSeq > seq || s.state == StateTerminated || s.state == StateError {
			return true // the response may still come; nobody waits for it
		}
		select {
		case <-call.Done():
			answered = true
		default:
		}
		return answered
	}, call.Done())
	switch {
	case answered:
		if _, err := call.Wait(ctx, 0); err != nil && !errors.Is(err, dap.ErrClosed) && !s.ended() {
			s.unmarkRunning(seq)
			return s.requestError(ctx, err)
		}
		return nil // done, or the adapter's end (the session's) is the answer
	case moved:
		return nil
	}
	// The grace is over with no stop. "Running" is an answer only once
	// the adapter has taken the step: wait for its response (the request's
	// own deadline bounds it).
	if _, err := call.Wait(ctx, s.m.cfg.RequestTimeout); err != nil && !errors.Is(err, dap.ErrClosed) && !s.ended() && s.stopSeqIs(seq) {
		s.unmarkRunning(seq)
		return s.requestError(ctx, err)
	}
	return nil
}

// stopSeqIs reports whether no stop came after seq.
func (s *Session) stopSeqIs(seq int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stopSeq == seq
}

// unmarkRunning undoes markRunning(seq) for a resume the adapter refused,
// unless something happened since.
func (s *Session) unmarkRunning(seq int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopSeq == seq && s.state == StateRunning {
		s.setStateLocked(StatePaused, "")
	}
}

// Continue resumes the program. With wait > 0 it waits that long for the
// next stop, answered as want says. A program that runs already runs on:
// the answer is the one a resume would give.
func (s *Session) Continue(ctx context.Context, threadID int, wait time.Duration, want Want) (*Stop, error) {
	if s.State() == StateRunning {
		if wait <= 0 {
			return &Stop{State: StateRunning, Pending: true, Message: "already " + RunningMessage}, nil
		}
		return s.WaitForStop(ctx, wait, want)
	}
	seq, tid, err := s.requirePaused(threadID)
	if err != nil {
		return nil, err
	}
	if err := s.request(ctx, "continue", godap.ContinueArguments{ThreadId: tid}, nil); err != nil {
		return nil, err
	}
	s.markRunning(seq, false)
	if wait <= 0 {
		if s.checkDebuggee(ctx) {
			return s.result(ctx, s.Info(), true, want), nil
		}
		return &Stop{State: StateRunning, Pending: true, Message: RunningMessage}, nil
	}
	wctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	return s.answer(ctx, wctx, seq, want), nil
}

// Pause interrupts a running program and answers its stop as want says.
func (s *Session) Pause(ctx context.Context, threadID int, grace time.Duration, want Want) (*Stop, error) {
	if err := s.snapshotError("pause: it never runs"); err != nil {
		return nil, err
	}
	s.mu.Lock()
	st, seq := s.state, s.stopSeq
	s.mu.Unlock()
	switch st {
	case StatePaused:
		return s.result(ctx, s.Info(), true, want), nil
	case StateRunning:
	default:
		return nil, toolkit.NewError(toolkit.CodeInvalidState, fmt.Sprintf("session %s is %s", s.id, st), "pause works on a running program")
	}
	if threadID == 0 {
		threadID = s.currentThread()
	}
	s.mu.Lock()
	s.pauseAsked = true
	s.mu.Unlock()
	if err := s.request(ctx, "pause", godap.PauseArguments{ThreadId: threadID}, nil); err != nil {
		s.mu.Lock()
		s.pauseAsked = false
		s.mu.Unlock()
		return nil, err
	}
	if grace <= 0 {
		grace = pauseGrace
	}
	wctx, cancel := context.WithTimeout(ctx, grace)
	defer cancel()
	return s.answer(ctx, wctx, seq, want), nil
}

// WaitForStop blocks up to timeout for the next stop or the end, answered
// as want says. A session that is already paused answers at once.
func (s *Session) WaitForStop(ctx context.Context, timeout time.Duration, want Want) (*Stop, error) {
	s.mu.Lock()
	st, seq := s.state, s.stopSeq
	s.mu.Unlock()
	if st == StateCreated {
		return nil, toolkit.NewError(toolkit.CodeInvalidState, "session "+s.id+" has not started", "call start_debugging first")
	}
	if st == StatePaused {
		seq-- // report the current stop
	}
	wctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	info, done := s.waitStop(ctx, wctx, seq)
	r := s.result(ctx, info, done, want)
	if !done {
		r.Message = fmt.Sprintf("no stop within %s; still running", timeout)
	}
	return r, nil
}

// RunToLineReason is the reason of the stop at the line run_to_line ran
// to (its temporary breakpoint, which the stop does not name).
const RunToLineReason = "run to line"

// RunToLine runs until file:line (a temporary breakpoint, unless one is
// already there) or another stop, answered as want says.
func (s *Session) RunToLine(ctx context.Context, file string, line, threadID int, grace time.Duration, want Want) (*Stop, error) {
	if _, _, err := s.requirePaused(threadID); err != nil {
		return nil, err
	}
	abs, _ := filepath.Abs(file)
	temp := 0
	exists := false
	for _, b := range s.Breakpoints() {
		if b.File == abs && (b.Line == line || b.ActualLine == line) {
			exists = true
		}
	}
	if !exists {
		bp, err := s.SetBreakpoint(ctx, BreakpointSpec{File: file, Line: line})
		if err != nil {
			return nil, err
		}
		if !bp.Verified {
			_ = s.RemoveBreakpoint(ctx, bp.ID)
			return nil, toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("line %d of %s cannot hold a breakpoint: %s", line, file, bp.Message), "pick a line with code")
		}
		temp = bp.ID
		s.mu.Lock()
		if b := s.bps.byID(temp); b != nil {
			b.temporary = true
		}
		s.mu.Unlock()
	}
	if grace <= 0 {
		grace = 10 * time.Second
	}
	s.mu.Lock()
	seq := s.stopSeq
	s.mu.Unlock()
	res, err := s.Continue(ctx, threadID, grace, want)
	if temp == 0 {
		return res, err
	}
	if err != nil || !res.Pending {
		s.removeTemporary(context.WithoutCancel(ctx), temp)
		return res, err
	}
	// Still running: remove the temporary breakpoint at the next stop.
	s.background(func() {
		wctx, cancel := context.WithTimeout(s.life, MaxWait)
		defer cancel()
		s.waitStop(wctx, wctx, seq)
		s.removeTemporary(wctx, temp)
	})
	return res, nil
}

// removeTemporary removes run_to_line's breakpoint id, unless a
// set_breakpoint at its line made it the caller's meanwhile.
func (s *Session) removeTemporary(ctx context.Context, id int) {
	s.mu.Lock()
	bp := s.bps.byID(id)
	temp := bp != nil && bp.temporary
	s.mu.Unlock()
	if temp {
		_ = s.RemoveBreakpoint(ctx, id)
	}
}
