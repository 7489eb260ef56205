package ide

import (
	"context"

	"github.com/dbg-dev/dbg/sessions"
)

// DebugResult is the answer of debug_run_configuration.
type DebugResult struct {
	ConfigurationName string `json:"configurationName"`
	SessionID         string `json:"sessionId,omitempty"`
	Language          string `json:"language,omitempty"`
}

func (x *IDE) debugConfiguration(ctx context.Context, in ConfigurationInput) (DebugResult, error) {
	return DebugResult{}, sessions.NewError(sessions.CodeInternal, "not implemented yet", "")
}
