package sessions

import (
	"context"
	"sort"
	"sync"
)

// Capability states reported by get_debug_tools_status (SPEC §5).
const (
	Available     = "AVAILABLE"
	Unavailable   = "UNAVAILABLE"
	NotConfigured = "NOT_CONFIGURED"
	Unknown       = "UNKNOWN"
)

// CapabilityState is one capability's line in the status report.
type CapabilityState struct {
	Name   string `json:"name"`
	State  string `json:"state"`
	Reason string `json:"reason,omitempty"`
}

// Suggestion is a candidate next action. The status picks the one with the
// highest Priority across all contributors.
type Suggestion struct {
	Action   string `json:"action"`
	Hint     string `json:"hint"`
	Priority int    `json:"-"`
}

// StatusQuery is what a status request asks about.
type StatusQuery struct {
	Project string       // resolved project directory
	Session *SessionInfo // set when the request names a session
}

// StatusPart is one contributor's share of the status report.
type StatusPart struct {
	// Section is the key under which Data appears ("jvm", "git", ...).
	Section      string
	Data         any
	Capabilities []CapabilityState
	Suggestions  []Suggestion
}

// StatusContributor is implemented by capabilities that report in
// get_debug_tools_status. Status must be cheap: it runs on every status
// call, so anything slow is cached by the contributor. It is called
// concurrently with other contributors.
type StatusContributor interface {
	Status(ctx context.Context, q StatusQuery) StatusPart
}

// capabilities is the registry status reads. Capabilities register
// themselves through Manager.RegisterCapability.
type capabilities struct {
	mu   sync.RWMutex
	list map[string]StatusContributor
}

// RegisterCapability adds (or replaces) a status contributor by name.
func (m *Manager) RegisterCapability(name string, c StatusContributor) {
	m.caps.mu.Lock()
	defer m.caps.mu.Unlock()
	if m.caps.list == nil {
		m.caps.list = map[string]StatusContributor{}
	}
	m.caps.list[name] = c
}

// contributors returns the registered contributors sorted by name.
func (m *Manager) contributors() []StatusContributor {
	m.caps.mu.RLock()
	defer m.caps.mu.RUnlock()
	names := make([]string, 0, len(m.caps.list))
	for n := range m.caps.list {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]StatusContributor, 0, len(names))
	for _, n := range names {
		out = append(out, m.caps.list[n])
	}
	return out
}
