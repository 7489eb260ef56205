package main

import (
	"github.com/spf13/cobra"
)

func newRootCmd(e *env) *cobra.Command {
	root := &cobra.Command{
		Use:           "dbg",
		Short:         "Debug running programs in any language, for agents (MCP) and people (CLI)",
		Long:          "dbg drives real debug adapters over the Debug Adapter Protocol. It holds many debug sessions at once and serves them as MCP tools (dbg mcp) and on the command line.",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(e.stdin)
	root.SetOut(e.stdout)
	root.SetErr(e.stderr)
	root.AddCommand(newMCPCmd(e), newVersionCmd(e), newAdaptersCmd(e), newDAPCmd(e), newDemoCmd(e), newStatusCmd(e), newJVMCmd(e), newRunCmd(e), newServeCmd(e), newSessionsCmd(e), newAttachCmd(e), newLaunchCmd(e))
	return root
}

func newVersionCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print dbg's version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cmd.Println("dbg " + version)
			return nil
		},
	}
}
