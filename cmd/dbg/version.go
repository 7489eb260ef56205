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
	opts := &versionOptions{IO: f.io}
	return verb(&cobra.Command{
		Use:   "version",
		Short: "Print dbg's version",
	}, opts, versionRun, runF)
}

func versionRun(_ context.Context, opts *versionOptions) error {
	_, err := fmt.Fprintln(opts.IO.Out, "dbg "+version)
	return err
}
