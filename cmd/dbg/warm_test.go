package main

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// idleAdapter waits for a process under the server running marker that
// no session owns: the warm pool's idle adapter.
func idleAdapter(t *testing.T, c *client, marker string, owned []int) int {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		for _, p := range childrenOf(c.cmd.Process.Pid) {
			b, _ := os.ReadFile("/proc/" + strconv.Itoa(p) + "/cmdline")
			if strings.Contains(strings.ReplaceAll(string(b), "\x00", " "), marker) && !slices.Contains(owned, p) {
				return p
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no idle %q process under the server", marker)
	return 0
}

// With the warm pool on, a single Python session runs beside no idle
// adapter; its close starts one, which the second session of the server
// runs, stopping with the right values, and the second's close starts
// the next; a SIGKILLed server leaves no idle adapter once the next
// server has started.
func TestMCPWarmAdapterPool(t *testing.T) {
	t.Parallel()
	requireDebugpy(t)
	state := t.TempDir()
	c := startDbg(t, "DBG_WARM_ADAPTERS=1", "DBG_STATE_DIR="+state)
	prog := fixture(t, "python/loop.py")
	line := mcpLine(t, prog, "BREAK")
	id, _ := mcpLaunch(t, c, "python", prog, []int{line}, prog, nil)
	if recs, _ := filepath.Glob(filepath.Join(state, "sessions", "*-warm-*.json")); len(recs) != 0 {
		t.Errorf("an idle adapter beside the single session: %v", recs)
	}
	c.ok("close_debug_session", map[string]any{"sessionId": id})
	idle := idleAdapter(t, c, "debugpy.adapter", nil)
	id, _ = mcpLaunch(t, c, "python", prog, []int{line}, prog, nil)
	pids := mcpPIDs(t, c)
	if pids[1] != idle {
		t.Errorf("the second session's adapter is %d, want the idle %d", pids[1], idle)
	}
	if got := mcpEval(t, c, id, "i"); got != "0" {
		t.Errorf("i = %q at the first stop, want 0", got)
	}
	c.ok("close_debug_session", map[string]any{"sessionId": id})
	next := idleAdapter(t, c, "debugpy.adapter", pids)
	recs, _ := filepath.Glob(filepath.Join(state, "sessions", "*-warm-python.json"))
	if len(recs) != 1 {
		t.Errorf("records of the idle adapter: %v", recs)
	}
	all := append(childrenOf(c.cmd.Process.Pid), c.cmd.Process.Pid)
	// The MCP client's transport reaps the killed server: no Wait here,
	// which would race with it.
	if err := c.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	c2 := startDbg(t, "DBG_WARM_ADAPTERS=1", "DBG_STATE_DIR="+state)
	c2.ok("list_debug_sessions", nil)
	waitGone(t, 10*time.Second, append(all, next)...)
	if recs, _ := filepath.Glob(filepath.Join(state, "sessions", "*-warm-*.json")); len(recs) != 0 {
		t.Errorf("records left after the next start: %v", recs)
	}
}
