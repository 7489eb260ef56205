package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/cmd/internal/httpguard"
)

// startServe runs `dbg serve` and returns its base URL and token.
func startServe(t *testing.T, state string) (string, string) {
	return startServeIn(t, state, t.TempDir())
}

func startServeIn(t *testing.T, state, project string) (string, string) {
	sv := runServe(t, state, project)
	return sv.base, sv.token
}

// served is a running `dbg serve`.
type served struct {
	base, token string
	cmd         *exec.Cmd
	out         *lineBuffer // stdout and stderr
}

// runServe starts `dbg serve` for project with stdout and stderr to a
// pipe (a supervisor's log), waits until it serves, and reads the token
// from the file it names. The server is stopped with SIGTERM at the end.
func runServe(t *testing.T, state, project string, env ...string) *served {
	t.Helper()
	return runServeWith(t, state, project, nil, env...)
}

// runServeWith is runServe with more flags.
func runServeWith(t *testing.T, state, project string, flags []string, env ...string) *served {
	t.Helper()
	port := freePort(t)
	// The tests' programs lie outside their projects.
	cmd := exec.Command(dbgBinary, append([]string{"serve", "--addr", fmt.Sprintf("127.0.0.1:%d", port), "--project", project, "--allow-outside-project"}, flags...)...)
	cmd.Env = append(append(os.Environ(), "DBG_STATE_DIR="+state), env...)
	out := &lineBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			t.Error("dbg serve did not stop on SIGTERM")
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(out.String(), "Token file: ") {
		select {
		case <-done:
			t.Fatalf("dbg serve exited: %s", out.String())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("dbg serve never named its token file: %s", out.String())
		}
	}
	token, err := httpguard.ReadToken(state, project)
	if err != nil {
		t.Fatal(err)
	}
	return &served{base: fmt.Sprintf("http://127.0.0.1:%d", port), token: token, cmd: cmd, out: out}
}

