package sessions

import (
	"slices"
	"strings"

	godap "github.com/google/go-dap"

	"github.com/dbg-dev/dbg/dap"
	"github.com/dbg-dev/dbg/textcut"
)

// onEvent runs on the DAP read goroutine: it updates state and wakes
// waiters, and never sends requests.
func (s *Session) onEvent(m *dap.Message) {
	switch m.Event {
	case "initialized":
		s.mu.Lock()
		if s.initDone != nil {
			select {
			case <-s.initDone:
			default:
				close(s.initDone)
			}
		}
		s.mu.Unlock()
	case "stopped":
		var b godap.StoppedEventBody
		_ = m.DecodeBody(&b)
		s.onStopped(b, m)
	case "continued":
		var b godap.ContinuedEventBody
		_ = m.DecodeBody(&b)
		s.mu.Lock()
		if s.state == StatePaused {
			s.setStateLocked(StateRunning, "")
		}
		s.mu.Unlock()
	case "output":
		var b godap.OutputEventBody
		_ = m.DecodeBody(&b)
		cat := b.Category
		if cat == "" {
			cat = "console"
		}
		if cat == "telemetry" || cat == "console" && slices.Contains(s.adapter.Traits().Chatter, strings.TrimSpace(b.Output)) {
			return
		}
		s.writeOutput(cat, b.Output)
		s.mu.Lock()
		s.notifyLocked()
		s.mu.Unlock()
	case "process":
		var b godap.ProcessEventBody
		_ = m.DecodeBody(&b)
		if s.sharedChildEvent(b) {
			return // a child process the adapter follows on this connection (shared.go)
		}
		if b.SystemProcessId > 0 && s.Postmortem() == nil { // a core's pid is the dead process's
			s.mu.Lock()
			s.pid = b.SystemProcessId
			s.watchedDebuggeeLocked()
			s.mu.Unlock()
			// A process event after the start's record: record it again,
			// so a crashed server's successor reaps the debuggee.
			s.background(func() {
				s.trackProcesses()
				s.m.recordProcesses(s)
			})
		}
	case "thread":
		var b godap.ThreadEventBody
		_ = m.DecodeBody(&b)
		s.mu.Lock()
		if b.Reason == "exited" {
			delete(s.threads, b.ThreadId)
		} else {
			s.threads[b.ThreadId] = ""
		}
		s.mu.Unlock()
	case "breakpoint":
		var b godap.BreakpointEventBody
		_ = m.DecodeBody(&b)
		s.mu.Lock()
		if bp := s.bps.byAdapterID(b.Breakpoint.Id); bp != nil && b.Reason != "removed" {
			applyAdapterBreakpoint(bp, b.Breakpoint)
		}
		s.mu.Unlock()
	case "exited":
		var b godap.ExitedEventBody
		_ = m.DecodeBody(&b)
		s.mu.Lock()
		code := b.ExitCode
		s.exitCode = &code
		s.notifyLocked()
		s.m.watch.post(s.id, ChangeState)
		s.mu.Unlock()
	case "terminated":
		s.output.Flush()
		s.mu.Lock()
		reason := "the program ended"
		if s.exitCode != nil {
			reason = s.exitReasonLocked(*s.exitCode)
		}
		s.setStateLocked(StateTerminated, reason)
		s.mu.Unlock()
	}
}

func (s *Session) onStopped(b godap.StoppedEventBody, m *dap.Message) {
	if s.routeStop(b, m) {
		return // a shared family's stop, given to its process's session (shared.go)
	}
	s.stopped(b, m)
}

// stopped records a stop of s.
func (s *Session) stopped(b godap.StoppedEventBody, m *dap.Message) {
	if s.dataStop(b, m) {
		return // recorded once its values are read (databreakpoints.go)
	}
	if s.traceStop(b) {
		return // a trace probe's hit: read and continued, never shown
	}
	s.recordStop(b)
}

// recordStop makes a stop the session's last and wakes its waiters.
func (s *Session) recordStop(b godap.StoppedEventBody) { s.recordStopWith(b, nil) }

// recordStopWith records a stop with what a data breakpoint saw.
func (s *Session) recordStopWith(b godap.StoppedEventBody, data *DataChange) {
	s.mu.Lock()
	defer s.mu.Unlock()
	reason := s.adapter.StopReason(b.Reason)
	if s.state == StateTerminated {
		return
	}
	var ids []int
	temporary := false
	for _, aid := range b.HitBreakpointIds {
		if bp := s.bps.byAdapterID(aid); bp != nil {
			if bp.temporary {
				temporary = true
				continue
			}
			ids = append(ids, bp.ID)
		}
	}
	desc := b.Description
	if reason == "step" && s.pauseAsked && !s.stepping {
		// A pause that lands while the adapter's own plan steps the
		// thread (lldb stepping over a breakpoint as the program starts)
		// comes back with that plan's reason: nobody asked for a step.
		reason, desc = "pause", ""
	}
	s.stepping, s.pauseAsked = false, false
	if temporary && len(ids) == 0 && reason == "breakpoint" {
		reason, desc = RunToLineReason, "" // no breakpoint of the user's: run_to_line's line
	}
	if data != nil {
		// Data breakpoint ids are their own: never a line breakpoint's.
		ids = nil
		if data.BreakpointID != 0 {
			ids = []int{data.BreakpointID}
		}
	}
	tid := b.ThreadId
	if tid == 0 && s.lastStop != nil {
		tid = s.lastStop.ThreadID
	}
	if tid == 0 {
		for id := range s.threads {
			if tid == 0 || id < tid {
				tid = id
			}
		}
	}
	s.stopSeq++
	s.lastStop = &StopInfo{Reason: reason, ThreadID: tid, Description: desc, Text: strings.TrimSpace(b.Text),
		HitBreakpoint: ids, Time: s.m.cfg.Now(), Data: data}
	// A stop of a debuggee that is gone ("no such process") is its end:
	// whoever waits for the stop, or looks at the session, sees to that
	// (waitStop, Info), while the stop's stack is read.
	s.setStateLocked(StatePaused, "")
	s.prefetchStopLocked()
}

// onConnClosed runs when the adapter's stream ends.
func (s *Session) onConnClosed(c *dap.Conn) {
	<-c.Done()
	s.output.Flush()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conn != c || s.state == StateTerminated {
		return
	}
	reason := "the debug adapter exited"
	if s.exitCode != nil {
		reason = s.exitReasonLocked(*s.exitCode)
	} else {
		s.adapterDied = !s.closing // no end of the program came first
		if s.ep != nil && s.ep.Process != nil {
			if tail := strings.TrimSpace(s.ep.Process.StderrTail()); tail != "" {
				reason += ": " + textcut.LastLines(tail, 5)
			}
		}
	}
	s.setStateLocked(StateTerminated, reason)
}
