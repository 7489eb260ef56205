// Command dbg debugs running programs in many languages through the Debug
// Adapter Protocol, for agents (MCP) and people (CLI).
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
	if err := newRootCmd(defaultEnv()).ExecuteContext(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "dbg:", err)
		os.Exit(1)
	}
}
