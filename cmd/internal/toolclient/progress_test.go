package toolclient

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/toolkit"
	"github.com/dbg-dev/dbg/toolkit/mcpbind"
)

// A call whose context has a progress receiver (the CLI's progress line)
// gets the server's progress lines, sent as notifications/progress; a
// call without one sends no token.
func TestCallProgress(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := New(ctx, Config{StateDir: t.TempDir(), Project: t.TempDir(), Version: "test", Serve: func(context.Context) (*mcp.Server, func()) {
		srv := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
		tb := mcpbind.NewToolbox(srv, nil)
		toolkit.AddTool(tb, "build", "", func(ctx context.Context, _ struct{}) (struct{}, error) {
			toolkit.Progress(ctx, "compiling…")
			toolkit.Progress(ctx, "linking…")
			return struct{}{}, nil
		}, toolkit.Hints{Title: "Build"})
		return srv, func() {}
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var mu sync.Mutex
	var lines []string
	two := make(chan struct{})
	pctx := toolkit.WithProgress(ctx, func(l string) {
		mu.Lock()
		defer mu.Unlock()
		if lines = append(lines, l); len(lines) == 2 {
			close(two)
		}
	})
	if _, err := c.Call(pctx, "build", nil, nil); err != nil {
		t.Fatal(err)
	}
	select {
	case <-two:
	case <-ctx.Done():
		t.Fatal("the progress lines did not arrive")
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(lines, []string{"compiling…", "linking…"}) {
		t.Errorf("progress %q", lines)
	}
}
