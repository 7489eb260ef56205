package main

import (
	"path/filepath"

	"github.com/spf13/cobra"
)

// newCmdToken groups the commands on the bearer token of `dbg serve`:
// print it on request (it is kept out of logs) and replace it.
func newCmdToken(f *factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "token",
		Short: "Print or replace the bearer token of the project's dbg serve",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newCmdTokenShow(f, nil), newCmdTokenRotate(f, nil))
	return cmd
}

// tokenProject is the absolute project directory a token belongs to, as
// dbg serve names it.
func tokenProject(project string) (string, error) {
	if project == "" {
		project = "."
	}
	return filepath.Abs(project)
}
