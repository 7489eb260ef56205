package adapters

import (
	"context"

	"github.com/dbg-dev/dbg/toolkit"
)

// ProgressFunc receives one line about a long step of an adapter's start:
// an attach check, an injection, a build. The CLI prints it on stderr when
// that is a terminal; the MCP server sends it as notifications/progress
// when the client asked for progress.
type ProgressFunc func(line string)

// WithProgress returns ctx carrying f: the adapters' Start, LaunchArgs and
// AttachArgs called with it report their long steps to f, and so do the
// sessions and capabilities (toolkit.Progress is the one carrier).
func WithProgress(ctx context.Context, f ProgressFunc) context.Context {
	return toolkit.WithProgress(ctx, f)
}

// progress reports a line to ctx's progress receiver, when it has one.
func progress(ctx context.Context, format string, args ...any) {
	toolkit.Progress(ctx, format, args...)
}
