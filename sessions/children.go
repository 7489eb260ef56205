package sessions

import (
	"context"
	"fmt"
	"time"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/toolkit"
)

// Child sessions: a program's child processes that its adapter reports
// (startDebugging, reverse.go) become sessions whose parent is the
// program's session. What is set on the parent applies to its children:
// the breakpoints it has when a child starts (cloned) and those set,
// removed or cleared later (below). Closing the parent closes its
// children (teardown.go); a child's end is told to the parent
// (reportEnd); a wait on the parent waits on its children (multiwait.go).

// childOpTimeout bounds one breakpoint change sent on to a child: a child
// that has ended meanwhile must not hold the parent's answer.
const childOpTimeout = 5 * time.Second

// SetBreakpoint adds a breakpoint (see setBreakpoint) to the session and
// to its child sessions.
func (s *Session) SetBreakpoint(ctx context.Context, spec BreakpointSpec) (Breakpoint, error) {
	if err := s.snapshotError("stop at a breakpoint"); err != nil {
		return Breakpoint{}, err
	}
	if p := s.sharedParent(); p != nil {
		return p.SetBreakpoint(ctx, spec) // the adapter's breakpoints are the family's
	}
	bp, err := s.setBreakpoint(ctx, spec)
	if err == nil {
		spec.File = bp.File
		s.eachChild(ctx, func(ctx context.Context, c *Session) { _, _ = c.SetBreakpoint(ctx, spec) })
	}
	return bp, err
}

// RemoveBreakpoint removes one breakpoint by id from the session, and the
// breakpoint at the same place from its child sessions.
func (s *Session) RemoveBreakpoint(ctx context.Context, id int) error {
	if p := s.sharedParent(); p != nil {
		return p.RemoveBreakpoint(ctx, id)
	}
	place, ok := s.breakpointPlace(id)
	if err := s.removeBreakpoint(ctx, id); err != nil || !ok {
		return err
	}
	s.eachChild(ctx, func(ctx context.Context, c *Session) {
		if cid, ok := c.breakpointAt(place); ok {
			_ = c.RemoveBreakpoint(ctx, cid)
		}
	})
	return nil
}

// ClearBreakpoints removes every breakpoint (of one file when file != "")
// from the session and its child sessions.
func (s *Session) ClearBreakpoints(ctx context.Context, file string) (int, error) {
	if p := s.sharedParent(); p != nil {
		return p.ClearBreakpoints(ctx, file)
	}
	n, err := s.clearBreakpoints(ctx, file)
	if err == nil {
		s.eachChild(ctx, func(ctx context.Context, c *Session) { _, _ = c.ClearBreakpoints(ctx, file) })
	}
	return n, err
}

// breakpointPlace returns where breakpoint id is.
func (s *Session) breakpointPlace(id int) (BreakpointSpec, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, bp := range s.bps.all() {
		if bp.ID == id {
			return BreakpointSpec{File: bp.File, Line: bp.Line, Function: bp.Function}, true
		}
	}
	return BreakpointSpec{}, false
}

// breakpointAt returns the id of the breakpoint at place.
func (s *Session) breakpointAt(place BreakpointSpec) (int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if bp := s.bps.find(place); bp != nil {
		return bp.ID, true
	}
	return 0, false
}

// eachChild runs f on each of s's child sessions that still runs, in
// turn, each bounded by childOpTimeout.
func (s *Session) eachChild(ctx context.Context, f func(ctx context.Context, c *Session)) {
	for _, c := range s.m.childrenOf(s) {
		if c.ended() || c.sharedParent() != nil {
			continue // a shared child has its parent's breakpoints
		}
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), childOpTimeout)
		f(cctx, c)
		cancel()
	}
}

// reportEnd waits for the end of child session s and tells its parent:
// a line in the parent's output, and a change its waiters see.
func (s *Session) reportEnd(parent *Session) {
	for {
		s.mu.Lock()
		st, ch := s.state, s.changed
		s.mu.Unlock()
		if st == StateTerminated || st == StateError {
			break
		}
		select {
		case <-ch:
		case <-s.life.Done():
			return // closed: its parent closes it, or knows
		}
	}
	info := s.Info()
	what := info.Reason
	if info.PID > 0 {
		what = fmt.Sprintf("pid %d: %s", info.PID, what)
	}
	parent.output.Write("console", fmt.Sprintf("dbg: child session %s ended (%s)\n", s.id, what))
	parent.mu.Lock()
	parent.notifyLocked()
	parent.mu.Unlock()
	s.m.watch.post(parent.id, ChangeState)
}

// ChildSupport says whether a session follows the processes its program
// starts, and why not (get_debug_tools_status, childProcesses).
type ChildSupport struct {
	Supported bool     `json:"supported"`
	On        bool     `json:"on"` // following, unless childProcesses: false turned it off
	Reason    string   `json:"reason,omitempty"`
	Children  []string `json:"children,omitempty"`
}

// ChildProcesses says whether s follows its program's children.
func (s *Session) ChildProcesses() ChildSupport {
	cp := s.adapter.Traits().Children
	cs := ChildSupport{Supported: cp.Follows, On: cp.Follows && !s.noChildren(), Reason: cp.Reason}
	if cs.Supported && !cs.On {
		cs.Reason = "childProcesses: false at create; " + cp.Reason
	}
	cs.Children = s.Info().Children
	return cs
}

// refuseChildren is the refusal of childProcesses: true for an adapter
// that follows no child process.
func refuseChildren(a adapters.Adapter, req CreateRequest) error {
	cp := a.Traits().Children
	if req.ChildProcesses == nil || !*req.ChildProcesses || cp.Follows {
		return nil
	}
	why := cp.Reason
	if why == "" {
		why = "its adapter reports none"
	}
	return toolkit.NewError(toolkit.CodeUnsupported, fmt.Sprintf("%s sessions cannot follow child processes: %s", a.Language(), why),
		"create the session without childProcesses, and debug each child in a session of its own")
}
