package sessions

import (
	"sort"
	"strconv"
	"sync"

	"github.com/dbg-dev/dbg/sessions/toolkit"
)

// OwnedProcess is a process the server started outside a debug session
// (a run configuration, a service started by run_and_invoke). Capabilities
// register them so others can find their output (the logs capability) and
// status can report them.
type OwnedProcess struct {
	Name   string              `json:"name"`
	Kind   string              `json:"kind"` // "runConfiguration", ...
	PID    int                 `json:"pid"`
	Output *toolkit.OutputRing `json:"-"`
}

type processRegistry struct {
	mu   sync.RWMutex
	byID map[int]OwnedProcess
}

// RegisterProcess records p until UnregisterProcess(p.PID).
func (m *Manager) RegisterProcess(p OwnedProcess) {
	m.procs.mu.Lock()
	if m.procs.byID == nil {
		m.procs.byID = map[int]OwnedProcess{}
	}
	m.procs.byID[p.PID] = p
	m.procs.mu.Unlock()
	m.writeRecord("proc-"+strconv.Itoa(p.PID), []int{p.PID})
}

// UnregisterProcess forgets a process.
func (m *Manager) UnregisterProcess(pid int) {
	m.procs.mu.Lock()
	delete(m.procs.byID, pid)
	m.procs.mu.Unlock()
	m.removeRecord("proc-" + strconv.Itoa(pid))
}

// Processes lists the registered processes by pid.
func (m *Manager) Processes() []OwnedProcess {
	m.procs.mu.RLock()
	defer m.procs.mu.RUnlock()
	out := make([]OwnedProcess, 0, len(m.procs.byID))
	for _, p := range m.procs.byID {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].PID < out[j].PID })
	return out
}

// ProcessByPID finds a registered process.
func (m *Manager) ProcessByPID(pid int) (OwnedProcess, bool) {
	m.procs.mu.RLock()
	defer m.procs.mu.RUnlock()
	p, ok := m.procs.byID[pid]
	return p, ok
}
