package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/cmd/internal/httpguard"
)

func newCmdTokenShow(f *factory, runF func(context.Context, *tokenOptions) error) *cobra.Command {
	cmd, opts := tokenVerb(f, &cobra.Command{
		Use:   "show",
		Short: "Print the project's bearer token (or, with --path, the file that keeps it)",
	}, tokenShowRun, runF)
	cmd.Flags().BoolVar(&opts.path, "path", false, "print the token file's path instead of the token")
	return cmd
}

func tokenShowRun(_ context.Context, opts *tokenOptions) error {
	project, err := tokenProject(opts.project)
	if err != nil {
		return err
	}
	if opts.path {
		_, err := fmt.Fprintln(opts.IO.Out, httpguard.TokenPath(opts.StateDir, project))
		return err
	}
	token, err := httpguard.ReadToken(opts.StateDir, project)
	if errors.Is(err, httpguard.ErrNoToken) {
		return fmt.Errorf("%s has no token yet (%w): dbg serve or dbg token rotate creates one", project, err)
	}
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(opts.IO.Out, token)
	return err
}
