package toolkit

import (
	"context"
	"errors"
	"fmt"
)

// Caller is the client of one tool call, as the binding that serves the
// tools knows it (package mcpbind: the MCP session). The binding puts it
// in the call's context ([WithCaller]). Its methods are safe for
// concurrent use.
type Caller interface {
	// Client names the client ("claude-code 1.2"), for the audit.
	Client() string
	// Confirm asks the user a yes-or-no question. It returns
	// ErrCannotConfirm when the client cannot ask (no elicitation).
	Confirm(ctx context.Context, question string) (bool, error)
}

// ErrCannotConfirm is returned by a [Caller] whose client cannot ask the
// user anything.
var ErrCannotConfirm = errors.New("the client cannot ask the user")

type callerKey struct{}

// WithCaller returns ctx carrying the caller of a tool call.
func WithCaller(ctx context.Context, c Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

// CallerOf returns the caller ctx carries, or nil.
func CallerOf(ctx context.Context) Caller {
	c, _ := ctx.Value(callerKey{}).(Caller)
	return c
}

type progressKey struct{}

// WithProgress returns ctx carrying f, which receives one line for each
// long step of the work done with ctx: a build, an agent's load, a test
// discovery, a compile. The MCP binding sends each as
// notifications/progress when the client asked for progress; the CLI
// prints it on stderr. It is the one carrier of progress: adapters,
// sessions and capabilities report through [Progress].
func WithProgress(ctx context.Context, f func(line string)) context.Context {
	return context.WithValue(ctx, progressKey{}, f)
}

// Progress reports a line to ctx's progress receiver, when it has one.
func Progress(ctx context.Context, format string, args ...any) {
	if f := ProgressOf(ctx); f != nil {
		f(fmt.Sprintf(format, args...))
	}
}

// ProgressOf returns ctx's progress receiver, or nil.
func ProgressOf(ctx context.Context) func(line string) {
	f, _ := ctx.Value(progressKey{}).(func(string))
	return f
}

// ShellClient is the client name of dbg's own CLI commands (package
// toolclient). They are the user at a shell: their calls carry no
// client id, so they see every session and the sessions they make
// belong to no client.
const ShellClient = "dbg-cli"

// Identified is a [Caller] that knows which connection the call came on.
type Identified interface {
	// ClientID names the connection (the MCP session of an HTTP or SSE
	// client); "" for the one client of stdio and for the user's shell.
	ClientID() string
}

// ClientID returns the id of the connection ctx's call came on, or ""
// (see [Identified]).
func ClientID(ctx context.Context) string {
	if c, ok := CallerOf(ctx).(Identified); ok {
		return c.ClientID()
	}
	return ""
}
