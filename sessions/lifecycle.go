package sessions

import (
	"context"
	"time"
)

// CreateRequest creates a session (create_debug_session). With Port,
// ProcessID or an adapterConfig that names a target it attaches at once.
type CreateRequest struct {
	Language          string
	Name              string
	ExecutablePath    string
	Host              string
	Port              int
	ProcessID         int
	Timeout           time.Duration
	VerifyTimeout     time.Duration
	StopOnEntry       *bool
	JustMyCode        *bool
	SourcePaths       []string
	BreakOnExceptions string
	AdapterConfig     map[string]any
}

// StartRequest launches the debuggee of a created session (start_debugging).
type StartRequest struct {
	ScriptPath          string
	Args                []string
	Cwd                 string
	Env                 map[string]string
	DAPLaunchArgs       map[string]any
	AdapterLaunchConfig map[string]any
	BreakOnExceptions   string
	StopOnEntry         bool
}

// StartResult says where a launch or attach stands when the call returns.
type StartResult struct {
	State    State     `json:"state"`
	Pending  bool      `json:"pending,omitempty"`
	LastStop *StopInfo `json:"lastStop,omitempty"`
	Message  string    `json:"message,omitempty"`
}

// Create makes a session; it attaches when req names a target.
func (m *Manager) Create(ctx context.Context, req CreateRequest) (*Session, error) {
	return nil, NewError(CodeInternal, "not implemented yet", "")
}

// Start launches the program of session id.
func (m *Manager) Start(ctx context.Context, id string, req StartRequest) (*StartResult, error) {
	return nil, NewError(CodeInternal, "not implemented yet", "")
}

// CloseSession ends a session: it disconnects, kills the adapter and (for
// launch) the debuggee's whole process group, and forgets the session.
func (m *Manager) CloseSession(ctx context.Context, id string) error {
	return NewError(CodeInternal, "not implemented yet", "")
}
