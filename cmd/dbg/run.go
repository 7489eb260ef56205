package main

import (
	"github.com/spf13/cobra"
)

// newCmdRun groups the run-configuration commands (docs/contract.md, "Run configurations and Git"): they answer
// with the get_restartable_run_configurations, restart_run_configuration
// and debug_run_configuration tools.
func newCmdRun(f *factory) *cobra.Command {
	return group("run", "List, run and debug the project's saved run configurations (IntelliJ, VS Code)",
		newCmdRunList(f, nil), newCmdRunRestart(f, nil), newCmdRunDebug(f, nil))
}
