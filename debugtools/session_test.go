package debugtools

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
)

// TestSessionJVMAttachedOnDemand runs the fixture under a Java debug
// session and invokes a method by sessionId: the session's JVM is found
// and attached on demand, and its logs come from the session's output.
func TestSessionJVMAttachedOnDemand(t *testing.T) {
	t.Parallel()
	classes := buildFixture(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	m := sessions.NewManager(sessions.Config{Adapters: adapters.Default(), StateDir: t.TempDir()})
	t.Cleanup(func() {
		sctx, scancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer scancel()
		m.Shutdown(sctx)
	})
	c := newJVMClientOn(t, m, Config{})

	s, _, err := m.Create(ctx, sessions.CreateRequest{Language: "java"})
	if err != nil {
		t.Skipf("java debug sessions unavailable: %v", err)
	}
	if _, err := m.Start(ctx, s.ID(), sessions.StartRequest{ScriptPath: "com.example.shop.ShopApplication", Cwd: t.TempDir(),
		AdapterLaunchConfig: map[string]any{"classpath": classes + ":" + h2Jar}}); err != nil {
		t.Fatalf("start: %v", err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(s.Output().Text(""), "READY") || s.Info().PID == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("session not ready: pid %d, output %q", s.Info().PID, s.Output().Text(""))
		}
		time.Sleep(50 * time.Millisecond)
	}
	wantJVMCode(t, callJVM[AttachOut](c, "attach_local_jvm", map[string]any{"sessionId": "no-such-session"}), toolkit.CodeSessionNotFound)
	out := mustJVMOK(t, callJVM[InvokeOut](c, "invoke_java_method", map[string]any{"sessionId": s.ID(),
		"className": "com.example.shop.OrderService", "methodName": "greet", "argsJson": `{"name":{"type":"simple","content":"Dbg"}}`}))
	if str(out.Result) != "Hello, Dbg!" {
		t.Fatalf("invoke: %+v", out)
	}
	conns := mustJVMOK(t, callJVM[connectionsOut](c, "list_debug_tools_connections", map[string]any{"sessionId": s.ID()}))
	if conns.Count != 1 || *conns.Connections[0].PID != itoa(s.Info().PID) {
		t.Fatalf("connections: %+v", conns)
	}
	att := mustJVMOK(t, callJVM[AttachOut](c, "attach_local_jvm", map[string]any{"sessionId": s.ID(), "waitForConnectionMillis": 1000}))
	if att.PID != itoa(s.Info().PID) || att.ConnectionID == nil || *att.ConnectionID != conns.Connections[0].ConnectionID {
		t.Fatalf("attach by session: %+v", att)
	}
	deadline = time.Now().Add(10 * time.Second)
	for {
		logs := mustJVMOK(t, callJVM[LogsOut](c, "read_target_application_logs", map[string]any{"sessionId": s.ID(), "keyword": "greet called with Dbg"}))
		if logs.Source == "session" && logs.Count == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("session logs: %+v", logs)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
