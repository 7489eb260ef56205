package sessiontools

import (
	"context"

	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
)

type statusIn struct {
	ProjectPath string `json:"projectPath,omitempty"`
	SessionID   string `json:"sessionId,omitempty" jsonschema:"this session's view"`
}

// registerStatusTool adds get_debug_tools_status: the sessions of m and
// the part of every contributor registered in tb.Status().
func registerStatusTool(tb *toolkit.Toolbox, m *sessions.Manager) {
	toolkit.AddTool(tb, "get_debug_tools_status", "The project, sessions, JVMs, run configurations, Git, toolsets, capabilities, nextAction.",
		func(ctx context.Context, in statusIn) (sessions.Status, error) {
			st, err := m.BuildStatus(ctx, tb.Status(), in.ProjectPath, in.SessionID)
			if err != nil {
				return sessions.Status{}, err
			}
			return *st, nil
		}, toolkit.Hints{Title: "Debug tools status", ReadOnly: true})
}
