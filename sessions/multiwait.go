package sessions

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/dbg-dev/dbg/toolkit"
)

// A wait on several sessions at once: wait_for_stop on a session waits
// on it and on its child sessions (those it has and those it gets while
// the wait lasts); with sessionIds or all it waits on those sessions and
// their children. It answers the first stop among them, naming its
// session, or, once every session it waits on has ended, that end.

// WaitRequest is a wait_for_stop: on SessionIDs (one, or several), or
// on every session with All.
type WaitRequest struct {
	SessionIDs []string
	All        bool
	Timeout    time.Duration
	// Want says what the answer reads besides the stop.
	Want Want
}

// Wait blocks up to req.Timeout for the first stop among the sessions
// req names and their children, and returns the session that stopped
// (or the one named, when nothing stopped) with its answer. The answer
// names its session (SessionID) unless it is the only one named. A
// session that is paused answers at once: of several, the one that
// stopped first.
func (m *Manager) Wait(ctx context.Context, req WaitRequest) (*Session, *Stop, error) {
	client := toolkit.ClientID(ctx)
	named, err := m.waitTargets(ctx, req)
	if err != nil {
		return nil, nil, err
	}
	ws := &waitSet{m: m, named: named, all: req.All, client: client, base: map[*Session]int{}}
	for _, s := range ws.members() {
		ws.baseOf(s)
	}
	wctx, cancel := context.WithTimeout(ctx, req.Timeout)
	defer cancel()
	s, done := ws.wait(wctx)
	if s == nil {
		s = ws.running()
	}
	info, gone := s.checkedInfo(ctx)
	done = done || gone
	r := s.result(ctx, info, done, req.Want)
	if !done {
		r.Message = fmt.Sprintf("no stop within %s; still running", req.Timeout)
		if len(named) > 1 || req.All {
			r.Message = fmt.Sprintf("no stop within %s in %s; still running", req.Timeout, strings.Join(idsOf(ws.members()), ", "))
		}
	}
	if len(named) > 1 || req.All || s != named[0] {
		r.SessionID = s.id
		if done && s != named[0] && r.State == StatePaused {
			r.Message += " (in session " + s.id + ")"
		}
	}
	return s, r, nil
}

