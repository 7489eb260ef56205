package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	tuneGC(os.Getenv)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := newCmdRoot(defaultFactory()).ExecuteContext(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "dbg:", err)
		os.Exit(1)
	}
}
