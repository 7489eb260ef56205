package main

import (
	"context"
	"runtime/debug"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/sessions/sessiontools"
	"github.com/dbg-dev/dbg/sessions/toolkit/mcpbind"
)

type mcpOptions struct {
	project string
}

func newMCPCmd(e *env) *cobra.Command {
	opts := &mcpOptions{}
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the MCP tools over stdio",
		Long:  "Serve every dbg tool to an MCP client over stdin/stdout. Sessions, adapters and debuggees end when the client disconnects.",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runMCP(cmd.Context(), e, opts)
		},
	}
	cmd.Flags().StringVar(&opts.project, "project", "", "the project directory (default: the working directory)")
	cmd.AddCommand(newMCPInstallCmd(e))
	return cmd
}

// newServer builds the MCP server with every capability's tools. The
// returned function releases the capabilities' resources.
func newServer(ctx context.Context, e *env, m *sessions.Manager) (*mcp.Server, func()) {
	// Building ~50 tool schemas allocates a few MB that stay live: skip the
	// collections it would trigger, so the first answer comes sooner.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	srv := mcp.NewServer(&mcp.Implementation{Name: "dbg", Version: version}, &mcp.ServerOptions{
		Instructions: "dbg debugs programs in many languages. Typical flow: create_debug_session → set_breakpoint → start_debugging → (wait_for_stop) → get_stack_trace / get_local_variables / evaluate_expression → step_over / continue_execution → close_debug_session. get_debug_tools_status says what to do next.",
	})
	tb := mcpbind.NewToolbox(srv, e.now)
	sessiontools.RegisterTools(tb, m)
	sessiontools.RegisterStatusTool(tb, m)
	release := registerCapabilities(ctx, tb, m, e)
	return srv, release
}

func runMCP(ctx context.Context, e *env, opts *mcpOptions) error {
	m := e.newManager(opts.project)
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		m.Shutdown(sctx)
	}()
	srv, release := newServer(ctx, e, m)
	defer release()
	return srv.Run(ctx, &mcp.StdioTransport{})
}
