// Package sessions is dbg's session manager: many debug sessions at once,
// each a DAP connection to an adapter plus a few goroutines, with the
// state machine, breakpoints, threads, stop information and output of
// each, and the registry of the processes the server owns outside
// sessions. It speaks the tools' vocabulary (StepOver, not "next") and
// knows nothing of MCP: the debug-session tools are in sessions/sessiontools,
// the tool framework in toolkit.
package sessions

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/toolkit"
)

// Config configures a Manager. Zero values are usable defaults.
type Config struct {
	Adapters  *adapters.Registry
	Project   string           // the server's project directory ("" = working directory)
	DAPLogDir string           // DBG_DAP_LOG: write each session's DAP traffic here
	StateDir  string           // where process groups are recorded for reaping after a crash
	Now       func() time.Time // clock
	// OutputLimit bounds each session's output ring buffer (bytes).
	OutputLimit int
	Warn        func(msg string) // problems the server survives; nil = stderr
	// NoSideEffects makes evaluate_expression refuse side effects unless
	// a call passes sideEffects: true (dbg mcp --no-side-effects).
	NoSideEffects bool
	// WarmAdapters keeps one idle adapter process per language in use,
	// for the next session (pool.go); WarmIdle is how long one waits for
	// a session before it is stopped (0: DefaultWarmIdle).
	WarmAdapters bool
	WarmIdle     time.Duration
	// DAPLogRedact rewrites each logged DAP message (the server's
	// redaction of credentials); nil logs the traffic raw.
	DAPLogRedact func([]byte) []byte
	// MaxSessions caps the open debug sessions (0: no cap), as
	// --max-sessions sets it.
	MaxSessions int
	// AllowOutsideProject lets the agent name files outside the project
	// and the sessions' programs (--allow-outside-project; see CheckPath).
	AllowOutsideProject bool
	// Reacher reaches programs on other machines (create_debug_session's
	// via); nil: a via is refused.
	Reacher Reacher
	// RequestTimeout bounds each DAP request that has no tighter deadline
	// (--request-timeout; 0: DefaultRequestTimeout): an adapter that does
	// not answer in time makes the call answer TIMEOUT.
	RequestTimeout time.Duration
}

// Manager owns every session. It is safe for concurrent use.
//
// It embeds the registry of owned processes (RegisterProcess,
// ProcessByPID, ...), so capabilities that take a narrow interface of
// those methods accept a *Manager.
type Manager struct {
	cfg Config
	*toolkit.ProcessRegistry

	recordMu  sync.Mutex // serializes the process records' writes (reaper.go)
	mu        sync.Mutex
	sessions  map[string]*Session
	closedIDs map[string]bool
	nextID    int
	closed    bool

	findMu    sync.Mutex
	findCache map[string]findEntry

	watch watchers  // see Watch
	pool  *warmPool // nil: no warm adapters

	groups map[string]*Group // groups.go

	pulseMu sync.Mutex
	pulse   chan struct{} // closed at the next change of any session (multiwait.go)
}

type findEntry struct {
	info adapters.Info
	at   time.Time
}

