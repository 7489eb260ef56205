package adapters

import "context"

// MachineChecker is an adapter some of whose abilities depend on this
// machine beyond what is installed: Python's attach by pid needs a
// debugger that can call into a process, which depends on the CPU and
// the kernel. CheckMachine completes a found adapter's Info with what was
// tried here. The first call may take seconds (it tries the ability on a
// throwaway process); later ones answer from what was kept.
type MachineChecker interface {
	CheckMachine(ctx context.Context, info Info) Info
}
