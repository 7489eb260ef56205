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

type attachOptions struct {
	IO         *iostreams.IOStreams
	ToolClient func(ctx context.Context, project string) (*toolclient.Client, error)
	// DetectLanguage tells a process's language from its pid.
	DetectLanguage func(pid int) (string, error)

	pid      int
	port     int
	language string
	project  string
	noPause  bool
	asJSON   bool
}

// newCmdAttach attaches to a running process and opens the debugger prompt.
func newCmdAttach(f *factory, runF func(context.Context, *attachOptions) error) *cobra.Command {
	if runF == nil {
		runF = attachRun
	}
	opts := &attachOptions{IO: f.io, ToolClient: f.toolClient, DetectLanguage: adapters.DetectLanguage}
	cmd := &cobra.Command{
		Use:   "attach --pid N",
		Short: "Attach to a running process (language detected) and debug it at a prompt",
		Long: `Attach to a running process and debug it interactively. The language is
detected from the process (its executable and command line) unless --language
is given. Commands: break FILE:LINE, continue (c), next (n), step (s), out (o),
bt, locals, print EXPR (p), threads, wait, detach, quit. With --json, commands
are read from stdin and every answer is printed as JSON.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.pid == 0 && opts.port == 0 {
				return fmt.Errorf("--pid (or --port) is required")
			}
			if opts.language == "" && opts.pid == 0 {
				return fmt.Errorf("--language is required with --port")
			}
			return runF(cmd.Context(), opts)
		},
	}
	cmd.Flags().IntVar(&opts.pid, "pid", 0, "process id to attach to")
	cmd.Flags().IntVar(&opts.port, "port", 0, "debug port to attach to (debugpy, rdbg, JDWP, Node inspector)")
	cmd.Flags().StringVar(&opts.language, "language", "", "language (default: detected from the process)")
	addProjectFlag(cmd, &opts.project)
	cmd.Flags().BoolVar(&opts.noPause, "no-pause", false, "leave the process running after attaching")
	cmd.Flags().BoolVar(&opts.asJSON, "json", false, "read commands from stdin and print JSON answers")
	return cmd
}

// attachArgs builds create_debug_session's arguments for an attach.
func attachArgs(opts *attachOptions) (map[string]any, error) {
	lang := opts.language
	if lang == "" {
		var err error
		if lang, err = opts.DetectLanguage(opts.pid); err != nil {
			return nil, err
		}
	}
	args := map[string]any{"language": lang, "stopOnEntry": !opts.noPause}
	if opts.pid != 0 {
		args["processId"] = opts.pid
	}
	if opts.port != 0 {
		args["port"] = opts.port
	}
	return args, nil
}

func attachRun(ctx context.Context, opts *attachOptions) error {
	create, err := attachArgs(opts)
	if err != nil {
		return err
	}
	tc, err := opts.ToolClient(ctx, opts.project)
	if err != nil {
		return err
	}
	defer tc.Close()
	return console.Run(ctx, console.Config{IO: opts.IO, Tools: tc, JSON: opts.asJSON, Create: create})
}
