package nodedap_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/sessions"
)

// TestForkedChildSessionThroughManager drives the built-in adapter through
// dbg's session manager: a breakpoint in the child's code stops a second
// session whose parent is the launched one, and closing the parent ends
// both sessions and both node processes.
func TestForkedChildSessionThroughManager(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed (scripts/deps/node.sh installs it)")
	}
	_, file, _, _ := runtime.Caller(0)
	script, err := filepath.Abs(filepath.Join(filepath.Dir(file), "..", "..", "testdata", "javascript", "fork_early.js"))
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	line := 0
	for i, l := range strings.Split(string(src), "\n") {
		if strings.Contains(l, "BP:early") {
			line = i + 1
		}
	}
	m := sessions.NewManager(sessions.Config{Adapters: adapters.Default(), StateDir: t.TempDir()})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		m.Shutdown(ctx)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	s, _, err := m.Create(ctx, sessions.CreateRequest{Language: "javascript", AdapterConfig: map[string]any{"jsDebugPath": "builtin"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetBreakpoint(ctx, sessions.BreakpointSpec{File: script, Line: line}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Launch(ctx, sessions.StartRequest{ScriptPath: script, Wait: 100 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	var child sessions.SessionInfo
	for deadline := time.Now().Add(20 * time.Second); child.ID == ""; time.Sleep(20 * time.Millisecond) {
		for _, info := range m.List() {
			if info.ParentID == s.ID() && info.State == sessions.StatePaused {
				child = info
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no paused child session; sessions %+v; output %q", m.List(), s.Output().Text(""))
		}
	}
	if child.LastStop == nil || child.LastStop.Reason != "breakpoint" || child.Mode != "attach" {
		t.Fatalf("child %+v stop %+v", child, child.LastStop)
	}
	cs, err := m.Get(child.ID)
	if err != nil {
		t.Fatal(err)
	}
	frames, _, err := cs.StackTrace(ctx, child.LastStop.ThreadID, 0, 5)
	if err != nil || len(frames) == 0 || frames[0].File != script || frames[0].Line != line {
		t.Fatalf("child stack (want %s:%d): %+v %v", script, line, frames, err)
	}
	argv, err := cs.Evaluate(ctx, "process.argv[2]", frames[0].ID, "repl")
	if err != nil || argv.Result != `"child"` {
		t.Fatalf("child argv: %+v %v", argv, err)
	}
	var pids []string
	for _, expr := range []string{"process.pid", "process.ppid"} {
		r, err := cs.Evaluate(ctx, expr, frames[0].ID, "repl")
		if err != nil {
			t.Fatal(err)
		}
		pids = append(pids, r.Result)
	}
	if err := m.CloseSession(ctx, s.ID()); err != nil {
		t.Fatal(err)
	}
	if left := m.List(); len(left) != 0 {
		t.Fatalf("sessions left after closing the parent: %+v", left)
	}
	for _, pid := range pids {
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(25 * time.Millisecond) {
			st, err := os.ReadFile("/proc/" + pid + "/stat")
			if err != nil || strings.Fields(string(st))[2] == "Z" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("node %s still runs after the parent session closed", pid)
			}
		}
	}
}
