package sessions

import (
	"context"
	"sync"
	"testing"
	"time"
)

// A watcher is told of a session's stop, its output and its end, and
// a stopped watcher of nothing more.
func TestWatchReportsStopsOutputAndExit(t *testing.T) {
	t.Parallel()
	m := newTestManager(t)
	var mu sync.Mutex
	seen := map[Change]int{}
	var ids []string
	wake := make(chan struct{}, 1)
	stop := m.Watch(func(id string, c Change) {
		mu.Lock()
		seen[c]++
		ids = append(ids, id)
		mu.Unlock()
		select {
		case wake <- struct{}{}:
		default:
		}
	})
	ctx := context.Background()
	s := mockStopped(t, m)
	waitSeen := func(what string, ok func() bool) {
		t.Helper()
		deadline := time.After(10 * time.Second)
		for {
			mu.Lock()
			done := ok()
			mu.Unlock()
			if done {
				return
			}
			select {
			case <-wake:
			case <-deadline:
				t.Fatalf("no report of %s: %v", what, seen)
			}
		}
	}
	waitSeen("the stop", func() bool { return seen[ChangeState] > 0 })
	if _, err := s.ClearBreakpoints(ctx, ""); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	states := seen[ChangeState]
	mu.Unlock()
	if _, err := s.Continue(ctx, 0, 0, WantStop); err != nil {
		t.Fatal(err)
	}
	if r, err := s.WaitForStop(ctx, 10*time.Second, WantStop); err != nil || r.State != StateTerminated {
		t.Fatalf("end %+v %v", r, err)
	}
	waitSeen("the output and the end", func() bool { return seen[ChangeOutput] > 0 && seen[ChangeState] >= states+2 })
	stop()
	mu.Lock()
	for _, id := range ids {
		if id != s.ID() {
			t.Errorf("a report names session %q, want %q", id, s.ID())
		}
	}
	n := len(ids)
	mu.Unlock()
	s.Output().Write("stdout", "after\n")
	time.Sleep(50 * time.Millisecond) // a report would come from the watcher's goroutine
	mu.Lock()
	defer mu.Unlock()
	if len(ids) != n {
		t.Errorf("a stopped watcher was told of %d more changes", len(ids)-n)
	}
}

// StopInfo answers the location of a stop no answer has asked for: the
// session reads a stop's stack as the stop arrives.
func TestStopInfoResolvesTheLocation(t *testing.T) {
	t.Parallel()
	m := newTestManager(t)
	s := mockStopped(t, m)
	ctx := context.Background()
	s.mu.Lock()
	seq := s.stopSeq
	s.mu.Unlock()
	if _, err := s.Continue(ctx, 0, 0, WantStop); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		s.mu.Lock()
		stopped := s.stopSeq > seq && s.state == StatePaused
		s.mu.Unlock()
		if stopped {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no second stop")
		}
		time.Sleep(5 * time.Millisecond)
	}
	info := s.StopInfo(ctx)
	if info.LastStop == nil || info.LastStop.Location == nil || info.LastStop.Location.Line != 10 {
		t.Fatalf("StopInfo: %+v", info.LastStop)
	}
}
