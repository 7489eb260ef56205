// Command dbg debugs running programs in many languages through the Debug
// Adapter Protocol, for agents (MCP) and people (CLI).
//
// This package only wires: one file per verb, each with its options, its
// cobra command (newCmdX) and its run function (xRun) writing through
// iostreams. The work is done by dbg's MCP tools, called through
// cmd/internal/toolclient; wire.go builds the server they run on.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := newCmdRoot(defaultFactory()).ExecuteContext(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "dbg:", err)
		os.Exit(1)
	}
}
