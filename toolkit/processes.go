package toolkit

import (
	"sort"
	"sync"
)

// OwnedProcess is a process the server started outside a debug session
// (a run configuration, a service started by run_and_invoke). Capabilities
// register them so others can find their output (the logs capability) and
// status can report them.
type OwnedProcess struct {
	Name   string      `json:"name"`
	Kind   string      `json:"kind"` // "runConfiguration", ...
	PID    int         `json:"pid"`
	Output *OutputRing `json:"-"`
}

// ProcessHooks are told when a process is registered or forgotten; the
// session manager uses them to record owned processes for reaping after
// a crash. Either may be nil. They run on the caller's goroutine, outside
// the registry's lock.
type ProcessHooks struct {
	Registered   func(p OwnedProcess)
	Unregistered func(pid int)
}

// ProcessRegistry holds the owned processes of a server by pid. It is
// safe for concurrent use.
type ProcessRegistry struct {
	hooks ProcessHooks

	mu   sync.RWMutex
	byID map[int]OwnedProcess
}

// NewProcessRegistry returns an empty registry calling hooks.
func NewProcessRegistry(hooks ProcessHooks) *ProcessRegistry {
	return &ProcessRegistry{hooks: hooks, byID: map[int]OwnedProcess{}}
}

// RegisterProcess records p until UnregisterProcess(p.PID).
func (r *ProcessRegistry) RegisterProcess(p OwnedProcess) {
	r.mu.Lock()
	r.byID[p.PID] = p
	r.mu.Unlock()
	if r.hooks.Registered != nil {
		r.hooks.Registered(p)
	}
}

// UnregisterProcess forgets a process.
func (r *ProcessRegistry) UnregisterProcess(pid int) {
	r.mu.Lock()
	delete(r.byID, pid)
	r.mu.Unlock()
	if r.hooks.Unregistered != nil {
		r.hooks.Unregistered(pid)
	}
}

// Processes lists the registered processes by pid.
func (r *ProcessRegistry) Processes() []OwnedProcess {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]OwnedProcess, 0, len(r.byID))
	for _, p := range r.byID {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].PID < out[j].PID })
	return out
}

// ProcessByPID finds a registered process.
func (r *ProcessRegistry) ProcessByPID(pid int) (OwnedProcess, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	p, ok := r.byID[pid]
	return p, ok
}
