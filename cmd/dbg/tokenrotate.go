package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/cmd/internal/httpguard"
)

func newCmdTokenRotate(f *factory, runF func(context.Context, *tokenOptions) error) *cobra.Command {
	cmd, opts := tokenVerb(f, &cobra.Command{
		Use:   "rotate",
		Short: "Replace the project's bearer token; a running dbg serve refuses the old one at once",
	}, tokenRotateRun, runF)
	cmd.Flags().BoolVarP(&opts.quiet, "quiet", "q", false, "do not print the new token")
	return cmd
}

func tokenRotateRun(_ context.Context, opts *tokenOptions) error {
	project, err := tokenProject(opts.project)
	if err != nil {
		return err
	}
	token, err := httpguard.ProjectToken(opts.StateDir, project, true)
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "new token for %s in %s\n", project, httpguard.TokenPath(opts.StateDir, project))
	if opts.quiet {
		return nil
	}
	_, err = fmt.Fprintln(opts.IO.Out, token)
	return err
}
