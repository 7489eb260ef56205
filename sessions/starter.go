package sessions

import (
	"context"
	"sync"

	"github.com/dbg-dev/dbg/sessions/toolkit"
)

// ConfigurationStarter starts a project's run configuration as a process
// the server owns (or finds it running) and returns its pid. The run
// configuration capability provides it; others (run_and_invoke) use it
// through the manager, so capabilities never import each other.
type ConfigurationStarter func(ctx context.Context, project, name string) (pid int, err error)

type starterSlot struct {
	mu sync.RWMutex
	f  ConfigurationStarter
}

// SetConfigurationStarter installs the run-configuration starter.
func (m *Manager) SetConfigurationStarter(f ConfigurationStarter) {
	m.starter.mu.Lock()
	defer m.starter.mu.Unlock()
	m.starter.f = f
}

// StartConfiguration starts (or finds running) a run configuration of the
// project and returns its pid.
func (m *Manager) StartConfiguration(ctx context.Context, project, name string) (int, error) {
	m.starter.mu.RLock()
	f := m.starter.f
	m.starter.mu.RUnlock()
	if f == nil {
		return 0, toolkit.NewError(toolkit.CodeRunConfigNotFound, "run configurations are not available in this server", "start the program yourself and pass its pid")
	}
	return f(ctx, project, name)
}
