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
// gets the server's progress lines, sent as notifications/progress, while
// the call runs. (A line the client reads after the answer has no line to
// show on: the tool waits for each line to be shown before it goes on.)
func TestCallProgress(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	shown := make(chan string, 2)
	await := func(ctx context.Context) {
		select {
		case <-shown:
		case <-ctx.Done():
		}
	}
	c, err := New(ctx, Config{StateDir: t.TempDir(), Project: t.TempDir(), Version: "test", Serve: func(context.Context) (*mcp.Server, func()) {
		srv := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
		tb := mcpbind.NewToolbox(srv, nil)
		toolkit.AddTool(tb, "build", "", func(ctx context.Context, _ struct{}) (struct{}, error) {
			toolkit.Progress(ctx, "compiling…")
			await(ctx)
			toolkit.Progress(ctx, "linking…")
			await(ctx)
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
		shown <- l
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
