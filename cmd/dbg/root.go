package main

import (
	"github.com/spf13/cobra"
)

// newCmdRoot builds the dbg command with every verb. Cobra's own output
// (help, usage) goes to f's streams too.
func newCmdRoot(f *factory) *cobra.Command {
	root := &cobra.Command{
		Use:           "dbg",
		Short:         "Debug running programs in any language, for agents (MCP) and people (CLI)",
		Long:          "dbg drives real debug adapters over the Debug Adapter Protocol. It holds many debug sessions at once and serves them as MCP tools (dbg mcp) and on the command line.",
		SilenceUsage:  true,
		SilenceErrors: true,
		// The state folder is checked before any command trusts what it
		// holds (tokens, daemon records, process records).
		PersistentPreRunE: func(*cobra.Command, []string) error { return f.checkStateDir() },
	}
	root.SetIn(f.io.In)
	root.SetOut(f.io.Out)
	root.SetErr(f.io.ErrOut)
	root.AddCommand(
		newCmdMCP(f, nil),
		newCmdVersion(f, nil),
		newCmdAdapters(f, nil),
		newCmdDAP(f, nil),
		newCmdDemo(f, nil),
		newCmdStatus(f, nil),
		newCmdJVM(f),
		newCmdRun(f),
		newCmdServe(f, nil),
		newCmdToken(f),
		newCmdSessions(f, nil),
		newCmdAttach(f, nil),
		newCmdLaunch(f, nil),
		newCmdStop(f, nil),
		newCmdTest(f, nil),
		newCmdAudit(f, nil),
	)
	root.AddGroup(&cobra.Group{ID: oneShotGroup, Title: "One-shot commands on a session of the project's daemon (JSON; dbg attach --no-prompt starts one):"})
	for _, v := range oneShotVerbs {
		root.AddCommand(newCmdOneShot(f, v, nil))
	}
	return root
}
