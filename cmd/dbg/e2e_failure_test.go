package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/internal/dbgtest"
)

func TestMissingAdapter(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	c := startDbg(t, "PATH=/nonexistent", "HOME="+home, "GOPATH="+home, "GOBIN=")
	r := c.fail("create_debug_session", map[string]any{"language": "go"}, "ADAPTER_NOT_FOUND")
	if !strings.Contains(r.Error.Hint, "dbg adapters install go") {
		t.Fatalf("hint %q does not name the install command", r.Error.Hint)
	}
	langs := c.ok("list_supported_languages", nil)
	for _, l := range langs.list("languages") {
		if l.str("language") == "go" && (l.get("found") != false || l.str("installCommand") == "") {
			t.Fatalf("go listed as %v", l)
		}
	}
}

func TestBadInput(t *testing.T) {
	t.Parallel()
	c := startDbg(t)
	c.fail("create_debug_session", map[string]any{}, "INVALID_ARGUMENT")
	r := c.fail("create_debug_session", map[string]any{"language": "klingon"}, "INVALID_ARGUMENT")
	if len(r.Error.AvailableOptions) == 0 {
		t.Fatalf("unsupported language lists no options")
	}
	c.fail("step_over", map[string]any{"sessionId": "nope-1"}, "SESSION_NOT_FOUND")
	id := c.ok("create_debug_session", map[string]any{"language": "mock"}).str("sessionId")
	c.fail("set_breakpoint", map[string]any{"sessionId": id, "file": fixture(t, "mock/loop.mock"), "line": "abc"}, "INVALID_ARGUMENT")
	c.fail("set_breakpoint", map[string]any{"sessionId": id, "file": fixture(t, "mock/loop.mock"), "line": 9999}, "INVALID_ARGUMENT")
	c.fail("set_breakpoint", map[string]any{"sessionId": id, "file": "/no/such/file.mock", "line": 3}, "INVALID_ARGUMENT")
	c.fail("start_debugging", map[string]any{"sessionId": id}, "INVALID_ARGUMENT")
	c.fail("start_debugging", map[string]any{"sessionId": id, "scriptPath": "/no/such/program.mock"}, "INVALID_ARGUMENT")
	c.fail("get_stack_trace", map[string]any{"sessionId": id}, "INVALID_STATE")
	c.fail("evaluate_expression", map[string]any{"sessionId": id, "expression": ""}, "INVALID_ARGUMENT")
	c.fail("create_debug_session", map[string]any{"language": "mock", "breakOnExceptions": "sometimes"}, "INVALID_ARGUMENT")
	c.fail("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 10}, "INVALID_STATE")
}

// A breakpoint on a line without code moves to the next line with code
// (and says so); the answer shows the text of the line it landed on.
func TestBreakpointOnLineWithoutCode(t *testing.T) {
	t.Parallel()
	c := startDbg(t)
	prog := fixture(t, "mock/loop.mock")
	id := c.ok("create_debug_session", map[string]any{"language": "mock"}).str("sessionId")
	c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog, "stopOnEntry": true})
	bp := c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 1})
	if bp.get("verified") != true || bp.num("actualLine") != 3 || !strings.Contains(bp.str("lineText"), "let sum") {
		t.Fatalf("breakpoint on a comment: %v", bp)
	}
	other := t.TempDir() + "/other.mock"
	if err := os.WriteFile(other, []byte("let x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bp = c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": other, "line": 1})
	if bp.get("verified") != false || bp.str("message") == "" {
		t.Fatalf("breakpoint in a file outside the program: %v", bp)
	}
}

func TestStepWhileRunning(t *testing.T) {
	t.Parallel()
	c := startDbg(t)
	id := c.ok("create_debug_session", map[string]any{"language": "mock"}).str("sessionId")
	st := c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": fixture(t, "mock/forever.mock")})
	if st.str("state") != "running" || st.get("pending") != true {
		t.Fatalf("start: %v", st)
	}
	r := c.fail("step_over", map[string]any{"sessionId": id}, "INVALID_STATE")
	if !strings.Contains(r.Error.Hint, "pause") {
		t.Fatalf("hint %q does not say to pause", r.Error.Hint)
	}
	p := c.ok("pause_execution", map[string]any{"sessionId": id})
	if p.str("state") != "paused" || p.str("lastStop.reason") != "pause" {
		t.Fatalf("pause: %v", p)
	}
	st2 := c.ok("step_over", map[string]any{"sessionId": id})
	if st2.str("state") != "paused" {
		t.Fatalf("step after pause: %v", st2)
	}
}

