package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/cmd/internal/console"
	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
	"github.com/dbg-dev/dbg/cmd/internal/toolclient"
)

type launchOptions struct {
	IO           *iostreams.IOStreams
	ToolClient   func(ctx context.Context, project string) (*toolclient.Client, error)
	DaemonClient func(ctx context.Context, project string) (*toolclient.Client, error)
	StateDir     func() string
	Getenv       func(string) string
	// Registry tells a program's language by its file.
	Registry func() *adapters.Registry

	program  string
	args     []string
	language string
	project  string
	breaks   []string
	noPrompt bool
	asJSON   bool
}

// newCmdLaunch launches a program under the debugger at the console.
func newCmdLaunch(f *factory, runF func(context.Context, *launchOptions) error) *cobra.Command {
	if runF == nil {
		runF = launchRun
	}
	opts := &launchOptions{IO: f.io, ToolClient: f.toolClient, DaemonClient: f.daemonClient, StateDir: f.stateDir, Getenv: f.getenv,
		Registry: f.registry}
	cmd := &cobra.Command{
		Use:   "launch PROGRAM [-- ARGS...]",
		Short: "Launch a program under the debugger and debug it at a console",
		Long: `Launch a program under the debugger and debug it at the console (help lists
its commands; Ctrl-C pauses the running program, Ctrl-D ends it after
asking). With --no-prompt the session is created in the project's daemon,
its id and first stop are printed, and dbg returns (see dbg attach).`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.program, opts.args = args[0], args[1:]
			if opts.language == "" {
				a, ok := opts.Registry().ForFile(opts.program)
				if !ok {
					return fmt.Errorf("cannot tell the language of %s; pass --language", opts.program)
				}
				opts.language = a.Language()
			}
			return runF(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.language, "language", "", "language (default: from the file extension)")
	addProjectFlag(cmd, &opts.project)
	cmd.Flags().StringArrayVar(&opts.breaks, "break", nil, "breakpoint FILE:LINE before launch (repeatable)")
	cmd.Flags().BoolVar(&opts.noPrompt, "no-prompt", false, "create the session in the project's daemon, print its id and first stop, and return")
	cmd.Flags().BoolVar(&opts.asJSON, "json", false, "print JSON answers (the console reads commands from stdin)")
	return cmd
}

func launchRun(ctx context.Context, opts *launchOptions) error {
	cfg := console.Config{
		IO: opts.IO, JSON: opts.asJSON || opts.noPrompt,
		Create: map[string]any{"language": opts.language},
		Launch: &console.Launch{Start: map[string]any{"scriptPath": opts.program, "args": opts.args, "waitMs": 60000}, Breaks: opts.breaks},
	}
	if opts.noPrompt {
		tc, err := opts.DaemonClient(ctx, opts.project)
		if err != nil {
			return err
		}
		defer tc.Close()
		cfg.Tools = tc
		return console.Start(ctx, cfg)
	}
	ctx, release := consoleTerminal(ctx, opts.IO, opts.StateDir(), opts.Getenv, &cfg)
	defer release()
	tc, err := opts.ToolClient(ctx, opts.project)
	if err != nil {
		return err
	}
	defer tc.Close()
	cfg.Tools = tc
	return console.Run(ctx, cfg)
}
