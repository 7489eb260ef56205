package toolkit

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"
)

// Capability states reported by get_debug_tools_status (docs/contract.md, "get_debug_tools_status").
const (
	Available     = "AVAILABLE"
	Unavailable   = "UNAVAILABLE"
	NotConfigured = "NOT_CONFIGURED"
	Unknown       = "UNKNOWN"
)

// Next actions of get_debug_tools_status (docs/contract.md, "get_debug_tools_status").
const (
	NextInvoke                = "INVOKE"
	NextSelectConnection      = "SELECT_CONNECTION"
	NextWaitForSpring         = "WAIT_FOR_SPRING"
	NextSelectDebuggerSession = "SELECT_DEBUGGER_SESSION"
	NextAttachJVM             = "ATTACH_JVM"
	NextStartRunConfiguration = "START_RUN_CONFIGURATION"
	NextCreateDebugSession    = "CREATE_DEBUG_SESSION"
	NextSetBreakpoint         = "SET_BREAKPOINT"
	NextContinue              = "CONTINUE"
	NextInspectStop           = "INSPECT_STOP"
	NextReconnect             = "RECONNECT"
	NextNone                  = "NONE"
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
	Project string         // resolved project directory
	Session *StatusSession // set when the request names a session
}

// StatusSession is what contributors learn of the debug session a status
// request names: enough to tell whether it is theirs (its process, its
// program and folder).
type StatusSession struct {
	ID       string
	Language string
	PID      int    // the debuggee, when known
	Program  string // the program being debugged
	Cwd      string // its working directory
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

// StatusRegistry holds the status contributors of a server by name. Its
// zero value is ready; it is safe for concurrent use.
type StatusRegistry struct {
	mu   sync.RWMutex
	list map[string]StatusContributor
}

// Register adds (or replaces) a status contributor by name.
func (r *StatusRegistry) Register(name string, c StatusContributor) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.list == nil {
		r.list = map[string]StatusContributor{}
	}
	r.list[name] = c
}

// contributors returns the registered contributors sorted by name.
func (r *StatusRegistry) contributors() []StatusContributor {
	r.mu.RLock()
	defer r.mu.RUnlock()
	names := make([]string, 0, len(r.list))
	for n := range r.list {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]StatusContributor, 0, len(names))
	for _, n := range names {
		out = append(out, r.list[n])
	}
	return out
}

// Collect asks every contributor for its part, all at once, and returns
// the parts in name order. A contributor that overruns budget is left out
// rather than waited for; one that panics is reported UNKNOWN. A nil
// registry has no contributors.
func (r *StatusRegistry) Collect(ctx context.Context, q StatusQuery, budget time.Duration) []StatusPart {
	if r == nil {
		return nil
	}
	contribs := r.contributors()
	cctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	type result struct {
		i    int
		part StatusPart
	}
	results := make(chan result, len(contribs))
	for i, c := range contribs {
		go func(i int, c StatusContributor) {
			defer func() {
				if r := recover(); r != nil {
					results <- result{i, StatusPart{Capabilities: []CapabilityState{{Name: fmt.Sprintf("contributor-%d", i), State: Unknown, Reason: fmt.Sprintf("status failed: %v", r)}}}}
				}
			}()
			results <- result{i, c.Status(cctx, q)}
		}(i, c)
	}
	parts := make([]*StatusPart, len(contribs))
collect:
	for range contribs {
		select {
		case r := <-results:
			p := r.part
			parts[r.i] = &p
		case <-cctx.Done():
			break collect
		}
	}
	out := make([]StatusPart, 0, len(parts))
	for _, p := range parts {
		if p != nil {
			out = append(out, *p)
		}
	}
	return out
}
