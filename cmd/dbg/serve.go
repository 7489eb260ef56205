package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/cmd/internal/daemon"
	"github.com/dbg-dev/dbg/cmd/internal/httpguard"
	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
	"github.com/dbg-dev/dbg/toolkit/mcpbind"
)

type serveOptions struct {
	IO        *iostreams.IOStreams
	StateDir  string
	Now       func() time.Time
	NewServer func(ctx context.Context, project string) (*mcp.Server, func())

	addr        string
	project     string
	rotateToken bool
	grace       time.Duration // how long a client that left keeps its sessions
	server      *serverFlags  // the flags NewServer builds with
}

func newCmdServe(f *factory, runF func(context.Context, *serveOptions) error) *cobra.Command {
	if runF == nil {
		runF = serveRun
	}
	opts := &serveOptions{IO: f.io, Now: f.now, NewServer: f.newServer}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the MCP tools over HTTP (Streamable HTTP at /mcp, legacy SSE at /sse)",
		Long: `Serve every dbg tool over HTTP on a loopback address: Streamable HTTP at /mcp
and the legacy HTTP+SSE transport at /sse. Every request needs
"Authorization: Bearer <token>"; the token is created on first use, kept with
mode 0600 in dbg's state directory and bound to the project. On start the
token is printed when stdout and stderr are terminals; otherwise (a
supervisor's log) only the file that keeps it is named: dbg token show
prints it. --rotate-token (or dbg token rotate, even while serving)
replaces it.

Sessions belong to the client (MCP session) that made them: a client that
disconnects keeps them for --client-grace, then they close.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := httpguard.CheckListenAddr(opts.addr); err != nil {
				return err
			}
			if opts.grace <= 0 {
				return fmt.Errorf("--client-grace %s: give a positive duration, such as 60s", opts.grace)
			}
			opts.StateDir = f.stateDir()
			return runF(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.addr, "addr", "127.0.0.1:7077", "loopback address to listen on")
	addProjectFlag(cmd, &opts.project)
	opts.server = addServerFlags(cmd, f, &opts.NewServer)
	cmd.Flags().BoolVar(&opts.rotateToken, "rotate-token", false, "replace the project's token before serving")
	cmd.Flags().DurationVar(&opts.grace, "client-grace", mcpbind.DefaultGrace, "how long the sessions of a client that disconnected stay open for it to come back")
	return cmd
}

// serveRun serves the project's tools until ctx ends, recorded as the
// project's daemon meanwhile.
func serveRun(ctx context.Context, opts *serveOptions) error {
	project := opts.project
	if project == "" {
		project = "."
	}
	project, err := filepath.Abs(project)
	if err != nil {
		return err
	}
	token, err := httpguard.ProjectToken(opts.StateDir, project, opts.rotateToken)
	if err != nil {
		return fmt.Errorf("the state directory %s cannot keep the token: %w", opts.StateDir, err)
	}
	current, err := httpguard.NewFileToken(opts.StateDir, project)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", opts.addr)
	if err != nil {
		return err
	}
	clients := mcpbind.NewClients(mcpbind.ClientsOptions{Grace: opts.grace})
	if opts.server != nil {
		opts.server.clients = clients
	}
	srv, release := opts.NewServer(ctx, project)
	defer release()
	defer clients.Close()
	trimStartupPages()
	port := ln.Addr().(*net.TCPAddr).Port
	handler := httpguard.NewFollowing(current, port, opts.Now).Wrap(clients.Handler(mcpHandler(srv)))
	// Requests live in base, which ends at shutdown: the clients' event
	// streams and long calls end then instead of holding the shutdown.
	base, endRequests := context.WithCancel(context.WithoutCancel(ctx))
	defer endRequests()
	hs := httpguard.NewServer(handler, httpguard.DefaultLimits)
	hs.BaseContext = func(net.Listener) context.Context { return base }
	unannounce, err := daemon.Announce(opts.StateDir, project, ln.Addr().String())
	if err != nil {
		_ = ln.Close()
		return err
	}
	defer unannounce()
	fmt.Fprintf(opts.IO.ErrOut, "dbg serving %s on http://%s/mcp (Streamable HTTP) and /sse (SSE)\n", project, ln.Addr())
	if opts.IO.IsStdoutTTY() && opts.IO.IsStderrTTY() {
		fmt.Fprintf(opts.IO.ErrOut, "Authorization: Bearer %s\n", token)
	} else {
		// A log must not hold the token: name where it is kept.
		fmt.Fprintf(opts.IO.ErrOut, "Token file: %s (dbg token show prints the token)\n", httpguard.TokenPath(opts.StateDir, project))
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case <-ctx.Done():
		endRequests()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = hs.Shutdown(sctx)
		return nil
	case err := <-errc:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return err
	}
}

// mcpHandler routes /mcp (Streamable HTTP) and /sse (legacy SSE) to one
// server, so every client sees the same sessions.
func mcpHandler(srv *mcp.Server) http.Handler {
	get := func(*http.Request) *mcp.Server { return srv }
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(get, nil))
	mux.Handle("/mcp/", mcp.NewStreamableHTTPHandler(get, nil))
	sse := mcp.NewSSEHandler(get, nil)
	mux.Handle("/sse", sse)
	mux.Handle("/sse/", sse)
	return mux
}
