package nodedap

import (
	"context"
	"encoding/json"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/dap"
)

// TestServeKillsOnHangup serves one client the way `dbg dap node` does and
// checks that the client going away ends Serve and the launched program.
func TestServeKillsOnHangup(t *testing.T) {
	t.Parallel()
	mustHaveNode(t)
	cl, srv := net.Pipe()
	done := make(chan error, 1)
	go func() { done <- Serve(context.Background(), srv, nil) }()
	stopped := make(chan struct{}, 4)
	conn := dap.NewConn(cl, dap.Options{Timeout: 20 * time.Second, OnEvent: func(m *dap.Message) {
		if m.Event == "stopped" {
			stopped <- struct{}{}
		}
	}})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := conn.Request(ctx, "initialize", map[string]any{"adapterID": "node"}); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Request(ctx, "launch", map[string]any{"program": fixture(t, "spin.js")}); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Request(ctx, "configurationDone", nil); err != nil {
		t.Fatal(err)
	}
	// Busy in a loop, node cannot evaluate; the answer says so in time.
	if _, err := conn.Request(ctx, "evaluate", map[string]any{"expression": "n"}); err == nil || !strings.Contains(err.Error(), "busy") {
		t.Fatalf("evaluate while busy: %v", err)
	}
	if _, err := conn.Request(ctx, "pause", map[string]any{"threadId": 1}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-stopped:
	case <-ctx.Done():
		t.Fatal("no stop after pause")
	}
	resp, err := conn.Request(ctx, "evaluate", map[string]any{"expression": "String(process.pid)"})
	if err != nil {
		t.Fatal(err)
	}
	var b struct{ Result string }
	_ = json.Unmarshal(resp.Body, &b)
	var pid string
	_ = json.Unmarshal([]byte(b.Result), &pid)
	if pid == "" {
		t.Fatalf("pid %q", b.Result)
	}
	_ = conn.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after the client hung up")
	}
	waitGone(t, pid)
}
