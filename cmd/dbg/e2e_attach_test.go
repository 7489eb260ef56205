package main

import (
	"fmt"
	"net"
	"strings"
	"testing"
	"time"
)

// attachScenario attaches to a running target, checks a thread, the pause
// and the stack, detaches, and checks that the target keeps running.
func attachScenario(t *testing.T, c *client, args map[string]any, targetPID int, out *lineBuffer, wantFile string) {
	t.Helper()
	s := c.ok("create_debug_session", args)
	id := s.str("sessionId")
	if s.str("state") != "paused" {
		s = c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 20000})
	}
	if s.str("state") != "paused" {
		t.Fatalf("attach did not pause the target: %v", s)
	}
	threads := c.ok("list_threads", map[string]any{"sessionId": id})
	if len(threads.list("threads")) == 0 {
		t.Fatalf("no threads after attach")
	}
	stack := c.ok("get_stack_trace", map[string]any{"sessionId": id, "threadId": s.num("lastStop.threadId"), "levels": 50})
	found := false
	for _, f := range stack.list("stackFrames") {
		if strings.HasSuffix(f.str("file"), wantFile) {
			found = true
		}
	}
	if !found {
		t.Fatalf("no frame in %s: %v", wantFile, stack)
	}
	c.ok("detach_from_process", map[string]any{"sessionId": id})
	before := strings.Count(out.String(), "tick")
	deadline := time.Now().Add(10 * time.Second)
	for strings.Count(out.String(), "tick") <= before+1 {
		if time.Now().After(deadline) {
			t.Fatalf("the target stopped ticking after detach; output: %s", out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !processAlive(targetPID) {
		t.Fatalf("the target died")
	}
	c.ok("close_debug_session", map[string]any{"sessionId": id})
	if !processAlive(targetPID) {
		t.Fatalf("closing an attached session killed the target")
	}
}

func TestAttachPythonByPID(t *testing.T) {
	requireDebugpy(t)
	requireTool(t, "gdb", "--version") // debugpy injects itself with gdb
	cmd, out := startTarget(t, "ready", "python3", fixture(t, "python/server.py"))
	c := startDbg(t)
	attachScenario(t, c, map[string]any{"language": "python", "processId": cmd.Process.Pid}, cmd.Process.Pid, out, "server.py")
}

func TestAttachPythonByPort(t *testing.T) {
	requireDebugpy(t)
	port := freePort(t)
	cmd, out := startTarget(t, "ready", "python3", fixture(t, "python/server.py"), "--listen", fmt.Sprint(port))
	c := startDbg(t)
	attachScenario(t, c, map[string]any{"language": "python", "port": port}, cmd.Process.Pid, out, "server.py")
}

func TestAttachGoByPID(t *testing.T) {
	requireDelve(t)
	bin := t.TempDir() + "/server"
	build := goBuild(t, fixture(t, "go/server"), bin)
	_ = build
	cmd, out := startTarget(t, "ready", bin)
	c := startDbg(t)
	attachScenario(t, c, map[string]any{"language": "go", "processId": cmd.Process.Pid}, cmd.Process.Pid, out, "main.go")
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
