package sessions

import (
	"context"

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
