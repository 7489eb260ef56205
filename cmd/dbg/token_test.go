package main

import (
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/dbg-dev/dbg/cmd/internal/httpguard"
)

// dbgCmd runs a dbg command with the state directory and returns its
// stdout.
func dbgCmd(t *testing.T, state string, args ...string) string {
	t.Helper()
	cmd := exec.Command(dbgBinary, args...)
	cmd.Env = append(os.Environ(), "DBG_STATE_DIR="+state)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("dbg %v: %v\n%s", args, err, stderr.String())
	}
	return strings.TrimSpace(string(out))
}

// ping sends an MCP ping with token and returns the HTTP status.
func ping(t *testing.T, base, token string) int {
	t.Helper()
	req, _ := http.NewRequest("POST", base+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// A server whose output goes to a log never writes its token there; dbg
// token show prints it, and dbg token rotate replaces it: the running
// server refuses the old token at once and admits the new one.
func TestTokenStaysOutOfLogs(t *testing.T) {
	t.Parallel()
	state, project := t.TempDir(), t.TempDir()
	sv := runServe(t, state, project)
	if strings.Contains(sv.out.String(), sv.token) {
		t.Fatalf("the server's output holds the token: %s", sv.out.String())
	}
	if !strings.Contains(sv.out.String(), httpguard.TokenPath(state, project)) {
		t.Fatalf("the server's output does not name the token file: %s", sv.out.String())
	}
	if got := dbgCmd(t, state, "token", "show", "--project", project); got != sv.token {
		t.Fatalf("token show printed %q, want the served token", got)
	}
	if got := dbgCmd(t, state, "token", "show", "--path", "--project", project); got != httpguard.TokenPath(state, project) {
		t.Fatalf("token show --path printed %q", got)
	}
	if code := ping(t, sv.base, sv.token); code != http.StatusOK {
		t.Fatalf("the served token: status %d", code)
	}
	rotated := dbgCmd(t, state, "token", "rotate", "--project", project)
	if rotated == sv.token || len(rotated) < 43 {
		t.Fatalf("rotate printed %q (old %q)", rotated, sv.token)
	}
	if got := dbgCmd(t, state, "token", "show", "--project", project); got != rotated {
		t.Fatalf("token show after rotate: %q, want %q", got, rotated)
	}
	if code := ping(t, sv.base, sv.token); code != http.StatusUnauthorized {
		t.Fatalf("the old token after rotate: status %d, want 401", code)
	}
	if code := ping(t, sv.base, rotated); code != http.StatusOK {
		t.Fatalf("the new token: status %d", code)
	}
	if strings.Contains(sv.out.String(), rotated) {
		t.Fatal("the server's output holds the new token")
	}
}

func TestTokenShowWithoutToken(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(dbgBinary, "token", "show", "--project", t.TempDir())
	cmd.Env = append(os.Environ(), "DBG_STATE_DIR="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "no token yet") {
		t.Fatalf("token show without a token: %v %s", err, out)
	}
}
