package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/cmd/internal/console"
	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
	"github.com/dbg-dev/dbg/cmd/internal/toolclient"
)

type launchOptions struct {
	IO         *iostreams.IOStreams
	ToolClient func(ctx context.Context, project string) (*toolclient.Client, error)

	program  string
	args     []string
	language string
	project  string
	breaks   []string
	asJSON   bool
}

// newCmdLaunch launches a program under the debugger at the prompt.
func newCmdLaunch(f *factory, runF func(context.Context, *launchOptions) error) *cobra.Command {
	if runF == nil {
		runF = launchRun
	}
	opts := &launchOptions{IO: f.io, ToolClient: f.toolClient}
	cmd := &cobra.Command{
		Use:   "launch PROGRAM [-- ARGS...]",
		Short: "Launch a program under the debugger and debug it at a prompt",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.program, opts.args = args[0], args[1:]
			if opts.language == "" {
				if opts.language = console.LanguageOfFile(opts.program); opts.language == "" {
					return fmt.Errorf("cannot tell the language of %s; pass --language", opts.program)
				}
			}
			return runF(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.language, "language", "", "language (default: from the file extension)")
	addProjectFlag(cmd, &opts.project)
	cmd.Flags().StringArrayVar(&opts.breaks, "break", nil, "breakpoint FILE:LINE before launch (repeatable)")
	cmd.Flags().BoolVar(&opts.asJSON, "json", false, "read commands from stdin and print JSON answers")
	return cmd
}

func launchRun(ctx context.Context, opts *launchOptions) error {
	tc, err := opts.ToolClient(ctx, opts.project)
	if err != nil {
		return err
	}
	defer tc.Close()
	return console.Run(ctx, console.Config{
		IO: opts.IO, Tools: tc, JSON: opts.asJSON,
		Create: map[string]any{"language": opts.language},
		Launch: &console.Launch{Start: map[string]any{"scriptPath": opts.program, "args": opts.args, "waitMs": 60000}, Breaks: opts.breaks},
	})
}
