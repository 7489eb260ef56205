package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/cmd/internal/console"
	"github.com/dbg-dev/dbg/cmd/internal/toolclient"
)

type launchOptions struct {
	consoleOptions

	program  string
	args     []string
	language string
	breaks   []string
}

// newCmdLaunch launches a program under the debugger at the console.
func newCmdLaunch(f *factory, runF func(context.Context, *launchOptions) error) *cobra.Command {
	if runF == nil {
		runF = launchRun
	}
	opts := &launchOptions{consoleOptions: newConsoleOptions(f)}
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
	cmd.Flags().StringArrayVar(&opts.breaks, "break", nil, "breakpoint FILE:LINE before launch (repeatable)")
	addConsoleFlags(cmd, &opts.consoleOptions)
	return cmd
}

func launchRun(ctx context.Context, opts *launchOptions) error {
	cfg := console.Config{
		IO: opts.IO, JSON: opts.asJSON || opts.noPrompt,
		Create: map[string]any{"language": opts.language},
		Launch: &console.Launch{Start: map[string]any{"scriptPath": opts.program, "args": opts.args, "waitMs": 60000}, Breaks: opts.breaks},
	}
	if opts.noPrompt {
		return withClient(ctx, opts.DaemonClient, opts.project, func(tc *toolclient.Client) error {
			cfg.Tools = tc
			return console.Start(ctx, cfg)
		})
	}
	return opts.runConsole(ctx, cfg)
}