// waitTargets are the sessions a wait names, oldest first.
func (m *Manager) waitTargets(ctx context.Context, req WaitRequest) ([]*Session, error) {
	var out []*Session
	switch {
	case req.All:
		if out = m.topSessions(toolkit.ClientID(ctx)); len(out) == 0 {
			return nil, toolkit.NewError(toolkit.CodeSessionNotFound, "no session to wait on", "create one with create_debug_session").WithNext(toolkit.NextCreateDebugSession)
		}
	default:
		ids := req.SessionIDs
		if len(ids) == 0 {
			ids = []string{""}
		}
		seen := map[*Session]bool{}
		for _, id := range ids {
			s, err := m.GetFor(ctx, id)
			if err != nil {
				return nil, err
			}
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	started := out[:0:0]
	for _, s := range out {
		if s.State() != StateCreated {
			started = append(started, s)
		}
	}
	if len(started) == 0 {
		return nil, toolkit.NewError(toolkit.CodeInvalidState, "session "+out[0].id+" has not started", "call start_debugging first")
	}
	return started, nil
}

// waitSet is what one wait watches.
type waitSet struct {
	m     *Manager
	named []*Session
	all   bool
	// client is the caller's id: all means the sessions it sees.
	client string
	base   map[*Session]int // each member's stop sequence when the wait began
}

// members are the named sessions and their descendants, now.
func (w *waitSet) members() []*Session {
	out := append([]*Session(nil), w.named...)
	if w.all {
		out = w.m.topSessions(w.client)
	}
	for i := 0; i < len(out); i++ {
		out = append(out, w.m.childrenOf(out[i])...)
	}
	return out
}

// baseOf is the stop sequence after which s's stops are new to the wait:
// a session paused when the wait began answers with its current stop.
func (w *waitSet) baseOf(s *Session) int {
	if b, ok := w.base[s]; ok {
		return b
	}
	s.mu.Lock()
	b := s.stopSeq
	if s.state == StatePaused && s.lastStop != s.heldStop {
		b-- // its stop is one the wait answers; a held family member's is not
	}
	s.mu.Unlock()
	w.base[s] = b
	return b
}

// wait returns the member with the first new stop (its location read),
// or, once every member has ended, the first named session; nil when ctx
// ends first. The boolean says whether the wait ended by a stop or an
// end.
func (w *waitSet) wait(ctx context.Context) (*Session, bool) {
	for {
		pulse := w.m.changes()
		members := w.members()
		var first *Session
		var firstAt time.Time
		ended := 0
		for _, s := range members {
			base := w.baseOf(s)
			s.mu.Lock()
			st, seq, ls := s.state, s.stopSeq, s.lastStop
			s.mu.Unlock()
			switch {
			case st == StateTerminated || st == StateError:
				ended++
			case st == StatePaused && seq > base && ls != nil:
				if first == nil || ls.Time.Before(firstAt) {
					first, firstAt = s, ls.Time
				}
			}
		}
		if first != nil {
			first.resolveStop(ctx)
			return first, true
		}
		if ended == len(members) {
			return w.named[0], true
		}
		select {
		case <-pulse:
		case <-ctx.Done():
			return nil, false
		}
	}
}

// running is the first member that has not ended: the one a wait that
// saw no stop answers for.
func (w *waitSet) running() *Session {
	for _, s := range w.members() {
		if !s.ended() {
			return s
		}
	}
	return w.named[0]
}

// topSessions are the sessions without a parent that client sees (see
// visibleTo), oldest first.
func (m *Manager) topSessions(client string) []*Session {
	m.mu.Lock()
	var out []*Session
	for _, s := range m.sessions {
		if s.parentID == "" && s.visibleTo(client) {
			out = append(out, s)
		}
	}
	m.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].seq < out[j].seq })
	return out
}

// childrenOf are s's child sessions that are still open.
func (m *Manager) childrenOf(s *Session) []*Session {
	s.mu.Lock()
	ids := append([]string(nil), s.children...)
	s.mu.Unlock()
	var out []*Session
	m.mu.Lock()
	for _, id := range ids {
		if c, ok := m.sessions[id]; ok {
			out = append(out, c)
		}
	}
	m.mu.Unlock()
	return out
}

func idsOf(list []*Session) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = s.id
	}
	return out
}

// changes returns a channel closed at the next change of any session.
func (m *Manager) changes() <-chan struct{} {
	m.pulseMu.Lock()
	defer m.pulseMu.Unlock()
	if m.pulse == nil {
		m.pulse = make(chan struct{})
	}
	return m.pulse
}

// wake closes the channel of [Manager.changes]. It may run with a
// session's lock held: it takes only pulseMu.
func (m *Manager) wake() {
	m.pulseMu.Lock()
	defer m.pulseMu.Unlock()
	if m.pulse != nil {
		close(m.pulse)
		m.pulse = nil
	}
}

// ForAll runs f (a continue or a pause) on every open session that has
// started and not ended, children included, in turn, and returns each
// answer with its session named; a session f refuses answers its error
// as the message.
func (m *Manager) ForAll(ctx context.Context, f func(context.Context, *Session) (*Stop, error)) []Stop {
	all := m.topSessions(toolkit.ClientID(ctx))
	for i := 0; i < len(all); i++ {
		all = append(all, m.childrenOf(all[i])...)
	}
	out := []Stop{}
	for _, s := range all {
		switch s.State() {
		case StateCreated, StateTerminated, StateError:
			continue
		}
		r, err := f(ctx, s)
		if err != nil {
			r = &Stop{State: s.State(), Message: err.Error()}
		}
		r.SessionID = s.id
		out = append(out, *r)
	}
	return out
}
