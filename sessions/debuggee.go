package sessions

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/proc"
)

// An adapter does not always notice that its debuggee is gone: delve
// answers a step over a SIGKILLed program with a stop ("no such process")
// and never reports the end. A session therefore watches the debuggee's
// process itself, whatever the adapter, and turns terminated with the
// reason when it is gone: when a request fails, when a stop arrives, on
// every step, continue and evaluate answer, and whenever a paused
// session is looked at.

// debuggeeGoneGrace is how long a running session's adapter gets to
// report the end of a debuggee found gone (with its exit code) before the
// session says so itself. A paused debuggee cannot exit by itself, so
// its end needs no grace.
const debuggeeGoneGrace = 500 * time.Millisecond

// debuggeeID names the debuggee's process for good: a pid and its start
// time, so a reused pid is never taken for the debuggee.
type debuggeeID struct {
	pid   int
	start string // "" when the pid is not visible here (remote, another pid namespace)
	// held are the process's /proc files, open while the session
	// watches it (nil: they are read by path).
	held *proc.Held
}

// watchedDebuggeeLocked returns the debuggee's pid when the session can
// watch it: a pid the adapter reported (or the attached one) that was
// seen alive here. Callers hold mu.
func (s *Session) watchedDebuggeeLocked() (int, bool) {
	if s.core != nil {
		return 0, false // the pid of a core's process is the dead one's
	}
	if s.remote != nil {
		return 0, false // the target's pid, on another machine
	}
	pid := s.pid
	if pid <= 0 && s.target.Mode == adapters.Attach {
		pid = s.target.PID
	}
	if pid <= 0 || pid == os.Getpid() {
		return 0, false
	}
	if s.debuggee.pid != pid {
		s.debuggee.held.Release()
		s.debuggee = debuggeeID{pid: pid}
		if h, err := proc.Hold(pid); err == nil {
			if st, err := h.Stat(); err == nil && !s.closing {
				s.debuggee.held, s.debuggee.start = h, strconv.FormatUint(st.StartTime, 10)
			} else {
				h.Release()
			}
		}
		if s.debuggee.held == nil {
			s.debuggee.start = proc.StartTime(pid)
		}
	}
	return pid, s.debuggee.start != ""
}

// releaseDebuggeeLocked closes the debuggee's held files. Callers hold
// mu.
func (s *Session) releaseDebuggeeLocked() {
	s.debuggee.held.Release()
	s.debuggee.held = nil
}

// debuggeeGoneLocked returns why the watched debuggee is gone, or "" while
// it runs (or cannot be watched). Callers hold mu.
func (s *Session) debuggeeGoneLocked() string {
	if s.state != StatePaused && s.state != StateRunning {
		return ""
	}
	pid, ok := s.watchedDebuggeeLocked()
	if !ok {
		return ""
	}
	gone, how := processEnd(pid, s.debuggee.start, s.debuggee.held)
	if !gone {
		return ""
	}
	return goneReason(pid, how, s.exitCode)
}

// goneReason is the end reason of a session whose debuggee pid is gone.
func goneReason(pid int, how string, exitCode *int) string {
	reason := fmt.Sprintf("the debuggee (pid %d) is gone", pid)
	if how != "" {
		reason += ": " + how
	}
	if exitCode != nil {
		reason += fmt.Sprintf(" (exit code %d)", *exitCode)
	}
	return reason
}

// debuggeeGone is debuggeeGoneLocked with the process read while mu is
// not held, so that nothing else the session does (a stop's stack read,
// an event) waits for /proc. It also returns the state it looked in.
func (s *Session) debuggeeGone() (string, State) {
	s.mu.Lock()
	st := s.state
	if st != StatePaused && st != StateRunning {
		s.mu.Unlock()
		return "", st
	}
	pid, ok := s.watchedDebuggeeLocked()
	start, held := s.debuggee.start, s.debuggee.held
	var exitCode *int
	if s.exitCode != nil {
		code := *s.exitCode
		exitCode = &code
	}
	s.mu.Unlock()
	if !ok {
		return "", st
	}
	gone, how := processEnd(pid, start, held)
	if !gone {
		return "", st
	}
	return goneReason(pid, how, exitCode), st
}

// observe ends a paused session whose debuggee is gone. Callers do not
// hold mu.
func (s *Session) observe() {
	reason, st := s.debuggeeGone()
	if reason == "" || st != StatePaused {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == StatePaused {
		s.setStateLocked(StateTerminated, reason)
	}
}

// checkDebuggee ends the session when its debuggee is gone, after giving a
// running session's adapter debuggeeGoneGrace (bounded by ctx) to report
// the end itself. It reports whether the debuggee was found gone (the
// session has then ended).
func (s *Session) checkDebuggee(ctx context.Context) bool {
	reason, st := s.debuggeeGone()
	paused := st == StatePaused
	if reason == "" {
		return false
	}
	if !paused {
		timer := time.NewTimer(debuggeeGoneGrace)
		defer timer.Stop()
	wait:
		for !s.ended() {
			s.mu.Lock()
			ch := s.changed
			s.mu.Unlock()
			select {
			case <-ch:
			case <-timer.C:
				break wait
			case <-ctx.Done():
				break wait
			}
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == StatePaused || s.state == StateRunning {
		s.setStateLocked(StateTerminated, reason)
	}
	return true
}

// ended reports whether the session is terminated or failed.
func (s *Session) ended() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state == StateTerminated || s.state == StateError
}

// processEnd reports whether the process pid (started at start) is gone
// or dying, and how it ended when that can be read: the exit status of a
// zombie, or a SIGKILL on its way. A process killed while stopped under a
// debugger dies a little after the debugger's next request fails, so
// exiting or a pending SIGKILL counts as gone.
func processEnd(pid int, start string, held *proc.Held) (bool, string) {
	st, err := readStat(pid, held)
	if err != nil || strconv.FormatUint(st.StartTime, 10) != start {
		return true, "" // gone, or the pid now names another process
	}
	if st.ExitStatus >= 0 {
		ws := syscall.WaitStatus(st.ExitStatus)
		switch {
		case ws.Signaled():
			name := unix.SignalName(ws.Signal())
			if name == "" {
				name = ws.Signal().String()
			}
			return true, "killed by " + name
		case ws.Exited():
			return true, fmt.Sprintf("exited with code %d", ws.ExitStatus())
		}
	}
	if pending, err := pendingSignals(pid, held); err == nil && proc.SignalIn(pending, syscall.SIGKILL) {
		return true, "killed by SIGKILL"
	}
	return st.Exiting(), ""
}

// readStat reads pid's stat through its held file, or by path when
// there is none (or it was released meanwhile).
func readStat(pid int, held *proc.Held) (proc.Stat, error) {
	if held != nil {
		if st, err := held.Stat(); !errors.Is(err, proc.ErrReleased) {
			return st, err
		}
	}
	return proc.ReadStat(pid)
}

// pendingSignals is readStat for the signals pending.
func pendingSignals(pid int, held *proc.Held) (uint64, error) {
	if held != nil {
		if p, err := held.PendingSignals(); !errors.Is(err, proc.ErrReleased) {
			return p, err
		}
	}
	return proc.PendingSignals(pid)
}