// NewManager returns a manager.
func NewManager(cfg Config) *Manager {
	if cfg.Adapters == nil {
		cfg.Adapters = adapters.NewRegistry()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.OutputLimit <= 0 {
		cfg.OutputLimit = 1 << 20
	}
	if cfg.RequestTimeout <= 0 {
		cfg.RequestTimeout = DefaultRequestTimeout
	}
	m := &Manager{cfg: cfg, sessions: map[string]*Session{}, closedIDs: map[string]bool{}, findCache: map[string]findEntry{}}
	m.ProcessRegistry = m.ownedProcesses()
	if cfg.WarmAdapters {
		m.pool = newWarmPool(m, cfg.WarmIdle)
	}
	return m
}

// Adapters returns the adapter registry.
func (m *Manager) Adapters() *adapters.Registry { return m.cfg.Adapters }

// Now returns the manager's clock reading.
func (m *Manager) Now() time.Time { return m.cfg.Now() }

// Get finds a session by id (or unique name).
func (m *Manager) Get(id string) (*Session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if id == "" {
		ids := m.idsLocked()
		if len(ids) == 1 {
			return m.sessions[ids[0]], nil
		}
		return nil, m.pickError(ids)
	}
	if s, ok := m.sessions[id]; ok {
		return s, nil
	}
	var byName []*Session
	for _, s := range m.sessions {
		if s.name == id {
			byName = append(byName, s)
		}
	}
	if len(byName) == 1 {
		return byName[0], nil
	}
	if len(byName) > 1 {
		var ids []string
		for _, s := range byName {
			ids = append(ids, s.id)
		}
		sort.Strings(ids)
		return nil, toolkit.NewError(toolkit.CodeSessionAmbiguous, fmt.Sprintf("several sessions are named %q", id), "pass one of availableOptions as sessionId").WithOptions(ids...)
	}
	return nil, toolkit.NewError(toolkit.CodeSessionNotFound, fmt.Sprintf("no session %q", id),
		"use an id from list_debug_sessions, or create a session with create_debug_session").WithOptions(m.idsLocked()...).WithNext(toolkit.NextCreateDebugSession)
}

// pickError is the error of a call without sessionId among ids, the
// sessions it could mean: none, or several.
func (m *Manager) pickError(ids []string) error {
	if len(ids) == 0 {
		return toolkit.NewError(toolkit.CodeSessionNotFound, "sessionId is required and no session exists", "create one with create_debug_session").WithNext(toolkit.NextCreateDebugSession)
	}
	sort.Strings(ids)
	return toolkit.NewError(toolkit.CodeSessionAmbiguous, "sessionId is required: several sessions exist", "pass one of availableOptions as sessionId").WithOptions(ids...).WithNext(toolkit.NextSelectDebuggerSession)
}

func (m *Manager) idsLocked() []string {
	ids := make([]string, 0, len(m.sessions))
	for id := range m.sessions {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// List returns every session's summary, oldest first.
func (m *Manager) List() []SessionInfo {
	m.mu.Lock()
	all := make([]*Session, 0, len(m.sessions))
	for _, s := range m.sessions {
		all = append(all, s)
	}
	m.mu.Unlock()
	out := make([]SessionInfo, 0, len(all))
	for _, s := range all {
		out = append(out, s.Info())
	}
	sort.Slice(out, func(i, j int) bool { return out[i].seq < out[j].seq })
	return out
}

func (m *Manager) add(s *Session) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return toolkit.NewError(toolkit.CodeInvalidState, "the server is shutting down", "")
	}
	if n := m.cfg.MaxSessions; n > 0 && len(m.sessions) >= n {
		return toolkit.NewError(toolkit.CodeInvalidState,
			fmt.Sprintf("this server holds at most %d debug sessions (--max-sessions %d), and %d are open", n, n, len(m.sessions)),
			"close a session you no longer need (close_debug_session), or restart the server with a larger --max-sessions")
	}
	m.nextID++
	s.seq = m.nextID
	s.id = fmt.Sprintf("%s-%d", strings.ToLower(s.language), m.nextID)
	if s.name == "" {
		s.name = s.id
	}
	m.sessions[s.id] = s
	s.output.OnWrite(func() { m.watch.post(s.id, ChangeOutput) })
	return nil
}

// Shutdown closes every session, killing adapters and launched debuggees.
func (m *Manager) Shutdown(ctx context.Context) {
	m.pool.stopRefills() // the sessions closing now start no idle process
	m.mu.Lock()
	m.closed = true
	all := make([]*Session, 0, len(m.sessions))
	for _, s := range m.sessions {
		all = append(all, s)
	}
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range all {
		wg.Add(1)
		go func(s *Session) {
			defer wg.Done()
			_ = m.CloseSession(ctx, s.id)
		}(s)
	}
	wg.Wait()
	m.watch.closeAll()
	m.pool.close()
}
