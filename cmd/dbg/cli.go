package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/sessions/toolkit"
)

// toolClient answers CLI commands with dbg's own MCP tools: it builds the
// same session manager, tools and capabilities as `dbg mcp`, serves them
// over an in-memory transport and calls them by name, so a command prints
// exactly what an agent would receive.
//
// A toolClient lives for one command. Close stops what the command started
// in-process (debug sessions, run-configuration processes, agent
// connections); an agent loaded into a JVM stays there, since it lives in
// the target. Calls may run concurrently.
type toolClient struct {
	cs      *mcp.ClientSession
	ss      *mcp.ServerSession
	m       *sessions.Manager
	release func()
	cancel  context.CancelFunc
}

// newToolClient connects to the project's running daemon (`dbg serve`),
// or else starts the in-process server for project ("" = the working
// directory).
func newToolClient(ctx context.Context, e *env, project string) (*toolClient, error) {
	if abs, err := filepath.Abs(firstNonEmptyStr(project, ".")); err == nil {
		if cs, ok := connectDaemon(ctx, e.stateDir(), abs); ok {
			return &toolClient{cs: cs, release: func() {}, cancel: func() {}}, nil
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	m := e.newManager(project)
	srv, release := newServer(ctx, e, m)
	tc := &toolClient{m: m, release: release, cancel: cancel}
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		tc.Close()
		return nil, fmt.Errorf("start the in-process server: %w", err)
	}
	tc.ss = ss
	c := mcp.NewClient(&mcp.Implementation{Name: "dbg-cli", Version: version}, nil)
	cs, err := c.Connect(ctx, ct, nil)
	if err != nil {
		tc.Close()
		return nil, fmt.Errorf("connect to the in-process server: %w", err)
	}
	tc.cs = cs
	return tc, nil
}

// Close ends the client, the server and the capabilities, and shuts the
// session manager down (at most 10 seconds).
func (c *toolClient) Close() {
	if c.cs != nil {
		_ = c.cs.Close()
	}
	if c.ss != nil {
		_ = c.ss.Wait()
	}
	c.release()
	c.cancel()
	if c.m == nil {
		return // a daemon's sessions outlive the command
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c.m.Shutdown(ctx)
}

// envelope is a tool's answer with its data left undecoded.
type envelope = toolkit.Envelope[json.RawMessage]

// toolFailure is a tool's structured error (SPEC §4) as a Go error. Raw is
// the whole envelope, printed as is with --json.
type toolFailure struct {
	Tool string
	Err  *toolkit.ToolError
	Raw  json.RawMessage
}

func (f *toolFailure) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", f.Err.Code, f.Err.Message)
	if f.Err.Hint != "" {
		fmt.Fprintf(&b, "\n  hint: %s", f.Err.Hint)
	}
	if len(f.Err.AvailableOptions) > 0 {
		fmt.Fprintf(&b, "\n  options: %s", strings.Join(f.Err.AvailableOptions, ", "))
	}
	if f.Err.NextAction != "" {
		fmt.Fprintf(&b, "\n  next: %s", f.Err.NextAction)
	}
	return b.String()
}

// call calls a tool and decodes its data into out (nil = discard). It
// returns the raw data, or a *toolFailure when the tool answered an
// error; a business failure's data (SPEC §4) is decoded into out too.
func (c *toolClient) call(ctx context.Context, name string, args map[string]any, out any) (json.RawMessage, error) {
	res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(res.Content) == 0 {
		return nil, fmt.Errorf("%s: empty answer", name)
	}
	text, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		return nil, fmt.Errorf("%s: answer is not text", name)
	}
	raw := json.RawMessage(text.Text)
	var env envelope
	if err := json.Unmarshal(raw, &env); err != nil {
		return nil, fmt.Errorf("%s: bad answer: %w", name, err)
	}
	if !env.Success {
		te := env.Error
		if te == nil {
			te = toolkit.NewError(toolkit.CodeInternal, "the tool failed without an error", "")
		}
		if env.Data != nil && out != nil {
			_ = json.Unmarshal(*env.Data, out) // a business failure keeps the tool's fields
		}
		return nil, &toolFailure{Tool: name, Err: te, Raw: raw}
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

// writeJSON prints v indented, followed by a newline.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// writeRawJSON prints raw JSON indented.
func writeRawJSON(w io.Writer, raw json.RawMessage) error {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return err
	}
	return writeJSON(w, v)
}

// finish turns a command's error into its output: with --json a tool
// failure prints its whole envelope on stdout (scripts read error.code);
// the error is returned either way so the exit status is 1.
func finish(stdout io.Writer, asJSON bool, err error) error {
	var tf *toolFailure
	if asJSON && errors.As(err, &tf) {
		_ = writeRawJSON(stdout, tf.Raw)
	}
	return err
}

// orDash prints "-" for an empty or nil value.
func orDash[T any](p *T) string {
	if p == nil {
		return "-"
	}
	s := fmt.Sprint(*p)
	if s == "" {
		return "-"
	}
	return s
}

// dash prints "-" for an empty string.
func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
