package sessiontools

import (
	"context"

	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
)

type statusIn struct {
	ProjectPath string `json:"projectPath,omitempty" jsonschema:"project directory (default: the server's project)"`
	SessionID   string `json:"sessionId,omitempty" jsonschema:"report this session's view"`
}

// registerStatusTool adds get_debug_tools_status: the sessions of m and
// the part of every contributor registered in tb.Status().
func registerStatusTool(tb *toolkit.Toolbox, m *sessions.Manager) {
	toolkit.AddTool(tb, "get_debug_tools_status", "One snapshot of everything dbg knows for this project: debug sessions (state, last stop, pid), JVM connections and attachable JVMs, run configurations, Git repositories, each capability's state with a reason, and nextAction with a one-line hint. With sessionId: that session's view.",
		func(ctx context.Context, in statusIn) (sessions.Status, error) {
			st, err := m.BuildStatus(ctx, tb.Status(), in.ProjectPath, in.SessionID)
			if err != nil {
				return sessions.Status{}, err
			}
			return *st, nil
		})
}
