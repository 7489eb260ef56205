package sessions

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	godap "github.com/google/go-dap"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/dap"
)

// Shared children: an adapter that follows a program's children as more
// targets of its one connection (delve's follow-exec, declared by
// adapters.ChildProcesses.Shared) reports each with a "process" event.
// Each becomes a child session on the parent's connection: the family
// stops and resumes together, the adapter answers for one target at a
// time, so a request of a member first makes its process the adapter's
// target (onTarget), and a stop is given to the member whose process
// stopped (routeStop). Breakpoints are the adapter's, for every target:
// a child's are its parent's.

// family is the state a shared family keeps on its first session.
type family struct {
	mu       sync.Mutex // held across a target switch and the request it is for
	selected int        // the pid the adapter answers for
}

// sharedChildEvent makes a child session of a process event that names a
// process other than s's own on an adapter with shared children, and
// reports whether it did. It runs on the read goroutine, so the child
// exists before the events that follow (its stop) are read; it sends no
// request.
func (s *Session) sharedChildEvent(b godap.ProcessEventBody) bool {
	if !s.adapter.Traits().Children.Shared || b.SystemProcessId <= 0 {
		return false
	}
	s.mu.Lock()
	root, mine := s.pid, s.shared == nil && s.parentID == ""
	s.mu.Unlock()
	if !mine || root == 0 || b.SystemProcessId == root {
		return false
	}
	s.openSharedChild(b)
	return true
}

// openSharedChild makes the child session of process b on s's connection.
func (s *Session) openSharedChild(b godap.ProcessEventBody) {
	pid := b.SystemProcessId
	s.mu.Lock()
	closing := s.closing
	s.mu.Unlock()
	if closing {
		return
	}
	child := newSession(s.m, s.language, s.adapter, s.req)
	child.parentID = s.id
	child.owner = s.owner
	child.name = fmt.Sprintf("%s (child %d)", s.name, pid)
	if err := s.m.add(child); err != nil {
		return
	}
	s.mu.Lock()
	if s.family == nil {
		s.family = &family{selected: s.pid}
	}
	conn, caps, owned := s.conn, s.caps, s.target.Mode == adapters.Launch || s.owned
	s.children = append(s.children, child.id)
	s.notifyLocked()
	s.mu.Unlock()
	child.mu.Lock()
	child.shared, child.conn, child.caps, child.owned, child.pid = s, conn, caps, owned, pid
	child.cmdline = strings.Fields(b.Name)
	child.target.Mode, child.target.PID = adapters.Attach, pid
	child.setStateLocked(StateRunning, "")
	child.mu.Unlock()
	child.background(func() { child.reportEnd(s) })
	child.background(child.watchExit)
}

// watchExit ends a shared child session when its process is gone: the
// adapter goes on with the other targets and says nothing.
func (s *Session) watchExit() {
	t := time.NewTicker(childExitPoll)
	defer t.Stop()
	for {
		select {
		case <-t.C:
		case <-s.life.Done():
			return
		}
		s.mu.Lock()
		reason := s.debuggeeGoneLocked()
		if s.state == StateTerminated || s.state == StateError {
			s.mu.Unlock()
			return
		}
		if reason != "" {
			s.setStateLocked(StateTerminated, reason)
			s.mu.Unlock()
			return
		}
		s.mu.Unlock()
	}
}

// childExitPoll is how often a shared child's process is looked at.
const childExitPoll = 200 * time.Millisecond

// sharedRoot returns the session holding s's family: s, or its shared
// parent; nil when s has none.
func (s *Session) sharedRoot() (*Session, *family) {
	s.mu.Lock()
	p, f := s.shared, s.family
	s.mu.Unlock()
	if p == nil {
		return s, f
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p, p.family
}

// sharedParent returns the parent whose connection s shares, or nil.
func (s *Session) sharedParent() *Session {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.shared
}

// members are the open sessions of root's family, root first.
func (root *Session) members() []*Session {
	out := []*Session{root}
	for _, c := range root.m.childrenOf(root) {
		if c.sharedParent() == root {
			out = append(out, c)
		}
	}
	return out
}

// onTarget makes the adapter answer for s's process before a request of
// s in a shared family, and holds the family until the returned function
// is called; a request that resumes the program resumes every member.
// Outside a family it does nothing.
func (s *Session) onTarget(ctx context.Context, command string) (func(), error) {
	root, fam := s.sharedRoot()
	if fam == nil {
		return func() {}, nil
	}
	fam.mu.Lock()
	s.mu.Lock()
	want := s.pid
	s.mu.Unlock()
	if want > 0 && want != fam.selected {
		if sel := s.adapter.Traits().Children.Select; sel != nil {
			if err := sel(ctx, root.replEval(), want); err != nil {
				fam.mu.Unlock()
				return nil, err
			}
			fam.selected = want
		}
	}
	if resumes(command) {
		for _, m := range root.members() {
			if m != s {
				m.mu.Lock()
				if m.state == StatePaused {
					m.setStateLocked(StateRunning, "")
				}
				m.mu.Unlock()
			}
		}
	}
	return fam.mu.Unlock, nil
}

// resumes reports whether a request lets the program run.
func resumes(command string) bool {
	switch command {
	case "continue", "next", "stepIn", "stepOut", "reverseContinue", "stepBack":
		return true
	}
	return false
}

// replEval evaluates in the adapter's REPL on root's connection, as is:
// not through request, which would take the family again.
func (root *Session) replEval() func(ctx context.Context, expr string) (string, error) {
	return func(ctx context.Context, expr string) (string, error) {
		c, err := root.connection()
		if err != nil {
			return "", err
		}
		resp, err := c.Request(ctx, "evaluate", godap.EvaluateArguments{Expression: expr, Context: "repl"})
		if err != nil {
			return "", err
		}
		var body godap.EvaluateResponseBody
		err = resp.DecodeBody(&body)
		return body.Result, err
	}
}

// routeStop gives a stop on the connection of a shared family to the
// member whose process stopped, once the adapter has said which; every
// other member is paused with it. It reports whether it took the stop.
func (s *Session) routeStop(b godap.StoppedEventBody, m *dap.Message) bool {
	s.mu.Lock()
	fam := s.family
	s.mu.Unlock()
	if fam == nil {
		return false
	}
	s.background(func() {
		ctx, cancel := context.WithTimeout(s.life, 5*time.Second)
		defer cancel()
		target := s
		if sel := s.adapter.Traits().Children.Selected; sel != nil {
			fam.mu.Lock()
			if pid, err := sel(ctx, s.replEval()); err == nil {
				fam.selected = pid
				for _, c := range s.members() {
					if c.Info().PID == pid {
						target = c
					}
				}
			}
			fam.mu.Unlock()
		}
		for _, c := range s.members() {
			if c != target {
				c.holdWith(target)
			}
		}
		target.stopped(b, m)
	})
	return true
}

// holdWith pauses s, a member of a shared family, because target stopped:
// its process is stopped too, but it has no stop of its own.
func (s *Session) holdWith(target *Session) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state != StateRunning {
		return
	}
	s.lastStop = &StopInfo{Reason: "pause", Description: "stopped with " + target.id + ": the adapter stops every process it follows together",
		ThreadID: s.currentThreadLocked(), Time: s.m.cfg.Now()}
	s.heldStop = s.lastStop
	s.setStateLocked(StatePaused, "")
}

// currentThreadLocked is the thread of s's last stop, else 1.
func (s *Session) currentThreadLocked() int {
	if s.lastStop != nil && s.lastStop.ThreadID != 0 {
		return s.lastStop.ThreadID
	}
	return 1
}
