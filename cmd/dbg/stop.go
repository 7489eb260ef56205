package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/cmd/internal/daemon"
	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
)

type stopOptions struct {
	IO       *iostreams.IOStreams
	StateDir func() string

	project string
}

// newCmdStop ends the project's daemon (the background `dbg serve` the
// one-shot commands start).
func newCmdStop(f *factory, runF func(context.Context, *stopOptions) error) *cobra.Command {
	opts := &stopOptions{IO: f.io, StateDir: f.stateDir}
	cmd := verb(&cobra.Command{
		Use:   "stop",
		Short: "Stop the project's dbg daemon (its sessions close; attached processes keep running)",
	}, opts, stopRun, runF)
	addProjectFlag(cmd, &opts.project)
	return cmd
}

func stopRun(ctx context.Context, opts *stopOptions) error {
	project := opts.project
	if project == "" {
		project = "."
	}
	abs, err := filepath.Abs(project)
	if err != nil {
		return err
	}
	d, err := daemon.Stop(ctx, opts.StateDir(), abs, 15*time.Second)
	if errors.Is(err, daemon.ErrNotRunning) {
		fmt.Fprintf(opts.IO.ErrOut, "no dbg daemon runs for %s\n", abs)
		return nil
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "stopped the dbg daemon of %s (pid %d)\n", abs, d.PID)
	return nil
}
