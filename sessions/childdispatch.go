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

// stopReadTime bounds the reads of a stop that came in time (its stack,
// for the location), even when it came at the end of the wait.
const stopReadTime = 5 * time.Second

// waitLaunched waits up to d for a launched program's first stop. When the
// program runs in a child session (s has no thread of its own, and a
// child), the child's first stop answers, and the message names the child.
// So does the stop of a child session the program started (a Python
// subprocess at a breakpoint) that comes before one of its own.
// Only the wait for the stop is sliced: the stop's location is read with
// the whole of what is left of d.
func (s *Session) waitLaunched(ctx context.Context, d time.Duration) *StartResult {
	deadline := time.Now().Add(d)
	for {
		s.mu.Lock()
		st, seq, ch := s.state, s.stopSeq, s.changed
		s.mu.Unlock()
		left := time.Until(deadline)
		if (st == StatePaused && seq > 0) || st == StateTerminated || st == StateError {
			// waitFirst returns at once; its deadline bounds the reads.
			return s.waitFirst(ctx, 0, max(left, stopReadTime))
		}
		if left <= 0 {
			return s.waitFirst(ctx, 0, time.Millisecond)
		}
		if c := s.dispatchedChild(); c != nil {
			res := c.waitFirst(ctx, 0, left)
			res.Message += " (in child session " + c.id + ", where the program runs)"
			return res
		}
		if c := s.stoppedChild(); c != nil {
			res := c.waitFirst(ctx, 0, max(left, stopReadTime))
			res.Message += " (in child session " + c.id + ")"
			return res
		}
		t := time.NewTimer(min(left, 100*time.Millisecond))
		select {
		case <-ch:
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return s.waitFirst(ctx, 0, time.Millisecond)
		}
		t.Stop()
	}
}

// stoppedChild returns a child session of s that is paused at a stop,
// or nil.
func (s *Session) stoppedChild() *Session {
	s.mu.Lock()
	ids := append([]string(nil), s.children...)
	s.mu.Unlock()
	for _, id := range ids {
		c, err := s.m.Get(id)
		if err != nil {
			continue
		}
		c.mu.Lock()
		stopped := c.state == StatePaused && c.stopSeq > 0
		c.mu.Unlock()
		if stopped {
			return c
		}
	}
	return nil
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
