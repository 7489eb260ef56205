package sessions

import (
	"context"
	"time"

	godap "github.com/google/go-dap"
)

// Some adapters run the target in a child session and keep the session
// they were started on as a dispatcher with no threads of its own:
// vscode-js-debug answers "startDebugging" with the program's real session.
// An attach then verifies, and pauses, through that child.

// childThreads returns the first child session of s that reports threads,
// and its threads; nil when there is none yet.
func (s *Session) childThreads(ctx context.Context) (*Session, []godap.Thread) {
	s.mu.Lock()
	ids := append([]string(nil), s.children...)
	s.mu.Unlock()
	for _, id := range ids {
		c, err := s.m.Get(id)
		if err != nil {
			continue
		}
		c.mu.Lock()
		ready := c.conn != nil && (c.state == StateRunning || c.state == StatePaused)
		c.mu.Unlock()
		if !ready {
			continue
		}
		var body godap.ThreadsResponseBody
		if err := c.request(ctx, "threads", nil, &body); err == nil && len(body.Threads) > 0 {
			return c, body.Threads
		}
	}
	return nil, nil
}

// firstSession returns a, or b when a is nil.
func firstSession(a, b *Session) *Session {
	if a != nil {
		return a
	}
	return b
}

// waitLaunched waits up to d for a launched program's first stop. When the
// program runs in a child session (s has no thread of its own, and a
// child), the child's first stop answers, and the message names the child.
func (s *Session) waitLaunched(ctx context.Context, d time.Duration) *StartResult {
	deadline := time.Now().Add(d)
	for {
		slice := min(time.Until(deadline), 100*time.Millisecond)
		res := s.waitFirst(ctx, 0, slice)
		if !res.Pending || time.Until(deadline) <= 0 {
			return res
		}
		if c := s.dispatchedChild(); c != nil {
			res = c.waitFirst(ctx, 0, time.Until(deadline))
			res.Message += " (in child session " + c.id + ", where the program runs)"
			return res
		}
	}
}

// dispatchedChild returns the child session the program runs in when s is
// a dispatcher: s has reported no thread and has a child.
func (s *Session) dispatchedChild() *Session {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.threads) > 0 || len(s.children) == 0 {
		return nil
	}
	c, err := s.m.Get(s.children[0])
	if err != nil {
		return nil
	}
	return c
}
