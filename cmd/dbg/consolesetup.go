package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/cmd/internal/console"
	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
	"github.com/dbg-dev/dbg/cmd/internal/toolclient"
)

// consoleTerminal fills the terminal parts of a console's config: line
// editing, history in the state directory, colour (unless NO_COLOR) and
// Ctrl-C, when stdin and stdout are terminals; progress lines on stderr
// when it is one. The returned context is the one the console and its
// tools run in: on a terminal Ctrl-C pauses the target instead of ending
// dbg, so only SIGTERM and SIGHUP end it. The returned function releases
// the signals.
func consoleTerminal(ctx context.Context, ios *iostreams.IOStreams, stateDir string, getenv func(string) string, cfg *console.Config) (context.Context, func()) {
	if ios.IsStderrTTY() {
		ctx = adapters.WithProgress(ctx, func(line string) { fmt.Fprintln(ios.ErrOut, line) })
	}
	if !ios.IsStdinTTY() || !ios.IsStdoutTTY() {
		return ctx, func() {}
	}
	cfg.Terminal = true
	cfg.Color = getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"
	if err := os.MkdirAll(stateDir, 0o700); err == nil {
		cfg.HistoryFile = filepath.Join(stateDir, "console_history")
	}
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	sigint := make(chan os.Signal, 1)
	sigterm := make(chan os.Signal, 1)
	signal.Notify(sigint, os.Interrupt)
	signal.Notify(sigterm, syscall.SIGTERM, syscall.SIGHUP)
	interrupts := make(chan struct{}, 1)
	cfg.Interrupts = interrupts
	go func() {
		for {
			select {
			case <-sigint:
				select {
				case interrupts <- struct{}{}:
				default:
				}
			case <-sigterm:
				cancel()
				return
			case <-ctx.Done():
				return
			}
		}
	}()
	return ctx, func() {
		signal.Stop(sigint)
		signal.Stop(sigterm)
		cancel()
	}
}

// consoleOptions are what attach and launch share: the tools, in-process
// or (with --no-prompt) the daemon's, and what the console's terminal
// needs.
type consoleOptions struct {
	IO *iostreams.IOStreams
	// ToolClient serves the console; DaemonClient the --no-prompt
	// session, which outlives the command.
	ToolClient   func(ctx context.Context, project string) (*toolclient.Client, error)
	DaemonClient func(ctx context.Context, project string) (*toolclient.Client, error)
	// Registry declares the languages.
	Registry func() *adapters.Registry
	StateDir func() string
	Getenv   func(string) string

	project  string
	noPrompt bool
	asJSON   bool
}

func newConsoleOptions(f *factory) consoleOptions {
	return consoleOptions{IO: f.io, ToolClient: f.toolClient, DaemonClient: f.daemonClient, Registry: f.registry,
		StateDir: f.stateDir, Getenv: f.getenv}
}

// addConsoleFlags adds --project, --no-prompt and --json.
func addConsoleFlags(cmd *cobra.Command, o *consoleOptions) {
	addProjectFlag(cmd, &o.project)
	cmd.Flags().BoolVar(&o.noPrompt, "no-prompt", false, "create the session in the project's daemon, print its id and first stop, and return")
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print JSON answers (the console reads commands from stdin)")
}

// runConsole runs the console on cfg over the project's tools, at the
// terminal when there is one.
func (o *consoleOptions) runConsole(ctx context.Context, cfg console.Config) error {
	ctx, release := consoleTerminal(ctx, o.IO, o.StateDir(), o.Getenv, &cfg)
	defer release()
	return withClient(ctx, o.ToolClient, o.project, func(tc *toolclient.Client) error {
		cfg.Tools = tc
		return console.Run(ctx, cfg)
	})
}
