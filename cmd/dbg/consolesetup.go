package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/cmd/internal/console"
	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
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