func TestServeHTTPTransports(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	base, token := startServe(t, state)
	hc := &http.Client{Transport: httpguard.BearerTransport{Token: token}}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	streamable, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + "/mcp", HTTPClient: hc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer streamable.Close()
	res, err := streamable.CallTool(ctx, &mcp.CallToolParams{Name: "create_debug_session", Arguments: map[string]any{"language": "mock", "name": "shared"}})
	if err != nil || res.IsError {
		t.Fatalf("create over Streamable HTTP: %v %v", res, err)
	}
	// A legacy SSE client sees the same sessions, the other client's
	// with all: true: one server, one manager.
	sse, err := mcp.NewClient(&mcp.Implementation{Name: "t2", Version: "1"}, nil).Connect(ctx, &mcp.SSEClientTransport{Endpoint: base + "/sse", HTTPClient: hc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer sse.Close()
	res, err = sse.CallTool(ctx, &mcp.CallToolParams{Name: "list_debug_sessions", Arguments: map[string]any{"all": true}})
	if err != nil || res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, `"name":"shared"`) {
		t.Fatalf("list over SSE: %v %v", res, err)
	}
	// The token is stored 0600 and reused by the next server of the project.
	entries, _ := os.ReadDir(state + "/tokens")
	if len(entries) != 1 {
		t.Fatalf("token files: %v", entries)
	}
	if st, _ := os.Stat(state + "/tokens/" + entries[0].Name()); st.Mode().Perm() != 0o600 {
		t.Fatalf("token file mode %v", st.Mode().Perm())
	}
}

// dbg serve's sessions belong to their client: another client sees them
// with all: true, named by their owner; when the client's connection
// drops, they close once --client-grace has passed, and the other
// client's stay.
func TestServeSessionsBelongToClients(t *testing.T) {
	t.Parallel()
	sv := runServeWith(t, t.TempDir(), t.TempDir(), []string{"--client-grace", "1s"})
	connect := func(name string, dial func(context.Context, string, string) (net.Conn, error)) *client {
		hc := &http.Client{Transport: httpguard.BearerTransport{Token: sv.token, Base: &http.Transport{DialContext: dial}}}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, nil).Connect(context.Background(),
			&mcp.StreamableClientTransport{Endpoint: sv.base + "/mcp", HTTPClient: hc, MaxRetries: -1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cs.Close() })
		return &client{t: t, cs: cs}
	}
	// a's network: drop closes its connections and refuses new ones, as
	// when its process dies.
	var mu sync.Mutex
	var conns []net.Conn
	dead := false
	a := connect("agent-a", func(ctx context.Context, network, addr string) (net.Conn, error) {
		mu.Lock()
		defer mu.Unlock()
		if dead {
			return nil, errors.New("agent-a is gone")
		}
		c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		if err == nil {
			conns = append(conns, c)
		}
		return c, err
	})
	drop := func() {
		mu.Lock()
		defer mu.Unlock()
		dead = true
		for _, c := range conns {
			_ = c.Close()
		}
	}
	b := connect("agent-b", (&net.Dialer{}).DialContext)
	aid := a.ok("create_debug_session", map[string]any{"language": "mock", "name": "a's"}).str("sessionId")
	bid := b.ok("create_debug_session", map[string]any{"language": "mock", "name": "b's"}).str("sessionId")
	listed := func(c *client, all bool) map[string]string {
		owners := map[string]string{}
		for _, s := range c.ok("list_debug_sessions", map[string]any{"all": all}).list("sessions") {
			owners[s.str("sessionId")] = s.str("owner.client")
		}
		return owners
	}
	if l := listed(b, false); len(l) != 1 || l[bid] != "" {
		t.Fatalf("b lists %v, want its own %s alone", l, bid)
	}
	if l := listed(b, true); len(l) != 2 || l[aid] != "agent-a 1" {
		t.Fatalf("b lists with all %v, want a's %s owned by agent-a 1", l, aid)
	}
	drop() // a's process dies: its connections go
	deadline := time.Now().Add(30 * time.Second)
	for l := listed(b, true); l[aid] != ""; l = listed(b, true) {
		if time.Now().After(deadline) {
			t.Fatalf("a's session is still open 30 s after it left, with a grace of 1 s: %v", l)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if l := listed(b, true); len(l) != 1 || l[bid] != "" {
		t.Fatalf("after a left b lists %v, want its own %s", l, bid)
	}
}

func TestServeSecurity(t *testing.T) {
	t.Parallel()
	base, token := startServe(t, t.TempDir())
	do := func(mutate func(*http.Request)) *http.Response {
		t.Helper()
		req, _ := http.NewRequest("POST", base+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer "+token)
		mutate(req)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("no Cache-Control: no-store on %d", resp.StatusCode)
		}
		return resp
	}
	cases := []struct {
		name   string
		mutate func(*http.Request)
		want   int
	}{
		{"foreign origin", func(r *http.Request) { r.Header.Set("Origin", "https://evil.example") }, 403},
		{"rebound host", func(r *http.Request) { r.Host = "evil.example:80" }, 403},
		{"wrong port in host", func(r *http.Request) { r.Host = "127.0.0.1:1" }, 403},
		{"body over 1 MiB", func(r *http.Request) {
			big := strings.Repeat("x", 2<<20)
			r.Body = http.NoBody
			r.ContentLength = int64(len(big))
			r.Body = readCloser{strings.NewReader(big)}
		}, 413},
		{"loopback origin", func(r *http.Request) { r.Header.Set("Origin", "http://localhost:3000") }, 0},
	}
	for _, c := range cases {
		got := do(c.mutate).StatusCode
		if c.want == 0 {
			if got >= 400 && got != 404 && got != 405 && got != 400 {
				t.Errorf("%s: status %d", c.name, got)
			}
			continue
		}
		if got != c.want {
			t.Errorf("%s: status %d, want %d", c.name, got, c.want)
		}
	}
	// Wrong tokens: 401 until the eighth failure, then 429; the right
	// token still gets through, from any loopback address.
	for i := 0; i < 8; i++ {
		if got := do(func(r *http.Request) { r.Header.Set("Authorization", "Bearer wrong") }).StatusCode; got != 401 {
			t.Fatalf("failure %d: status %d, want 401", i+1, got)
		}
	}
	if got := do(func(r *http.Request) { r.Header.Set("Authorization", "Bearer wrong") }).StatusCode; got != 429 {
		t.Fatalf("after 8 failures: status %d, want 429", got)
	}
	if got := do(func(r *http.Request) {}).StatusCode; got == 429 || got == 401 {
		t.Fatalf("the right token was refused after others failed: %d", got)
	}
}

type readCloser struct{ *strings.Reader }

func (readCloser) Close() error { return nil }

func TestServeRefusesNonLoopbackAddress(t *testing.T) {
	t.Parallel()
	out, err := exec.Command(dbgBinary, "serve", "--addr", "0.0.0.0:0").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "loopback") {
		t.Fatalf("serve on 0.0.0.0: %v %s", err, out)
	}
}

// CLI commands of a project use its running daemon: they see the sessions
// an MCP client made.
func TestCLIUsesDaemon(t *testing.T) {
	t.Parallel()
	state, project := t.TempDir(), t.TempDir()
	base, token := startServeIn(t, state, project)
	hc := &http.Client{Transport: httpguard.BearerTransport{Token: token}}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + "/mcp", HTTPClient: hc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "create_debug_session", Arguments: map[string]any{"language": "mock", "name": "from-mcp"}}); err != nil || res.IsError {
		t.Fatalf("create: %v %v", res, err)
	}
	cmd := exec.Command(dbgBinary, "sessions", "--project", project)
	cmd.Env = append(os.Environ(), "DBG_STATE_DIR="+state)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "mock-1") || !strings.Contains(string(out), "created") {
		t.Fatalf("dbg sessions: %v\n%s", err, out)
	}
	// Another project has no daemon: the command runs on its own.
	cmd = exec.Command(dbgBinary, "sessions", "--project", t.TempDir())
	cmd.Env = append(os.Environ(), "DBG_STATE_DIR="+state)
	out, err = cmd.CombinedOutput()
	if err != nil || strings.Contains(string(out), "mock-1") || !strings.Contains(string(out), "no dbg serve") {
		t.Fatalf("dbg sessions elsewhere: %v\n%s", err, out)
	}
}
