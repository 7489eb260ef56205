package main

import (
	"context"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
)

// newCmdToken groups the commands on the bearer token of `dbg serve`:
// print it on request (it is kept out of logs) and replace it.
func newCmdToken(f *factory) *cobra.Command {
	return group("token", "Print or replace the bearer token of the project's dbg serve",
		newCmdTokenShow(f, nil), newCmdTokenRotate(f, nil))
}

// tokenProject is the absolute project directory a token belongs to, as
// dbg serve names it.
func tokenProject(project string) (string, error) {
	if project == "" {
		project = "."
	}
	return filepath.Abs(project)
}

// tokenOptions are the options of dbg token show and dbg token rotate.
type tokenOptions struct {
	IO       *iostreams.IOStreams
	StateDir string

	project string
	path    bool // show: print the token file's path
	quiet   bool // rotate: do not print the new token
}

// tokenVerb finishes cmd as a token verb with --project.
func tokenVerb(f *factory, cmd *cobra.Command, run, runF func(context.Context, *tokenOptions) error) (*cobra.Command, *tokenOptions) {
	opts := &tokenOptions{IO: f.io}
	cmd.PreRun = func(*cobra.Command, []string) { opts.StateDir = f.stateDir() }
	verb(cmd, opts, run, runF)
	addProjectFlag(cmd, &opts.project)
	return cmd, opts
}
