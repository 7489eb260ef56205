package sessions

import (
	"strconv"

	"github.com/dbg-dev/dbg/toolkit"
)

// ownedProcesses returns the registry of the processes the server owns
// outside debug sessions (run configurations, services started by
// run_and_invoke). Each is recorded in the state directory while it is
// registered, so a server started after a crash reaps it.
func (m *Manager) ownedProcesses() *toolkit.ProcessRegistry {
	key := func(pid int) string { return "proc-" + strconv.Itoa(pid) }
	return toolkit.NewProcessRegistry(toolkit.ProcessHooks{
		Registered: func(p toolkit.OwnedProcess) {
			if err := m.writeRecord(key(p.PID), []int{p.PID}); err != nil {
				m.warnf("process %d: %v; if this server crashes it is not reaped", p.PID, err)
			}
		},
		Unregistered: func(pid int) { m.removeRecord(key(pid)) },
	})
}
