package sessions

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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

// await blocks until cond, read under s.mu, holds (true), or ctx ends
// (false). Every change of the session wakes it, and so does each channel
// of wake that is closed (cond then reads what the channel says).
func (s *Session) await(ctx context.Context, cond func() bool, wake ...<-chan struct{}) bool {
	for {
		s.mu.Lock()
		ok, ch := cond(), s.changed
		s.mu.Unlock()
		if ok {
			return true
		}
		var w <-chan struct{}
		if len(wake) > 0 {
			w = wake[0]
		}
		select {
		case <-ch:
		case <-w:
		case <-ctx.Done():
			return false
		}
	}
}

// stoppedAfterLocked reports whether the session ended, or is paused at a
// stop newer than seq. Callers hold mu.
func (s *Session) stoppedAfterLocked(seq int) bool {
	return s.state == StateTerminated || s.state == StateError || s.state == StatePaused && s.stopSeq > seq
}

// waitStop blocks until a stop newer than seq (with its location
// resolved, the reads bounded by ctx) or the end of the session, or wctx.
// It returns the session summary and whether the wait ended by a stop or
// an end.
func (s *Session) waitStop(ctx, wctx context.Context, seq int) (SessionInfo, bool) {
	if !s.await(wctx, func() bool { return s.stoppedAfterLocked(seq) }) {
		return s.Info(), false
	}
	s.resolveStop(ctx)
	return s.Info(), true
}

// readContext bounds the reads of a stop: by ctx, and for at least
// stopReadTime even when ctx ends sooner (a stop that came at the end of
// a wait is still read).
func readContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if dl, ok := ctx.Deadline(); ctx.Err() != nil || ok && time.Until(dl) < stopReadTime {
		return context.WithTimeout(context.WithoutCancel(ctx), stopReadTime)
	}
	return context.WithCancel(ctx)
}

// resolveStop fills in the location (and exception text) of the last
// stop, once per stop. A stack that cannot be read leaves the location
// absent and says why (StopInfo.Unlocated); a later answer of the same
// stop tries again.
func (s *Session) resolveStop(ctx context.Context) {
	s.mu.Lock()
	ls, seq := s.lastStop, s.stopSeq
	excInfo := s.caps.SupportsExceptionInfoRequest
	s.mu.Unlock()
	if ls == nil || ls.Location != nil {
		return
	}
	rctx, cancel := readContext(ctx)
	defer cancel()
	var body godap.StackTraceResponseBody
	var loc *Location
	unlocated := ""
	top := frameCache{seq: seq, thread: ls.ThreadID}
	if err := s.request(rctx, "stackTrace", godap.StackTraceArguments{ThreadId: ls.ThreadID, Levels: stopLevels}, &body); err != nil {
		unlocated = "the stack could not be read: " + err.Error()
	} else {
		f := firstUserFrame(body.StackFrames)
		if ls.Reason == "exception" {
			// Report the crash site in the program, not the runtime's
			// panic machinery.
			if own := firstFrameUnder(body.StackFrames, s.programRoot()); own != nil {
				f = own
			} else if own := firstOwnFrame(body.StackFrames); own != nil {
				f = own // a binary (or a core's) built elsewhere: its first frame with source here
			}
		}
		if f != nil {
			loc = s.frameLocation(*f)
			top.id, top.function, top.path = f.Id, f.Name, loc.File
			top.index, top.callers, top.deep = callerChain(body.StackFrames, f, stopLevels)
		} else {
			unlocated = "the stopped thread has no frames"
		}
	}
	text := ls.Text
	if ls.Reason == "exception" && excInfo {
		var ei godap.ExceptionInfoResponseBody
		if err := s.request(rctx, "exceptionInfo", godap.ExceptionInfoArguments{ThreadId: ls.ThreadID}, &ei); err == nil {
			text = firstNonEmpty(ei.Description, firstNonEmpty(text, ei.ExceptionId))
			if ei.ExceptionId != "" && ei.Description != "" {
				text = ei.ExceptionId + ": " + ei.Description
			}
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopSeq == seq && s.lastStop != nil {
		cp := *s.lastStop
		cp.Location, cp.Unlocated = loc, unlocated
		cp.Text = text
		if loc != nil && cp.Reason == "breakpoint" && len(cp.HitBreakpoint) == 0 && s.bps.onlyTemporaryAt(loc.File, loc.Line) {
			// An adapter that names no breakpoint in its stops (lldb,
			// rdbg): the place tells run_to_line's.
			cp.Reason, cp.Description = RunToLineReason, ""
		}
		s.lastStop = &cp
		top.conn = s.conn
		s.topFrame = top
	}
}

// stopLevels is how many frames a stop's stack read asks for.
const stopLevels = 20

// firstUserFrame skips frames without source (runtime internals).
func firstUserFrame(frames []godap.StackFrame) *godap.StackFrame {
	for i := range frames {
		if frames[i].Source != nil && frames[i].Source.Path != "" && frames[i].Line > 0 {
			return &frames[i]
		}
	}
	if len(frames) > 0 {
		return &frames[0]
	}
	return nil
}

// firstFrameUnder returns the first frame whose source lies under root.
func firstFrameUnder(frames []godap.StackFrame, root string) *godap.StackFrame {
	if root == "" {
		return nil
	}
	for i := range frames {
		if frames[i].Source != nil && strings.HasPrefix(frames[i].Source.Path, root+string(filepath.Separator)) {
			return &frames[i]
		}
	}
	return nil
}

// programRoot is the directory of the launched program (or its cwd).
func (s *Session) programRoot() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.target.Cwd != "" {
		return filepath.Clean(s.target.Cwd)
	}
	if p := s.target.Program; p != "" && filepath.IsAbs(p) {
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			return filepath.Clean(p)
		}
		return filepath.Dir(p)
	}
	return ""
}

