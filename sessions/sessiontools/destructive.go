package sessiontools

import (
	"context"
	"encoding/json"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
)

// The toolsets of the session tools besides core.
const (
	// ObserveToolset holds the tools that watch a program without
	// stopping it at every line: traces and data breakpoints.
	ObserveToolset = "observe"
	// LiveToolset holds the tools that change the running program: a
	// variable's value, its code, its next statement, a frame's restart.
	LiveToolset = "live"
	// MoreToolset holds the session tools an agent needs less often than
	// core's: threads, scopes, run to a line, exception breakpoints,
	// clearing breakpoints, the languages.
	MoreToolset = "more"
)

// declareToolsets declares the observe, live, more and remote toolsets; a server lists
// them when asked (--toolsets, enable_toolset).
func declareToolsets(tb *toolkit.Toolbox) {
	tb.DeclareToolset(toolkit.Toolset{Name: ObserveToolset, Description: "traces and data breakpoints"})
	tb.DeclareToolset(toolkit.Toolset{Name: LiveToolset, Description: "live edits: set a variable, restart a frame, hot reload, go to a line"})
	tb.DeclareToolset(toolkit.Toolset{Name: MoreToolset, Description: "threads, scopes, run to line, exception breakpoints, clear breakpoints, languages"})
	tb.DeclareToolset(sessions.RemoteToolset())
}

// launched says whether a call names a session that launched its
// program: closing it kills the program, closing an attached session
// leaves its target running.
func launched(m *sessions.Manager) func(context.Context, json.RawMessage) bool {
	return func(_ context.Context, args json.RawMessage) bool {
		var in struct {
			SessionID string `json:"sessionId"`
		}
		if json.Unmarshal(args, &in) != nil {
			return false
		}
		s, err := m.Get(in.SessionID)
		return err == nil && s.Info().Mode == string(adapters.Launch)
	}
}

// terminates says whether a detach also terminates its target.
func terminates(_ context.Context, args json.RawMessage) bool {
	var in struct {
		TerminateProcess toolkit.Bool `json:"terminateProcess"`
	}
	return json.Unmarshal(args, &in) == nil && in.TerminateProcess.Or(false)
}

// observing reports whether the server runs with --profile observe,
// which refuses what would change the program even through a tool it
// keeps (a terminating detach, an evaluation with side effects).
func observing(tb *toolkit.Toolbox) bool { return tb.Policy().Profile == toolkit.ProfileObserve }
