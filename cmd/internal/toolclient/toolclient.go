// Package toolclient is how dbg's CLI commands do their work: they call
// dbg's own MCP tools by name, so a command prints exactly what an agent
// would receive.
//
// [New] connects to the project's running daemon (`dbg serve`, found
// with package daemon) or, when none runs, starts the in-process server
// the caller builds and serves it over an in-memory transport:
//
//	c, err := toolclient.New(ctx, toolclient.Config{StateDir: dir, Project: ".", Version: v, Serve: build})
//	defer c.Close()
//	var out struct{ Sessions []any }
//	raw, err := c.Call(ctx, "list_debug_sessions", nil, &out)
//
// A tool that answers an error envelope (docs/contract.md, "Structured errors") comes back as a
// [*Failure]; [Finish] prints its envelope for --json.
package toolclient

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/cmd/internal/daemon"
	"github.com/dbg-dev/dbg/toolkit"
)

// Config says where a client finds its tools.
type Config struct {
	StateDir string // dbg's state directory, where daemons are recorded
	Project  string // the project directory ("" = the working directory)
	Version  string // dbg's version, sent as the client's

	// Serve builds the in-process server when no daemon runs for the
	// project. The returned function ends what it started (capabilities,
	// debug sessions); Close calls it.
	Serve func(ctx context.Context) (*mcp.Server, func())

	// StartDaemon, when set, makes the client use the project's daemon
	// and nothing else: when none runs, StartDaemon starts one in the
	// background (the one-shot commands, whose sessions outlive them).
	StartDaemon func(ctx context.Context, project string) error
}

// Client calls dbg's tools for one command. Calls may run concurrently.
// Close stops what the command started in-process (debug sessions,
// run-configuration processes, agent connections); a daemon's sessions
// outlive the command, and an agent loaded into a JVM stays there, since
// it lives in the target.
type Client struct {
	cs       *mcp.ClientSession
	ss       *mcp.ServerSession
	shutdown func()
	cancel   context.CancelFunc
	routes   *progressRoutes
}

// New connects to the project's running daemon, or else starts the
// in-process server of cfg.Serve.
func New(ctx context.Context, cfg Config) (*Client, error) {
	impl := &mcp.Implementation{Name: toolkit.ShellClient, Version: cfg.Version}
	routes := &progressRoutes{}
	project := cfg.Project
	if project == "" {
		project = "."
	}
	abs, err := filepath.Abs(project)
	if err == nil {
		if cs, ok := daemon.ConnectWith(ctx, cfg.StateDir, abs, impl, routes.options()); ok {
			return &Client{cs: cs, routes: routes}, nil
		}
	}
	if cfg.StartDaemon != nil {
		if err != nil {
			return nil, fmt.Errorf("the project directory %s: %w", project, err)
		}
		if err := cfg.StartDaemon(ctx, abs); err != nil {
			return nil, err
		}
		cs, ok := daemon.ConnectWith(ctx, cfg.StateDir, abs, impl, routes.options())
		if !ok {
			return nil, fmt.Errorf("the daemon of %s started but does not answer", abs)
		}
		return &Client{cs: cs, routes: routes}, nil
	}
	ctx, cancel := context.WithCancel(ctx)
	srv, shutdown := cfg.Serve(ctx)
	c := &Client{shutdown: shutdown, cancel: cancel, routes: routes}
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("start the in-process server: %w", err)
	}
	c.ss = ss
	cs, err := mcp.NewClient(impl, routes.options()).Connect(ctx, ct, nil)
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("connect to the in-process server: %w", err)
	}
	c.cs = cs
	return c, nil
}

// InProcess reports whether the tools run in this process (no daemon
// serves the project).
func (c *Client) InProcess() bool { return c.shutdown != nil }

// Close ends the client and, in-process, the server and what it started.
func (c *Client) Close() {
	if c.cs != nil {
		_ = c.cs.Close()
	}
	if c.ss != nil {
		_ = c.ss.Wait()
	}
	if c.shutdown != nil {
		c.shutdown()
	}
	if c.cancel != nil {
		c.cancel()
	}
}

// Call calls a tool and decodes its data into out (nil = discard). It
// returns the raw data, or a *Failure when the tool answered an error.
func (c *Client) Call(ctx context.Context, name string, args map[string]any, out any) (json.RawMessage, error) {
	params := &mcp.CallToolParams{Name: name, Arguments: args}
	if f := toolkit.ProgressOf(ctx); f != nil && c.routes != nil {
		tok := c.routes.add(f)
		defer c.routes.remove(tok)
		params.SetProgressToken(tok)
	}
	res, err := c.cs.CallTool(ctx, params)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return Decode(name, res, out)
}

// Envelope is a tool's answer with its data left undecoded.
type Envelope = toolkit.Envelope[json.RawMessage]

// Decode reads a tool's result: its data into out (nil = discard), the
// raw data returned, or a *Failure for an error envelope, whose data (a
// business failure's) is decoded into out too.
func Decode(name string, res *mcp.CallToolResult, out any) (json.RawMessage, error) {
	if len(res.Content) == 0 {
		return nil, fmt.Errorf("%s: empty answer", name)
	}
	text, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		return nil, fmt.Errorf("%s: answer is not text", name)
	}
	raw := json.RawMessage(text.Text)
	var env Envelope
	if err := json.Unmarshal(raw, &env); err != nil {
		return nil, fmt.Errorf("%s: bad answer: %w", name, err)
	}
	if !env.Success {
		te := env.Error
		if te == nil {
			te = toolkit.NewError(toolkit.CodeInternal, "the tool failed without an error", "")
		}
		if env.Data != nil && out != nil {
			_ = json.Unmarshal(*env.Data, out) // a business failure keeps the tool's fields (docs/contract.md, "Structured errors")
		}
		return nil, &Failure{Tool: name, Err: te, Raw: raw}
	}
	if env.Data == nil {
		return nil, fmt.Errorf("%s: answer without data", name)
	}
	if out != nil {
		if err := json.Unmarshal(*env.Data, out); err != nil {
			return nil, fmt.Errorf("%s: decode data: %w", name, err)
		}
	}
	return *env.Data, nil
}