func (s *Session) frameLocation(f godap.StackFrame) *Location {
	loc := &Location{Line: f.Line, Column: f.Column, Function: f.Name}
	if f.Source != nil {
		loc.File = f.Source.Path
		if loc.File == "" {
			loc.File = f.Source.Name
		}
		loc.Text = s.src.line(loc.File, f.Line)
	}
	return loc
}

// SourceContext is [SourceContext] through the session's source cache.
func (s *Session) SourceContext(path string, line, context int) ([]SourceLine, int) {
	return s.src.context(path, line, context)
}

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

// Want says what a stop answer reads besides the stop itself (its
// location and the source lines around it).
type Want int

const (
	// WantStop reads nothing more: a call dbg makes for itself.
	WantStop Want = iota
	// WantChanged adds changed: what changed in the top frame's locals
	// since that frame's previous stop answer (see changed.go).
	WantChanged
	// WantNoChanged leaves changed out and forgets the frame's earlier
	// view, so that a later answer never compares with a view older than
	// the previous stop.
	WantNoChanged
)

// WantChanges is WantChanged when changed is asked for, else
// WantNoChanged.
func WantChanges(changed bool) Want {
	if changed {
		return WantChanged
	}
	return WantNoChanged
}

// result turns a wait outcome into a Stop: the stop with its source and,
// as want says, changed.
func (s *Session) result(ctx context.Context, info SessionInfo, done bool, want Want) *Stop {
	// Only a stop the session is paused at is described: the last stop
	// of a program that resumed since (and perhaps ended) is history.
	r := &Stop{State: info.State, ExitCode: info.ExitCode}
	switch {
	case info.State.Ended():
		r.Reason = info.Reason
		r.Message = info.Reason
	case info.State.Stopped() && done:
		r.LastStop = info.LastStop
		if l := info.LastStop.Location; l != nil && l.File != "" {
			r.Source, _ = s.SourceContext(l.File, l.Line, stopContext)
		}
		r.Message = StopMessage(info.LastStop)
		if r.State == StatePaused {
			switch want {
			case WantChanged:
				r.Changed, r.ChangedNote = s.StopChanges(ctx, true)
			case WantNoChanged:
				s.StopChanges(ctx, false)
			}
		}
	default:
		r.State = StateRunning
		r.Pending = true
		r.Message = RunningMessage
	}
	return r
}

// StopMessage is the message of a stop's answer: its reason and place.
func StopMessage(ls *StopInfo) string {
	if l := ls.Location; l != nil && l.File != "" {
		return fmt.Sprintf("stopped (%s) at %s:%d", ls.Reason, l.File, l.Line)
	}
	return "stopped (" + ls.Reason + ")"
}

// stopContext is how many lines around a stop its answer holds on each
// side.
const stopContext = 3

// RunningMessage is the message of an answer while the program runs.
const RunningMessage = "running; call wait_for_stop to wait for the next stop"

// StopAnswer is the answer of the stop the session is paused at (or of
// its end), as want says: the answer of a launch or an attach that
// stopped.
func (s *Session) StopAnswer(ctx context.Context, want Want) *Stop {
	return s.result(ctx, s.Info(), true, want)
}

// answer waits (bounded by wctx) for a stop newer than seq and returns
// its answer, once the debuggee was checked: a debuggee that is gone ends
// the session whatever the adapter reported.
func (s *Session) answer(ctx, wctx context.Context, seq int, want Want) *Stop {
	info, done := s.waitStop(ctx, wctx, seq)
	if s.checkDebuggee(ctx) {
		info, done = s.Info(), true
	}
	return s.result(ctx, info, done, want)
}

// requirePaused returns the stop sequence and thread to act on.
func (s *Session) requirePaused(threadID int) (int, int, error) {
	if err := s.snapshotError("run or step"); err != nil {
		return 0, 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.observeLocked()
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

// markRunning records that the program resumed, unless a stop already
// arrived after seq.
func (s *Session) markRunning(seq int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopSeq == seq && s.state == StatePaused {
		s.setStateLocked(StateRunning, "")
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
	s.markRunning(seq)
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
	if _, err := call.Wait(ctx, requestTimeout); err != nil && !errors.Is(err, dap.ErrClosed) && !s.ended() && s.stopSeqIs(seq) {
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
	s.markRunning(seq)
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
	if err := s.request(ctx, "pause", godap.PauseArguments{ThreadId: threadID}, nil); err != nil {
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
	if s.checkDebuggee(ctx) {
		info, done = s.Info(), true
	}
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

// AtStop reports whether loc is where the session is paused: the location
// its stop's answer gave.
func (s *Session) AtStop(loc *Location) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state != StatePaused || s.lastStop == nil || s.lastStop.Location == nil || loc == nil {
		return false
	}
	l := s.lastStop.Location
	return l.File == loc.File && l.Line == loc.Line && l.Function == loc.Function
}
