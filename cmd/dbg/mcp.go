package main

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"
)

type mcpOptions struct {
	// NewServer builds the server of a project with every tool; the
	// returned function ends what it started.
	NewServer func(ctx context.Context, project string) (*mcp.Server, func())
	Transport mcp.Transport

	project     string
	server      *serverFlags // the flags NewServer builds with
	heapProfile string       // $DBG_HEAPPROFILE: where to write a heap profile at the end
}

func newCmdMCP(f *factory, runF func(context.Context, *mcpOptions) error) *cobra.Command {
	opts := &mcpOptions{NewServer: f.newServer, Transport: &mcp.StdioTransport{}, heapProfile: f.getenv(heapProfileEnv)}
	cmd := verb(&cobra.Command{
		Use:   "mcp",
		Short: "Serve the MCP tools over stdio",
		Long:  "Serve every dbg tool to an MCP client over stdin/stdout. Sessions, adapters and debuggees end when the client disconnects.",
	}, opts, mcpRun, runF)
	addProjectFlag(cmd, &opts.project)
	opts.server = addServerFlags(cmd, f, &opts.NewServer)
	cmd.AddCommand(newCmdMCPInstall(f, nil))
	return cmd
}

func mcpRun(ctx context.Context, opts *mcpOptions) error {
	srv, release := opts.NewServer(ctx, opts.project)
	defer release()
	trimStartupPages()
	err := srv.Run(ctx, opts.Transport)
	if perr := writeHeapProfile(opts.heapProfile); err == nil {
		err = perr
	}
	return err
}
