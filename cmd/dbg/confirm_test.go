package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// elicitor is a go-sdk client's elicitation handler that answers what it
// is told to and remembers the questions.
type elicitor struct {
	mu     sync.Mutex
	answer string // accept, decline
	asked  []string
}

func (e *elicitor) set(answer string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.answer = answer
}

func (e *elicitor) questions() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.asked...)
}

func (e *elicitor) handle(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.asked = append(e.asked, req.Params.Message)
	return &mcp.ElicitResult{Action: e.answer}, nil
}

// TestConfirmDestructive: with --confirm destructive, closing a launched
// program asks the user through the go-sdk client's elicitation: "no"
// answers CANCELLED and leaves the session, "yes" closes it; closing an
// attached session (its target keeps running) asks nothing; a Git push
// asks too; a client without elicitation is refused. Every call that
// changed something is in the audit log that dbg audit prints.
func TestConfirmDestructive(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	e := &elicitor{}
	c := startDbgWith(t, &mcp.ClientOptions{ElicitationHandler: e.handle}, []string{"--confirm", "destructive"}, "DBG_STATE_DIR="+state)
	prog := fixture(t, "mock/loop.mock")
	id := c.ok("create_debug_session", map[string]any{"language": "mock"}).str("sessionId")
	c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog, "stopOnEntry": true})
	c.ok("list_debug_sessions", nil)

	e.set("decline")
	c.fail("close_debug_session", map[string]any{"sessionId": id}, "CANCELLED")
	if q := e.questions(); len(q) != 1 || !strings.Contains(q[0], "close_debug_session") || !strings.Contains(q[0], id) {
		t.Fatalf("questions %q", q)
	}
	if n := c.ok("list_debug_sessions", nil).num("count"); n != 1 {
		t.Fatalf("the declined close closed the session: %d sessions", n)
	}
	e.set("accept")
	c.ok("close_debug_session", map[string]any{"sessionId": id})
	if n := c.ok("list_debug_sessions", nil).num("count"); n != 0 || len(e.questions()) != 2 {
		t.Fatalf("after yes: %d sessions, %d questions", n, len(e.questions()))
	}

	repo := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	e.set("decline")
	c.fail("git_push", map[string]any{"projectPath": repo}, "CANCELLED")

	attached, targetPID := "", 0
	t.Run("attached", func(t *testing.T) {
		requireDebugpy(t)
		port := freePort(t)
		target, _ := startTarget(t, "ready", "python3", fixture(t, "python/server.py"), "--listen", fmt.Sprint(port))
		before := len(e.questions())
		id := c.ok("create_debug_session", map[string]any{"language": "python", "port": port, "stopOnEntry": false}).str("sessionId")
		attached, targetPID = id, target.Process.Pid
		c.ok("close_debug_session", map[string]any{"sessionId": id})
		if len(e.questions()) != before || !processAlive(target.Process.Pid) {
			t.Errorf("closing an attached session asked %d times; the target is alive: %v", len(e.questions())-before, processAlive(target.Process.Pid))
		}
	})

	t.Run("no elicitation", func(t *testing.T) {
		plain := startDbgWith(t, nil, []string{"--confirm", "destructive"})
		id := plain.ok("create_debug_session", map[string]any{"language": "mock"}).str("sessionId")
		plain.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog, "stopOnEntry": true})
		r := plain.fail("close_debug_session", map[string]any{"sessionId": id}, "UNSUPPORTED")
		if !strings.Contains(r.Error.Message, "elicitation") {
			t.Errorf("refusal %q", r.Error.Message)
		}
	})

	cmd := exec.Command(dbgBinary, "audit", "--json", "--since", "1h")
	cmd.Env = append(os.Environ(), "DBG_STATE_DIR="+state)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("dbg audit: %v", err)
	}
	var got []string
	pids := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var entry struct {
			Tool, Outcome, Session, Client string
			PID                            int
		}
		if err := json.Unmarshal([]byte(line), &entry); err != nil {
			t.Fatalf("audit line %q: %v", line, err)
		}
		if entry.Client != "dbg-e2e 1" {
			t.Errorf("client %q", entry.Client)
		}
		got = append(got, entry.Tool+":"+entry.Outcome)
		if entry.Session == attached {
			pids[entry.Tool] = entry.PID
		}
	}
	want := []string{"create_debug_session:ok", "start_debugging:ok", "close_debug_session:CANCELLED", "close_debug_session:ok", "git_push:CANCELLED"}
	if len(got) < len(want) || strings.Join(got[:len(want)], " ") != strings.Join(want, " ") {
		t.Errorf("audit %v, want %v first (no read-only calls)", got, want)
	}
	// The attached target's pid, on its create and on its close too.
	if attached != "" && (pids["create_debug_session"] != targetPID || pids["close_debug_session"] != targetPID) {
		t.Errorf("the target's pid %d in the audit: %v\n%s", targetPID, pids, out)
	}
}
