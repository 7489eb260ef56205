package sessions

import (
	"context"
	"sync"
)

// Change says what of a session changed, as [Manager.Watch] reports it.
type Change string

// Changes a watcher is told of.
const (
	// ChangeState: the session's state moved (a stop, a resume, the
	// program's exit, the session's end).
	ChangeState Change = "state"
	// ChangeOutput: the program or its adapter wrote output.
	ChangeOutput Change = "output"
)

// Watch calls f after every change of every session, until the returned
// function is called or the manager shuts down. Each watcher has its own
// goroutine: f never runs with a session's lock held (it may call the
// session) and a slow f delays only its own reports. Reports coalesce:
// after a change f is called at least once for that session and kind,
// but a burst of output may be one call. The returned function waits
// for a call in progress to end.
func (m *Manager) Watch(f func(sessionID string, c Change)) (stop func()) {
	w := &watcher{f: f, pending: map[watchKey]bool{}, wake: make(chan struct{}, 1), done: make(chan struct{}), ended: make(chan struct{})}
	m.watch.mu.Lock()
	if m.watch.closed {
		m.watch.mu.Unlock()
		return func() {}
	}
	if m.watch.all == nil {
		m.watch.all = map[*watcher]bool{}
	}
	m.watch.all[w] = true
	m.watch.mu.Unlock()
	go w.run()
	return func() {
		m.watch.mu.Lock()
		delete(m.watch.all, w)
		m.watch.mu.Unlock()
		w.stop()
	}
}

// watchers are a manager's watchers.
type watchers struct {
	mu     sync.Mutex
	all    map[*watcher]bool
	closed bool
}

type watchKey struct {
	id string
	c  Change
}

type watcher struct {
	f     func(string, Change)
	wake  chan struct{} // one pending wake-up
	done  chan struct{} // closed by stop
	ended chan struct{} // closed when run returns
	once  sync.Once

	mu      sync.Mutex
	pending map[watchKey]bool
	order   []watchKey
}

// post tells every watcher of a change. It never blocks, so it may run
// with a session's lock held.
func (ws *watchers) post(id string, c Change) {
	if id == "" {
		return
	}
	ws.mu.Lock()
	defer ws.mu.Unlock()
	for w := range ws.all {
		w.post(watchKey{id, c})
	}
}

// closeAll stops every watcher (the manager shuts down).
func (ws *watchers) closeAll() {
	ws.mu.Lock()
	all := ws.all
	ws.all, ws.closed = nil, true
	ws.mu.Unlock()
	for w := range all {
		w.stop()
	}
}

func (w *watcher) post(k watchKey) {
	w.mu.Lock()
	if !w.pending[k] {
		w.pending[k] = true
		w.order = append(w.order, k)
	}
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

func (w *watcher) run() {
	defer close(w.ended)
	for {
		select {
		case <-w.done:
			return
		case <-w.wake:
		}
		w.mu.Lock()
		batch := w.order
		w.order, w.pending = nil, map[watchKey]bool{}
		w.mu.Unlock()
		for _, k := range batch {
			select {
			case <-w.done:
				return
			default:
			}
			w.f(k.id, k.c)
		}
	}
}

func (w *watcher) stop() {
	w.once.Do(func() { close(w.done) })
	<-w.ended
}

// StopInfo returns the session's summary with its last stop's location
// and exception text resolved when it is paused (one stackTrace request
// per stop, shared with the stop answers), for a watcher told of a
// stop.
func (s *Session) StopInfo(ctx context.Context) SessionInfo {
	if s.State() == StatePaused {
		s.resolveStop(ctx)
	}
	return s.Info()
}
