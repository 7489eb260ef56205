package sessions

import (
	"sync"
	"time"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/dap"
)

// State is a session's state (SPEC §2).
type State string

const (
	StateCreated      State = "created"
	StateInitializing State = "initializing"
	StateRunning      State = "running"
	StatePaused       State = "paused"
	StateTerminated   State = "terminated"
	StateError        State = "error"
)

// Location is a place in the debuggee's source.
type Location struct {
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
	Column   int    `json:"column,omitempty"`
	Function string `json:"function,omitempty"`
	Text     string `json:"text,omitempty"` // the source line, when readable
}

// StopInfo describes the last stop.
type StopInfo struct {
	Reason        string    `json:"reason"`
	ThreadID      int       `json:"threadId,omitempty"`
	Description   string    `json:"description,omitempty"`
	Text          string    `json:"text,omitempty"` // exception message
	Location      *Location `json:"location,omitempty"`
	HitBreakpoint []int     `json:"hitBreakpointIds,omitempty"`
	Time          time.Time `json:"time"`
}

// SessionInfo is a session's summary.
type SessionInfo struct {
	ID         string    `json:"sessionId"`
	Name       string    `json:"name"`
	Language   string    `json:"language"`
	State      State     `json:"state"`
	Mode       string    `json:"mode,omitempty"` // launch | attach
	Program    string    `json:"program,omitempty"`
	Cwd        string    `json:"cwd,omitempty"`
	PID        int       `json:"pid,omitempty"`        // the debuggee, when known
	AdapterPID int       `json:"adapterPid,omitempty"` // the adapter process, when not built in
	CreatedAt  time.Time `json:"createdAt"`
	LastStop   *StopInfo `json:"lastStop,omitempty"`
	Reason     string    `json:"reason,omitempty"` // why it terminated or failed
	ParentID   string    `json:"parentId,omitempty"`

	seq int
}

// Session is one debug session: a DAP connection to an adapter and what
// the manager knows about the debuggee.
//
// Goroutines: the DAP connection's read goroutine delivers events to
// onEvent, which only updates state under mu and wakes waiters; tool
// calls run on the caller's goroutine and block only on DAP requests
// (with deadlines) or on waits that select on their context.
type Session struct {
	m        *Manager
	id       string
	seq      int
	name     string
	language string
	adapter  adapters.Adapter
	output   *OutputRing

	mu      sync.Mutex
	state   State
	reason  string
	created time.Time
	target  adapters.Target
	conn    *dap.Conn
	ep      *adapters.Endpoint
}

// ID returns the session id.
func (s *Session) ID() string { return s.id }

// Language returns the canonical language.
func (s *Session) Language() string { return s.language }

// Output returns the session's captured output (debuggee and adapter).
func (s *Session) Output() *OutputRing { return s.output }

// Info returns the session summary.
func (s *Session) Info() SessionInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	return SessionInfo{ID: s.id, Name: s.name, Language: s.language, State: s.state, Reason: s.reason,
		CreatedAt: s.created, Mode: string(s.target.Mode), Program: s.target.Program, Cwd: s.target.Cwd, seq: s.seq}
}
