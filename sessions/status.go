package sessions

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/dbg-dev/dbg/toolkit"
)

// Status is the answer of get_debug_tools_status.
type Status struct {
	Project      string                    `json:"project"`
	Sessions     []SessionInfo             `json:"sessions"`
	Session      *SessionView              `json:"session,omitempty"`
	Capabilities []toolkit.CapabilityState `json:"capabilities"`
	Sections     map[string]any            `json:"sections,omitempty"`
	NextAction   string                    `json:"nextAction"`
	Hint         string                    `json:"hint"`
	ElapsedMs    float64                   `json:"elapsedMs"`
}

// SessionView is one session's part of the status.
type SessionView struct {
	SessionInfo
	Breakpoints []Breakpoint `json:"breakpoints"`
}

// statusBudget bounds how long contributors may take; a slow one is
// reported UNKNOWN rather than delaying the answer.
const statusBudget = 250 * time.Millisecond

// BuildStatus assembles the status snapshot of get_debug_tools_status:
// the sessions (or the one sessionID names), and the part of every
// contributor in reg (nil: none).
func (m *Manager) BuildStatus(ctx context.Context, reg *toolkit.StatusRegistry, projectArg, sessionID string) (*Status, error) {
	start := time.Now()
	project, err := m.ResolveProject(projectArg)
	if err != nil {
		return nil, err
	}
	st := &Status{Project: project, Sessions: m.ListFor(ctx, false), Sections: map[string]any{}}
	q := toolkit.StatusQuery{Project: project}
	var focus *SessionInfo
	if sessionID != "" {
		s, err := m.Get(sessionID)
		if err != nil {
			return nil, err
		}
		info := s.Info()
		focus = &info
		q.Session = &toolkit.StatusSession{ID: info.ID, Language: info.Language, PID: info.PID, Program: info.Program, Cwd: info.Cwd}
		st.Session = &SessionView{SessionInfo: info, Breakpoints: s.Breakpoints()}
	}
	var sugg []toolkit.Suggestion
	st.Capabilities = append(st.Capabilities, m.debugCapability(ctx))
	sugg = append(sugg, m.sessionSuggestions(st.Sessions, focus)...)
	for _, p := range reg.Collect(ctx, q, statusBudget) {
		if p.Section != "" {
			st.Sections[p.Section] = p.Data
		}
		st.Capabilities = append(st.Capabilities, p.Capabilities...)
		sugg = append(sugg, p.Suggestions...)
	}
	sort.SliceStable(sugg, func(i, j int) bool { return sugg[i].Priority > sugg[j].Priority })
	st.NextAction, st.Hint = toolkit.NextNone, "nothing to do"
	if len(sugg) > 0 {
		st.NextAction, st.Hint = sugg[0].Action, sugg[0].Hint
	}
	st.ElapsedMs = float64(time.Since(start).Microseconds()) / 1000
	return st, nil
}

func (m *Manager) debugCapability(ctx context.Context) toolkit.CapabilityState {
	m.findMu.Lock()
	found := 0
	for _, e := range m.findCache {
		if e.info.Found {
			found++
		}
	}
	m.findMu.Unlock()
	if found > 0 || len(m.List()) > 0 {
		return toolkit.CapabilityState{Name: "debugSessions", State: toolkit.Available, Reason: fmt.Sprintf("%d session(s) open", len(m.List()))}
	}
	// The mock adapter is built in, so debugging itself is always there.
	return toolkit.CapabilityState{Name: "debugSessions", State: toolkit.Available, Reason: "adapters are probed on first use; list_supported_languages shows which are installed"}
}

func (m *Manager) sessionSuggestions(all []SessionInfo, focus *SessionInfo) []toolkit.Suggestion {
	list := all
	if focus != nil {
		list = []SessionInfo{*focus}
	}
	var out []toolkit.Suggestion
	paused := 0
	for _, s := range list {
		switch s.State {
		case StatePaused:
			paused++
			where := ""
			if s.LastStop != nil && s.LastStop.Location != nil {
				where = fmt.Sprintf(" at %s:%d", s.LastStop.Location.File, s.LastStop.Location.Line)
			}
			out = append(out, toolkit.Suggestion{Action: toolkit.NextInspectStop, Priority: 90,
				Hint: fmt.Sprintf("session %s stopped (%s)%s: read get_local_variables / get_stack_trace, then step or continue", s.ID, reasonOf(s), where)})
		case StateRunning:
			if n := len(m.breakpointsOf(s.ID)); n == 0 {
				out = append(out, toolkit.Suggestion{Action: toolkit.NextSetBreakpoint, Priority: 60, Hint: "session " + s.ID + " runs with no breakpoint: set_breakpoint where you want to stop"})
			} else {
				out = append(out, toolkit.Suggestion{Action: toolkit.NextContinue, Priority: 50, Hint: "session " + s.ID + " runs: trigger the code path, then wait_for_stop"})
			}
		case StateCreated:
			out = append(out, toolkit.Suggestion{Action: toolkit.NextSetBreakpoint, Priority: 55, Hint: "session " + s.ID + " is created: set_breakpoint, then start_debugging"})
		case StateError:
			out = append(out, toolkit.Suggestion{Action: toolkit.NextReconnect, Priority: 70, Hint: "session " + s.ID + " failed: " + s.Reason + "; close it and create a new one"})
		case StateDetached:
			out = append(out, toolkit.Suggestion{Action: toolkit.NextNone, Priority: 5, Hint: "session " + s.ID + " detached; its target runs on: close it, or attach_to_process again"})
		case StateTerminated:
			out = append(out, toolkit.Suggestion{Action: toolkit.NextReconnect, Priority: 20, Hint: "session " + s.ID + " ended (" + s.Reason + "): restart_debugging or close it"})
		}
	}
	if paused > 1 && focus == nil {
		out = append(out, toolkit.Suggestion{Action: toolkit.NextSelectDebuggerSession, Priority: 95, Hint: fmt.Sprintf("%d sessions are paused: pass sessionId to pick one", paused)})
	}
	if len(all) == 0 {
		out = append(out, toolkit.Suggestion{Action: toolkit.NextCreateDebugSession, Priority: 10, Hint: "no debug session: create_debug_session, then set_breakpoint and start_debugging"})
	}
	return out
}

func reasonOf(s SessionInfo) string {
	if s.LastStop == nil {
		return "paused"
	}
	return s.LastStop.Reason
}

func (m *Manager) breakpointsOf(id string) []Breakpoint {
	m.mu.Lock()
	s := m.sessions[id]
	m.mu.Unlock()
	if s == nil {
		return nil
	}
	return s.Breakpoints()
}
