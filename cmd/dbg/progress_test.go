package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// progressLog collects the progress notifications of one token.
type progressLog struct {
	mu    sync.Mutex
	lines []string
}

func (p *progressLog) handle(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if req.Params.ProgressToken == "tok" {
		p.lines = append(p.lines, req.Params.Message)
	}
}

func (p *progressLog) all() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.lines...)
}

// has waits a little for a line holding s: notifications may trail the
// answer they belong to.
func (p *progressLog) has(s string) bool {
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		for _, l := range p.all() {
			if strings.Contains(l, s) {
				return true
			}
		}
	}
	return false
}

// TestProgressOfLongCalls: a launch that builds the program and a test
// discovery send notifications/progress to a client that gave a
// progressToken.
func TestProgressOfLongCalls(t *testing.T) {
	t.Parallel()
	requireDelve(t)
	log := &progressLog{}
	c := startDbgWith(t, &mcp.ClientOptions{ProgressNotificationHandler: log.handle}, []string{"--project", fixture(t, "tests/go")})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	// A program of its own folder: never built before, so this launch builds it.
	dir := t.TempDir()
	src, err := os.ReadFile(fixture(t, "go/loop/main.go"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module loop\n\ngo 1.21\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	id := c.ok("create_debug_session", map[string]any{"language": "go"}).str("sessionId")
	params := &mcp.CallToolParams{Name: "start_debugging", Arguments: map[string]any{"sessionId": id, "scriptPath": dir, "stopOnEntry": true}}
	params.SetProgressToken("tok")
	if res, err := c.cs.CallTool(ctx, params); err != nil || res.IsError {
		t.Fatalf("start_debugging: %+v %v", res, err)
	}
	if !log.has("building " + dir) {
		t.Errorf("no build progress: %q", log.all())
	}
	c.ok("close_debug_session", map[string]any{"sessionId": id})
	params = &mcp.CallToolParams{Name: "list_tests", Arguments: map[string]any{"package": "./cart"}}
	params.SetProgressToken("tok")
	if res, err := c.cs.CallTool(ctx, params); err != nil || res.IsError {
		t.Fatalf("list_tests: %+v %v", res, err)
	}
	if !log.has("listing the go tests") {
		t.Errorf("no discovery progress: %q", log.all())
	}
}
