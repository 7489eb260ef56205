package sessions

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	godap "github.com/google/go-dap"
)

// A stop's answer is built here, once, for every call that runs the
// program or waits for it (Step, Continue, Pause, RunToLine, WaitForStop,
// Manager.Wait, the start paths): the stop with its location, the source
// lines around it and, as Want says, changed. The tools only format it.

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
	return s.result(ctx, info, done, want)
}

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
// It returns the session summary once the debuggee was checked (a
// debuggee that is gone ends the session whatever the adapter reported),
// and whether the wait ended by a stop or an end.
func (s *Session) waitStop(ctx, wctx context.Context, seq int) (SessionInfo, bool) {
	if !s.await(wctx, func() bool { return s.stoppedAfterLocked(seq) }) {
		info, gone := s.checkedInfo(ctx)
		return info, gone
	}
	// The debuggee's process is looked at while the stack is read.
	checked := make(chan struct{})
	go func() {
		defer close(checked)
		s.checkDebuggee(ctx)
	}()
	s.resolveStop(ctx)
	<-checked
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.infoLocked(), true
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

// stopRead is a stop's stack read under way: the callers that come
// meanwhile wait for it rather than send their own.
type stopRead struct {
	seq  int
	done chan struct{}
}

// prefetchStopLocked starts the stack read of the stop just recorded,
// so that it goes out as the stop arrives rather than when a waiter has
// woken: a stop's answer reads its stack first. Callers hold mu.
func (s *Session) prefetchStopLocked() {
	if s.closing {
		return
	}
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		s.resolveStop(s.life) // each request bounded by the connection's deadline
	}()
}

// resolveStop fills in the location (and exception text) of the last
// stop, once per stop: a caller that comes while the read is under way
// waits for it. A stack that cannot be read leaves the location absent
// and says why (StopInfo.Unlocated); a later answer of the same stop
// tries again.
func (s *Session) resolveStop(ctx context.Context) {
	s.mu.Lock()
	ls, seq := s.lastStop, s.stopSeq
	excInfo := s.caps.SupportsExceptionInfoRequest
	if ls == nil || ls.Location != nil {
		s.mu.Unlock()
		return
	}
	if r := s.resolving; r != nil && r.seq == seq {
		s.mu.Unlock()
		rctx, cancel := readContext(ctx) // as long as the caller's own read would take
		defer cancel()
		select {
		case <-r.done:
		case <-rctx.Done():
		}
		return
	}
	r := &stopRead{seq: seq, done: make(chan struct{})}
	s.resolving = r
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		if s.resolving == r {
			s.resolving = nil
		}
		s.mu.Unlock()
		close(r.done)
	}()
	rctx, cancel := readContext(ctx)
	defer cancel()
	// An exception's text is asked for beside the stack: neither waits
	// for the other.
	text := make(chan string, 1)
	if ls.Reason == "exception" && excInfo {
		go func() { text <- s.exceptionText(rctx, ls) }()
	} else {
		text <- ls.Text
	}
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
	exc := <-text
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopSeq == seq && s.lastStop != nil {
		cp := *s.lastStop
		cp.Location, cp.Unlocated = loc, unlocated
		cp.Text = exc
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

// exceptionText is the text of an exception stop: the adapter's
// exceptionInfo, or the stop's own text.
func (s *Session) exceptionText(ctx context.Context, ls *StopInfo) string {
	var ei godap.ExceptionInfoResponseBody
	if err := s.request(ctx, "exceptionInfo", godap.ExceptionInfoArguments{ThreadId: ls.ThreadID}, &ei); err != nil {
		return ls.Text
	}
	if ei.ExceptionId != "" && ei.Description != "" {
		return ei.ExceptionId + ": " + ei.Description
	}
	return firstNonEmpty(ei.Description, firstNonEmpty(ls.Text, ei.ExceptionId))
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
