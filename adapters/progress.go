package adapters

import (
	"context"
	"fmt"
)

// ProgressFunc receives one line about a long step of an adapter's start:
// an attach check, an injection, a build. The CLI prints it on stderr when
// that is a terminal; the MCP server may send it as a progress
// notification.
type ProgressFunc func(line string)

type progressKey struct{}

// WithProgress returns ctx carrying f: the adapters' Start, LaunchArgs and
// AttachArgs called with it report their long steps to f.
func WithProgress(ctx context.Context, f ProgressFunc) context.Context {
	return context.WithValue(ctx, progressKey{}, f)
}

// progress reports a line to ctx's ProgressFunc, when it has one.
func progress(ctx context.Context, format string, args ...any) {
	if f, ok := ctx.Value(progressKey{}).(ProgressFunc); ok && f != nil {
		f(fmt.Sprintf(format, args...))
	}
}
