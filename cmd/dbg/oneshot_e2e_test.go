package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/cmd/internal/daemon"
	"github.com/dbg-dev/dbg/cmd/internal/httpguard"
)

// oneShot runs one dbg command in project with the state directory
// state, and decodes its JSON answer.
func oneShot(t *testing.T, state, project string, args ...string) (obj, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, dbgBinary, append(args, "--project", project)...)
	cmd.Dir = project
	cmd.Env = append(os.Environ(), "DBG_STATE_DIR="+state)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("dbg %v: %v", args, err)
	}
	var o obj
	if err := json.Unmarshal(out.Bytes(), &o); err != nil {
		t.Fatalf("dbg %v printed no JSON (%v): %s\nstderr: %s", args, err, out.String(), errOut.String())
	}
	return o, errOut.String(), code
}

// A whole session driven by separate dbg invocations through the
// background daemon, while an MCP client over HTTP sees the same session
// at the same stop.
func TestOneShotSession(t *testing.T) {
	t.Parallel()
	requireDelve(t)
	state, project := t.TempDir(), t.TempDir()
	t.Cleanup(func() {
		cmd := exec.Command(dbgBinary, "stop", "--project", project)
		cmd.Env = append(os.Environ(), "DBG_STATE_DIR="+state)
		_ = cmd.Run()
	})
	tg := goServerTarget(t)
	src := fixture(t, "go/server/main.go")
	line := mcpLine(t, src, "// TICK")
	pid := itoa(tg.cmd.Process.Pid)

	s, errOut, code := oneShot(t, state, project, "attach", "--pid", pid, "--no-prompt", "--json")
	id := s.str("sessionId")
	if code != 0 || id == "" || s.str("state") != "paused" {
		t.Fatalf("attach --no-prompt: exit %d, %v\n%s", code, s, errOut)
	}
	if !strings.Contains(errOut, "started the dbg daemon") {
		t.Errorf("the first one-shot command did not say it started the daemon: %q", errOut)
	}
	if bp, _, code := oneShot(t, state, project, "break", id, src+":"+itoa(line)); code != 0 || bp.get("verified") != true {
		t.Fatalf("break: %d %v", code, bp)
	}
	st, _, _ := oneShot(t, state, project, "continue", id)
	if st.str("state") != "paused" || st.num("lastStop.location.line") != line {
		t.Fatalf("continue: %v, want a stop at line %d", st, line)
	}

	// The MCP client of the same daemon sees the session at that stop.
	d, ok := daemon.Find(state, project)
	if !ok {
		t.Fatal("no daemon record")
	}
	token, err := httpguard.ReadToken(state, project)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	hc := &http.Client{Transport: httpguard.BearerTransport{Token: token}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + d.Addr + "/mcp", HTTPClient: hc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	mc := &client{t: t, cs: cs}
	seen := func(want int) {
		t.Helper()
		for _, s := range mc.ok("list_debug_sessions", nil).list("sessions") {
			if s.str("sessionId") == id {
				if s.str("state") != "paused" || s.num("lastStop.location.line") != want {
					t.Fatalf("the MCP client sees %v, want paused at line %d", s, want)
				}
				return
			}
		}
		t.Fatalf("the MCP client does not see session %s", id)
	}
	seen(line)

	bt, _, _ := oneShot(t, state, project, "bt", id)
	if frames := bt.list("stackFrames"); len(frames) < 2 || frames[0].str("name") != "main.tick" || frames[1].str("name") != "main.main" {
		t.Fatalf("bt: %v", bt)
	}
	locals, _, _ := oneShot(t, state, project, "locals", id, "--frame", "1")
	if len(locals.list("variables")) == 0 || locals.list("variables")[0].str("name") != "n" {
		t.Fatalf("locals of frame 1: %v", locals)
	}
	if _, _, code := oneShot(t, state, project, "set", id, "n", "=", "41"); code != 0 {
		t.Fatal("set failed")
	}
	if ev, _, _ := oneShot(t, state, project, "print", id, "n", "+", "1000"); ev.str("result") != "1041" {
		t.Fatalf("print n + 1000: %v", ev)
	}
	if st, _, _ := oneShot(t, state, project, "next", id); st.num("lastStop.location.line") != line+1 {
		t.Fatalf("next: %v", st)
	}
	seen(line + 1)

	// And the CLI sees the MCP client's sessions.
	mine := mc.ok("create_debug_session", map[string]any{"language": "mock", "name": "from-mcp"}).str("sessionId")
	if bps, _, code := oneShot(t, state, project, "breakpoints", mine); code != 0 || bps.get("breakpoints") == nil {
		t.Fatalf("the CLI does not see the MCP client's session %s: %v", mine, bps)
	}

	// A session that does not exist is a clear error.
	if e, _, code := oneShot(t, state, project, "bt", "nope-1"); code == 0 || e.str("error.code") != "SESSION_NOT_FOUND" {
		t.Fatalf("bt of a missing session: exit %d, %v", code, e)
	}

	before := strings.Count(tg.out.String(), tg.marker)
	if _, _, code := oneShot(t, state, project, "delete", id, "1"); code != 0 {
		t.Fatal("delete failed")
	}
	if _, _, code := oneShot(t, state, project, "detach", id); code != 0 {
		t.Fatal("detach failed")
	}
	if _, _, code := oneShot(t, state, project, "close", id); code != 0 {
		t.Fatal("close failed")
	}
	waitCount(t, tg.out, tg.marker, before, "the target does not run after detach")

	stop := exec.Command(dbgBinary, "stop", "--project", project)
	stop.Env = append(os.Environ(), "DBG_STATE_DIR="+state)
	if out, err := stop.CombinedOutput(); err != nil || !strings.Contains(string(out), "stopped the dbg daemon") {
		t.Fatalf("dbg stop: %v %s", err, out)
	}
	waitGone(t, 10*time.Second, d.PID)
	if !processAlive(tg.cmd.Process.Pid) {
		t.Fatal("the target died")
	}
}
