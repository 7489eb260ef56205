package sessions

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"

	godap "github.com/google/go-dap"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/proc"
	"github.com/dbg-dev/dbg/toolkit"
)

// Detach ends the debug connection and leaves the target running (or
// terminates it when terminate is set).
func (s *Session) Detach(ctx context.Context, terminate bool) error {
	s.mu.Lock()
	ep, conn, st := s.ep, s.conn, s.state
	s.mu.Unlock()
	if st == StateTerminated && conn != nil {
		// Already ended (the program exited, or a detach whose answer
		// was lost is retried): let go of the adapter, if still there,
		// and keep the reason the session ended with.
		if pid := s.Info().PID; terminate && pid > 0 && proc.Exists(pid) {
			return toolkit.NewError(toolkit.CodeInvalidState, fmt.Sprintf("session %s has ended, but its target (pid %d) still runs", s.id, pid),
				fmt.Sprintf("dbg no longer holds it; stop it yourself (kill %d)", pid))
		}
		if ep != nil {
			s.stopEndpoint(ctx, ep, false)
			s.mu.Lock()
			s.ep = nil
			s.mu.Unlock()
		}
		return nil
	}
	if conn == nil {
		return toolkit.NewError(toolkit.CodeInvalidState, "session "+s.id+" is not attached", "attach_to_process first")
	}
	if p := s.sharedParent(); p != nil {
		return toolkit.NewError(toolkit.CodeInvalidState, "session "+s.id+" is a process its parent's adapter follows", "detach the parent, "+p.id+", which lets go of both")
	}
	if !terminate {
		s.letGo(ctx, st)
	}
	s.disconnect(ctx, terminate)
	s.stopEndpoint(ctx, ep, terminate)
	s.mu.Lock()
	s.ep = nil
	reason := "detached; the target keeps running"
	if terminate {
		reason = "detached and terminated the target"
	}
	s.detached = !terminate
	s.setStateLocked(StateTerminated, reason)
	s.mu.Unlock()
	return nil
}

// disconnect asks the adapter to end the session, briefly.
func (s *Session) disconnect(ctx context.Context, terminate bool) {
	s.mu.Lock()
	conn := s.conn
	s.mu.Unlock()
	if conn == nil || conn.Err() != nil {
		return
	}
	dctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	_, _ = conn.Request(dctx, "disconnect", godap.DisconnectArguments{TerminateDebuggee: terminate, Restart: false})
}

// stopEndpoint closes the adapter and kills what it started: the
// adapter's own process group and every descendant (debuggees that
// adapters put in groups of their own), and for launches the debuggee the
// adapter reported.
func (s *Session) stopEndpoint(ctx context.Context, ep *adapters.Endpoint, launched bool) {
	if ep == nil {
		return
	}
	s.trackProcesses()
	doomed := s.trackedAlive()
	s.mu.Lock()
	pid := s.pid
	s.mu.Unlock()
	if launched && pid > 0 && pid != os.Getpid() {
		doomed = append(doomed, pid)
		doomed = append(doomed, proc.Descendants(pid)...)
	}
	if launched {
		doomed = append(doomed, marked(s.mark)...)
	} else {
		// Never kill the attached target or its children.
		doomed = exclude(doomed, pid, proc.Descendants(pid))
	}
	ep.Close(ctx)
	proc.KillAll(doomed)
	if launched {
		// What was started while the adapter stopped.
		proc.KillAll(marked(s.mark))
	}
	s.m.forgetProcesses(s)
}

func exclude(pids []int, keep int, keepMore []int) []int {
	skip := map[int]bool{keep: true}
	for _, p := range keepMore {
		skip[p] = true
	}
	out := pids[:0]
	for _, p := range pids {
		if !skip[p] {
			out = append(out, p)
		}
	}
	return out
}

// Restart relaunches with the same configuration; breakpoints are kept.
func (s *Session) Restart(ctx context.Context) (*StartResult, error) {
	if err := s.snapshotError("restart"); err != nil {
		return nil, err
	}
	s.mu.Lock()
	req := s.launchReq
	t := s.target
	ep := s.ep
	s.mu.Unlock()
	if req == nil {
		return nil, toolkit.NewError(toolkit.CodeInvalidState, "session "+s.id+" was not launched", "restart_debugging works for sessions started with start_debugging")
	}
	s.disconnect(ctx, true)
	s.stopEndpoint(ctx, ep, t.Mode == adapters.Launch)
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		return nil, toolkit.NewError(toolkit.CodeSessionNotFound, "session "+s.id+" was closed", "create a new session")
	}
	s.resetLocked()
	s.mu.Unlock()
	return s.Launch(ctx, *req)
}

