package ruby

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/dap"
	"github.com/dbg-dev/dbg/dap/daptest"
)

// A request that comes after the session's disconnect never reaches rdbg
// (old rdbg's reader dies on it and the program stops with it): the proxy
// answers it with an error.
func TestNoRequestReachesRdbgAfterDisconnect(t *testing.T) {
	fake, up := daptest.NewAdapter(t, nil)
	px := New(false, false).Start(up, nil, "")
	t.Cleanup(px.Stop)
	conn := dap.NewConn(px.Client(), dap.Options{})
	t.Cleanup(func() { conn.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := conn.Request(ctx, "stackTrace", map[string]any{"threadId": 1}); err != nil {
		t.Fatalf("stackTrace before the disconnect: %v", err)
	}
	if _, err := conn.Request(ctx, "disconnect", map[string]any{}); err != nil {
		t.Fatalf("disconnect: %v", err)
	}
	_, err := conn.Request(ctx, "stackTrace", map[string]any{"threadId": 1})
	if err == nil || !strings.Contains(err.Error(), "disconnecting") {
		t.Fatalf("stackTrace after the disconnect: %v, want the proxy's refusal", err)
	}
	if n := len(fake.Requests("stackTrace")); n != 1 {
		t.Errorf("rdbg got %d stackTrace requests, want only the one before the disconnect", n)
	}
	if n := len(fake.Requests("disconnect")); n != 1 {
		t.Errorf("rdbg got %d disconnects, want 1", n)
	}
}
