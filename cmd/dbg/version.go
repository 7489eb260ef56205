package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
)

type versionOptions struct {
	IO *iostreams.IOStreams
}

func newCmdVersion(f *factory, runF func(context.Context, *versionOptions) error) *cobra.Command {
	if runF == nil {
		runF = versionRun
	}
	opts := &versionOptions{IO: f.io}
	return &cobra.Command{
		Use:   "version",
		Short: "Print dbg's version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runF(cmd.Context(), opts)
		},
	}
}

func versionRun(_ context.Context, opts *versionOptions) error {
	_, err := fmt.Fprintln(opts.IO.Out, "dbg "+version)
	return err
}