func TestAdapterKilledDuringStep(t *testing.T) {
	t.Parallel()
	requireDebugpy(t)
	c := startDbg(t)
	prog := fixture(t, "python/slow.py")
	line := markedLineT(t, prog, "SLOW")
	id := c.ok("create_debug_session", map[string]any{"language": "python"}).str("sessionId")
	c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": line})
	st := c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog})
	if st.num("lastStop.location.line") != line {
		t.Fatalf("start: %v", st)
	}
	info := c.ok("list_debug_sessions", nil).list("sessions")[0]
	adapterPID, debuggee := info.num("adapterPid"), info.num("pid")
	if adapterPID == 0 {
		t.Fatalf("no adapter pid: %v", info)
	}
	type answer struct {
		r  result
		at time.Time
	}
	done := make(chan answer, 1)
	go func() {
		r := c.call("step_over", map[string]any{"sessionId": id, "waitMs": 60000})
		done <- answer{r, time.Now()}
	}()
	time.Sleep(500 * time.Millisecond)
	killed := time.Now()
	if err := syscall.Kill(adapterPID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	select {
	case a := <-done:
		if d := a.at.Sub(killed); d > time.Second {
			t.Errorf("the step answered %s after the adapter died", d)
		}
		if !a.r.Success || a.r.Data["state"] != "terminated" {
			t.Fatalf("step after the adapter died: %+v", a.r)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the step never answered after the adapter died")
	}
	s := c.ok("list_debug_sessions", nil).list("sessions")[0]
	if s.str("state") != "terminated" || s.str("reason") == "" {
		t.Fatalf("session after adapter death: %v", s)
	}
	c.ok("close_debug_session", map[string]any{"sessionId": id})
	waitGone(t, 5*time.Second, debuggee)
}

// Killing the server leaves no adapter or debuggee behind: the next server
// reaps them.
func TestServerKilledReapsAtNextStart(t *testing.T) {
	t.Parallel()
	requireDebugpy(t)
	state := t.TempDir()
	c := startDbg(t, "DBG_STATE_DIR="+state)
	prog := fixture(t, "python/slow.py")
	id := c.ok("create_debug_session", map[string]any{"language": "python"}).str("sessionId")
	c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": markedLineT(t, prog, "SLOW")})
	c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog})
	info := c.ok("list_debug_sessions", nil).list("sessions")[0]
	debuggee := info.num("pid")
	if debuggee == 0 {
		t.Fatalf("no debuggee pid: %v", info)
	}
	// The process record, naming the debuggee, is written in the background.
	dbgtest.WaitFor(t, 10*time.Second, "the session's process record", func() bool {
		recs, _ := filepath.Glob(filepath.Join(state, "sessions", "*-"+id+".json"))
		for _, r := range recs {
			if b, err := os.ReadFile(r); err == nil && strings.Contains(string(b), fmt.Sprintf(`"pid":%d,`, debuggee)) {
				return true
			}
		}
		return false
	})
	_ = c.cmd.Process.Kill()
	c2 := startDbg(t, "DBG_STATE_DIR="+state)
	c2.ok("list_debug_sessions", nil)
	waitGone(t, 5*time.Second, debuggee)
}

// When the client goes away, the server closes every session and nothing
// it started survives.
func TestClientDisconnectCleansUp(t *testing.T) {
	t.Parallel()
	requireDebugpy(t)
	requireDelve(t)
	c := startDbg(t)
	var pids []int
	for _, tc := range []struct{ lang, prog string }{{"python", "python/loop.py"}, {"go", "go/loop/main.go"}} {
		prog := fixture(t, tc.prog)
		id := c.ok("create_debug_session", map[string]any{"language": tc.lang}).str("sessionId")
		c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": markedLineT(t, prog, "BREAK")})
		if st := c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog, "waitMs": 60000}); st.str("state") != "paused" {
			t.Fatalf("%s: %v", tc.lang, st)
		}
	}
	for _, s := range c.ok("list_debug_sessions", nil).list("sessions") {
		pids = append(pids, s.num("pid"), s.num("adapterPid"))
	}
	pids = append(pids, childrenOf(c.cmd.Process.Pid)...)
	c.close()
	waitGone(t, 10*time.Second, pids...)
}
