package main

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/cmd/internal/httpguard"
	"github.com/dbg-dev/dbg/safefs/attacker"
)

// envWithout is this process's environment without the named variables.
func envWithout(names ...string) []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		drop := false
		for _, n := range names {
			drop = drop || k == n
		}
		if !drop {
			out = append(out, kv)
		}
	}
	return out
}

// Finding 5: with HOME unset, the attacker makes the state folder dbg
// would fall back to first, mode 777, with her own token file in it.
// dbg serve refuses the folder instead of serving with her token.
func TestServeWithoutHomeRefusesAStateFolderAnotherUserMade(t *testing.T) {
	eve := attacker.New(t)
	attacker.ProtectedSymlinks(t)
	tmp := attacker.SharedTemp(t)
	project := t.TempDir()
	forged := `{"project":"` + project + `","token":"` + strings.Repeat("E", 43) + `"}`
	// Every folder dbg has fallen back to: the fixed one of before and the per-uid one.
	perUID := filepath.Join(tmp, fmt.Sprintf("dbg-%d", os.Geteuid()))
	eve.MustRun(t, "mkdir", "-m", "777", perUID)
	for _, state := range []string{filepath.Join(tmp, "dbg-state"), filepath.Join(perUID, "state")} {
		tokens := filepath.Dir(httpguard.TokenPath(state, project))
		eve.MustRun(t, "sh", "-c", fmt.Sprintf("mkdir -m 777 %s %s && echo '%s' > %s", state, tokens, forged, httpguard.TokenPath(state, project)))
	}
	port := freePort(t)
	cmd := exec.Command(dbgBinary, "serve", "--addr", fmt.Sprintf("127.0.0.1:%d", port), "--project", project)
	cmd.Env = append(envWithout("HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "DBG_STATE_DIR"), "TMPDIR="+tmp)
	out := &lineBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	// Whatever dbg does, her token must never be served.
	deadline := time.Now().Add(30 * time.Second)
	for {
		select {
		case err := <-done:
			if err == nil || !strings.Contains(out.String(), "refused") || !strings.Contains(out.String(), tmp) {
				t.Fatalf("dbg serve exited (%v) without naming the refused folder: %s", err, out.String())
			}
			return
		case <-time.After(50 * time.Millisecond):
		}
		req, _ := http.NewRequest("POST", fmt.Sprintf("http://127.0.0.1:%d/mcp", port), strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		req.Header.Set("Authorization", "Bearer "+strings.Repeat("E", 43))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode < 400 {
				t.Fatalf("the attacker's token got %d from dbg serve", resp.StatusCode)
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("dbg serve neither refused the folder nor exited: %s", out.String())
		}
	}
}

// Finding 8, on dbg serve itself: the attacker holds 20,000 sockets to
// it, each idle after one request without the token (and opened again
// when the server closes it), while a client with the token keeps
// connecting anew and asking. Before the limits those sockets stayed
// open, the server ran out of descriptors and the client timed out; now
// every request is answered.
func TestServeAnswersTheTokenThroughAFloodOfIdleSockets(t *testing.T) {
	// Alone: beside other tests, its thousands of connections take the
	// cores for minutes.
	eve := attacker.New(t)
	sv := runServe(t, t.TempDir(), t.TempDir())
	addr := strings.TrimPrefix(sv.base, "http://")
	good := &http.Client{Timeout: 10 * time.Second, Transport: httpguard.BearerTransport{Token: sv.token, Base: &http.Transport{DisableKeepAlives: true}}}
	ask := func() (time.Duration, error) {
		start := time.Now()
		var err error
		for range 3 { // a connection the server closed to make room is asked again
			req, _ := http.NewRequest("POST", sv.base+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			var resp *http.Response
			if resp, err = good.Do(req); err == nil {
				resp.Body.Close()
				if resp.StatusCode == 401 || resp.StatusCode == 429 || resp.StatusCode >= 500 {
					return 0, fmt.Errorf("status %d", resp.StatusCode)
				}
				return time.Since(start), nil
			}
		}
		return 0, err
	}
	if _, err := ask(); err != nil {
		t.Fatal(err)
	}
	type answer struct {
		d   time.Duration
		err error
	}
	answers := make(chan answer, 1<<16)
	stop := make(chan struct{})
	go func() {
		defer close(answers)
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
			d, err := ask()
			answers <- answer{d, err}
		}
	}()
	// More sockets than the server keeps open from one address and in
	// all (httpguard's own test holds 20000 against the guard alone).
	fl := eve.HoldSockets(t, addr, 6000, attacker.FloodOptions{Reopen: true, Ask: true})
	held, failed := fl.Held, fl.Failed
	for range 50 {
		d, err := ask()
		answers <- answer{d, err}
	}
	close(stop)
	reopened := fl.Stop()
	var ds []time.Duration
	for a := range answers {
		if a.err != nil {
			t.Fatalf("with %d idle sockets held, a request with the token failed: %v", held, a.err)
		}
		ds = append(ds, a.d)
	}
	slices.Sort(ds)
	t.Logf("the attacker held %d sockets on dbg serve (%d dials failed, %d opened again after the server closed them); %d requests with the token, each on a new connection: p50 %s p99 %s max %s",
		held, failed, reopened, len(ds), ds[len(ds)/2].Round(time.Microsecond), ds[len(ds)*99/100].Round(time.Microsecond), ds[len(ds)-1].Round(time.Microsecond))
}

// The limits an agent cannot lift by an argument, on dbg mcp: with
// --no-reveal, reveal: true is refused; with --max-sessions 2 a third
// session is refused naming the cap; paths stay in the project and the
// program, except files the program's own stack shows (a library of the
// language), and a link in the project to a file elsewhere is refused.
func TestServerLimitsTheAgentCannotLift(t *testing.T) {
	requireDebugpy(t)
	project := t.TempDir()
	main := filepath.Join(project, "main.py")
	if err := os.WriteFile(main, []byte("import json\n\n\ndef hook(d):\n    password = 'hunter2'\n    return d  # BREAK\n\n\njson.loads('{\"a\": 1}', object_hook=hook)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(t.TempDir(), "id_rsa")
	if err := os.WriteFile(secret, []byte("-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(project, "notes.txt")); err != nil {
		t.Fatal(err)
	}
	c := startDbgWith(t, nil, []string{"--project", project, "--allow-outside-project=false", "--no-reveal", "--max-sessions", "2"})
	id := c.ok("create_debug_session", map[string]any{"language": "python", "justMyCode": false}).str("sessionId")
	c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": main, "line": markedLineT(t, main, "BREAK")})
	mcpPaused(t, c, id, c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": main}))

	// --no-reveal.
	r := c.fail("get_local_variables", map[string]any{"sessionId": id, "reveal": true}, "UNSUPPORTED")
	if !strings.Contains(r.Error.Message, "--no-reveal") {
		t.Errorf("reveal refused without naming --no-reveal: %s", r.Error.Message)
	}
	if l := mcpLocals(t, c, id); l["password"].str("value") != "‹redacted›" {
		t.Errorf("password = %v", l["password"])
	}

	// Paths: the stack shows json's decoder, a file of the program's own.
	var lib string
	for _, f := range c.ok("get_stack_trace", map[string]any{"sessionId": id}).list("stackFrames") {
		if strings.HasSuffix(f.str("file"), filepath.Join("json", "decoder.py")) {
			lib = f.str("file")
		}
	}
	if lib == "" {
		t.Fatalf("the stack does not show json/decoder.py: %v", c.ok("get_stack_trace", map[string]any{"sessionId": id}))
	}
	c.ok("get_source_context", map[string]any{"sessionId": id, "file": lib, "line": 1})
	for _, outside := range []string{filepath.Join(filepath.Dir(lib), "encoder.py"), secret, filepath.Join(project, "notes.txt"), "/etc/passwd"} {
		r := c.fail("get_source_context", map[string]any{"sessionId": id, "file": outside, "line": 1}, "INVALID_ARGUMENT")
		if !strings.Contains(r.Error.Hint, "--allow-outside-project") || strings.Contains(r.Error.Message, "OPENSSH") {
			t.Errorf("get_source_context %s: %s (hint %s)", outside, r.Error.Message, r.Error.Hint)
		}
	}
	c.ok("get_source_context", map[string]any{"file": main, "line": 1})

	// --max-sessions 2, and a breakpoint outside before any program.
	mock := c.ok("create_debug_session", map[string]any{"language": "mock"}).str("sessionId")
	c.fail("set_breakpoint", map[string]any{"sessionId": mock, "file": secret, "line": 1}, "INVALID_ARGUMENT")
	r = c.fail("create_debug_session", map[string]any{"language": "mock"}, "INVALID_STATE")
	if !strings.Contains(r.Error.Message, "--max-sessions 2") || !strings.Contains(r.Error.Hint, "--max-sessions") {
		t.Errorf("a third session: %s (hint %s)", r.Error.Message, r.Error.Hint)
	}
	c.ok("close_debug_session", map[string]any{"sessionId": mock})
	c.ok("create_debug_session", map[string]any{"language": "mock"})
}