// CloseSession ends a session: it disconnects, kills the adapter and (for
// launch) the debuggee's whole process group, and forgets the session.
func (m *Manager) CloseSession(ctx context.Context, id string) error {
	s, err := m.Get(id)
	if err != nil {
		m.mu.Lock()
		was := m.closedIDs[id]
		m.mu.Unlock()
		if was {
			return toolkit.NewError(toolkit.CodeSessionNotFound, "session "+id+" is already closed", "nothing to do; list_debug_sessions shows the open sessions")
		}
		return err
	}
	peers := m.groupPeers(s)
	s.close(ctx)
	m.mu.Lock()
	delete(m.sessions, s.id)
	m.closedIDs[s.id] = true
	m.mu.Unlock()
	m.pool.ended(s)
	m.closePeers(ctx, peers)
	return nil
}

func (s *Session) close(ctx context.Context) {
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		return
	}
	s.closing = true
	ep, launched, children := s.ep, s.target.Mode == adapters.Launch || s.owned, append([]string(nil), s.children...)
	s.mu.Unlock()
	for _, c := range children {
		_ = s.m.CloseSession(ctx, c)
	}
	s.end()
	s.bg.Wait() // process tracking and records finish before the cleanup
	if s.sharedParent() != nil {
		// Its connection is its parent's, which ends its process.
		s.mu.Lock()
		s.conn = nil
		s.setStateLocked(StateTerminated, "closed")
		s.releaseDebuggeeLocked()
		s.mu.Unlock()
		return
	}
	wakeAdapter(ep)
	if !launched && ep != nil {
		s.mu.Lock()
		st := s.state
		s.mu.Unlock()
		if st == StatePaused || st == StateRunning {
			s.letGo(ctx, st)
		}
	}
	s.disconnect(ctx, launched)
	s.stopEndpoint(ctx, ep, launched)
	s.mu.Lock()
	if s.conn != nil {
		_ = s.conn.Close()
	}
	s.ep = nil
	s.setStateLocked(StateTerminated, "closed")
	s.releaseDebuggeeLocked()
	s.mu.Unlock()
}

// wakeAdapter resumes an adapter process that is stopped (SIGSTOP, a
// job-control stop), so that it can answer the disconnect and the polite
// stop; the firm SIGKILL of stopEndpoint follows if it does not.
func wakeAdapter(ep *adapters.Endpoint) {
	if ep == nil || ep.Process == nil {
		return
	}
	pid := ep.Process.Pid()
	if st, err := proc.ReadStat(pid); err == nil && st.State == 'T' {
		_ = syscall.Kill(pid, syscall.SIGCONT)
	}
}

// resetLocked returns an ended session to "created", dropping its old
// connection, so it can launch or attach again. Callers hold mu.
func (s *Session) resetLocked() {
	if s.conn != nil {
		_ = s.conn.Close()
	}
	s.conn, s.ep = nil, nil
	s.state, s.reason, s.detached = StateCreated, "", false
	s.stepping, s.pauseAsked = false, false
	s.notifyLocked()
}

// letGo readies an attached target, in state st, for the adapter to let
// go of it: a debug server that outlives the session (a multi-client
// dlv) keeps the program as it is left, so every breakpoint is taken out
// first, so that none stops it with nobody attached, and a paused
// program is resumed.
func (s *Session) letGo(ctx context.Context, st State) {
	s.unsetBreakpoints(ctx, st == StatePaused)
	if st == StatePaused {
		_ = s.request(ctx, "continue", godap.ContinueArguments{ThreadId: s.currentThread()}, nil)
	}
}

// unsetBreakpoints tells the adapter to drop every breakpoint of the
// session (line, function, data and exception ones), briefly, keeping
// them in the session's own list. An adapter that must not change
// breakpoints while its program runs (lldb, see
// [adapters.Traits.PausedBreakpoints]) is asked only while paused: its
// own detach takes them out.
func (s *Session) unsetBreakpoints(ctx context.Context, paused bool) {
	if !paused && s.adapter.Traits().PausedBreakpoints {
		return
	}
	s.mu.Lock()
	files := make([]string, 0, len(s.bps.byFile))
	for f, list := range s.bps.byFile {
		if len(list) > 0 {
			files = append(files, f)
		}
	}
	funcs, data := len(s.bps.funcs) > 0, len(s.bps.data.items) > 0
	s.mu.Unlock()
	exc := len(s.exceptionFilters()) > 0
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	for _, f := range files {
		_ = s.request(ctx, "setBreakpoints", godap.SetBreakpointsArguments{Source: godap.Source{Path: f, Name: filepath.Base(f)}, Breakpoints: []godap.SourceBreakpoint{}}, nil)
	}
	if funcs {
		_ = s.request(ctx, "setFunctionBreakpoints", godap.SetFunctionBreakpointsArguments{Breakpoints: []godap.FunctionBreakpoint{}}, nil)
	}
	if data {
		_ = s.request(ctx, "setDataBreakpoints", godap.SetDataBreakpointsArguments{Breakpoints: []godap.DataBreakpoint{}}, nil)
	}
	if exc {
		_ = s.request(ctx, "setExceptionBreakpoints", godap.SetExceptionBreakpointsArguments{Filters: []string{}}, nil)
	}
}
