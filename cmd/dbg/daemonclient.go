package main

import (
	"context"
	"fmt"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/cmd/internal/daemon"
	"github.com/dbg-dev/dbg/cmd/internal/toolclient"
)

// daemonClient connects a one-shot command to the project's daemon,
// starting one in the background when none runs (and saying so on
// stderr): the sessions it creates outlive the command, and an MCP
// client of the same daemon sees them.
func (f *factory) daemonClient(ctx context.Context, project string) (*toolclient.Client, error) {
	return toolclient.New(ctx, toolclient.Config{
		StateDir: f.stateDir(),
		Project:  project,
		Version:  version,
		Serve:    func(ctx context.Context) (*mcp.Server, func()) { return f.newServer(ctx, project) },
		StartDaemon: func(ctx context.Context, abs string) error {
			exe, err := os.Executable()
			if err != nil {
				return fmt.Errorf("find the dbg binary to start the daemon: %w", err)
			}
			d, err := daemon.Start(ctx, daemon.StartConfig{
				StateDir: f.stateDir(), Project: abs, Exe: exe,
				// The shell's own daemon: paths as free as at the shell.
				Args: []string{"serve", "--addr", "127.0.0.1:0", "--project", abs, "--allow-outside-project"},
				Env:  append(os.Environ(), "DBG_STATE_DIR="+f.stateDir()),
			})
			if err != nil {
				return err
			}
			fmt.Fprintf(f.io.ErrOut, "started the dbg daemon for %s (pid %d, http://%s/mcp); dbg stop ends it\n", abs, d.PID, d.Addr)
			return nil
		},
	})
}
