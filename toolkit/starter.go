package toolkit

import "context"

// ConfigurationStarter starts a project's run configuration as a process
// the server owns (or finds it running) and returns its pid. The run
// configuration capability implements it; cmd hands it to the capabilities
// that need it (run_and_invoke), so capabilities never import each other.
// It is safe for concurrent use.
type ConfigurationStarter interface {
	StartConfiguration(ctx context.Context, project, name string) (pid int, err error)
}
