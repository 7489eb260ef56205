package sessiontools

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
	"github.com/dbg-dev/dbg/toolkit/mcpbind"
)

// wire is one client's network: cut drops its connections and refuses
// new ones, as when the client's process dies.
type wire struct {
	mu    sync.Mutex
	conns []net.Conn
	dead  bool
}

func (w *wire) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.dead {
		return nil, errors.New("the client is gone")
	}
	c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
	if err == nil {
		w.conns = append(w.conns, c)
	}
	return c, err
}

func (w *wire) cut() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.dead = true
	for _, c := range w.conns {
		_ = c.Close()
	}
}

// timer is a grace timer of the fake clock.
type timer struct {
	d    time.Duration
	fire func()
}

// ownedServer serves the session tools over Streamable HTTP with the
// clients followed on a fake clock (its timers arrive on the channel)
// and the audit in dir. streams receives the client id of each event
// stream opened.
func ownedServer(t *testing.T, dir string) (m *sessions.Manager, url string, timers chan timer, streams chan string) {
	t.Helper()
	m = sessions.NewManager(sessions.Config{Adapters: adapters.Default(), StateDir: t.TempDir()})
	t.Cleanup(func() { m.Shutdown(context.Background()) })
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "0"}, nil)
	tb := mcpbind.NewToolbox(srv, nil)
	audit := toolkit.NewAuditLog(dir, nil, nil)
	audit.SetOwnerOf(m.OwnerID)
	tb.SetPolicy(toolkit.Policy{Audit: audit})
	New(m).Register(tb)
	timers = make(chan timer, 8)
	clients := mcpbind.NewClients(mcpbind.ClientsOptions{Grace: time.Minute, AfterFunc: func(d time.Duration, f func()) func() bool {
		timers <- timer{d, f}
		return func() bool { return true }
	}})
	clients.Follow(srv)
	clients.OnGone(func(id string) { m.CloseOwnedBy(context.Background(), id) })
	t.Cleanup(clients.Close)
	streams = make(chan string, 8)
	h := clients.Handler(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if id := r.Header.Get("Mcp-Session-Id"); id != "" && r.Method == http.MethodGet {
			streams <- id
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	return m, hs.URL, timers, streams
}

// dialClient connects an MCP client named name over its own wire.
func dialClient(t *testing.T, url, name string) (*mcp.ClientSession, *wire) {
	t.Helper()
	w := &wire{}
	tr := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: &http.Transport{DialContext: w.dial}}, MaxRetries: -1}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, nil).Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs, w
}

func ids(l listOut) map[string]*sessions.Owner {
	out := map[string]*sessions.Owner{}
	for _, s := range l.Sessions {
		out[s.ID] = s.Owner
	}
	return out
}

// Sessions over HTTP belong to the client that made them: each client
// lists its own, all: true lists every one with its owner, a call
// without sessionId picks among the caller's own, a call on another
// client's session works and is audited with both client ids; when a
// client's connection drops, its sessions stay for the grace and then
// close, and another client's sessions are untouched.
func TestSessionsBelongToTheirClient(t *testing.T) {
	t.Parallel()
	auditDir := t.TempDir()
	m, url, timers, streams := ownedServer(t, auditDir)
	a, wa := dialClient(t, url, "agent-a")
	b, _ := dialClient(t, url, "agent-b")
	for range 2 {
		select {
		case <-streams:
		case <-time.After(30 * time.Second):
			t.Fatal("the clients' event streams did not open")
		}
	}
	_, file, _, _ := runtime.Caller(0)
	prog := filepath.Join(filepath.Dir(file), "..", "..", "testdata", "mock", "loop.mock")

	a1 := call[sessionOut](t, a, "create_debug_session", map[string]any{"language": "mock"}).SessionID
	a2 := call[sessionOut](t, a, "create_debug_session", map[string]any{"language": "mock"}).SessionID
	b1 := call[sessionOut](t, b, "create_debug_session", map[string]any{"language": "mock"}).SessionID
	call[breakpointOut](t, b, "set_breakpoint", map[string]any{"sessionId": b1, "file": prog, "line": 10})
	if st := call[sessionOut](t, b, "start_debugging", map[string]any{"sessionId": b1, "scriptPath": prog}); st.State != sessions.StatePaused {
		t.Fatalf("b's start %+v", st)
	}

	if own := ids(call[listOut](t, a, "list_debug_sessions", nil)); len(own) != 2 || own[a1] != nil || own[a2] != nil {
		t.Fatalf("a lists %v, want its %s and %s without an owner", own, a1, a2)
	}
	if own := ids(call[listOut](t, b, "list_debug_sessions", nil)); len(own) != 1 || own[b1] != nil {
		t.Fatalf("b lists %v, want its %s alone", own, b1)
	}
	all := ids(call[listOut](t, b, "list_debug_sessions", map[string]any{"all": true}))
	if len(all) != 3 || all[b1] != nil || all[a1] == nil || all[a1].ID != a.ID() || all[a1].Name != "agent-a 1" {
		t.Fatalf("b lists with all %+v, want a's two with owner %s (agent-a 1) and its own", all, a.ID())
	}
	// Without sessionId, b's call lands on b's only session, not on a's.
	if bps := call[breakpointsOut](t, b, "list_breakpoints", nil); len(bps.Breakpoints) != 1 || bps.Breakpoints[0].Line != 10 {
		t.Fatalf("b's list_breakpoints without sessionId: %+v", bps)
	}
	if env := callEnv(t, a, "list_breakpoints", nil); env.Error == nil || env.Error.Code != toolkit.CodeSessionAmbiguous {
		t.Fatalf("a's call without sessionId among its two: %+v, want SESSION_AMBIGUOUS", env.Error)
	}
	// b works on a's session by id: it works, and the audit says so.
	call[breakpointsOut](t, b, "list_breakpoints", map[string]any{"sessionId": a1})
	entries, err := toolkit.ReadAudit(auditDir, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	var foreign []toolkit.AuditEntry
	for _, e := range entries {
		if e.Owner != "" {
			foreign = append(foreign, e)
		}
		if e.Tool == "create_debug_session" && e.ClientID == "" {
			t.Errorf("a create's audit line has no client id: %+v", e)
		}
	}
	if len(foreign) != 1 || foreign[0].Tool != "list_breakpoints" || foreign[0].Session != a1 || foreign[0].ClientID != b.ID() || foreign[0].Owner != a.ID() || foreign[0].Client != "agent-b 1" {
		t.Fatalf("audit lines of calls on another client's session: %+v, want b's list_breakpoints on %s", foreign, a1)
	}

	// a crashes: its connections drop without a goodbye.
	wa.cut()
	var grace timer
	select {
	case grace = <-timers:
	case <-time.After(30 * time.Second):
		t.Fatal("a's dropped connection started no grace")
	}
	if grace.d != time.Minute {
		t.Fatalf("grace %s, want the configured minute", grace.d)
	}
	open := map[string]bool{}
	for _, s := range m.List() {
		open[s.ID] = true
	}
	if !open[a1] || !open[a2] || !open[b1] {
		t.Fatalf("during the grace the open sessions are %v, want a's and b's", open)
	}
	grace.fire() // the grace passes and a did not come back
	open = map[string]bool{}
	for _, s := range m.List() {
		open[s.ID] = true
	}
	if open[a1] || open[a2] || !open[b1] {
		t.Fatalf("after a's grace the open sessions are %v, want b's %s alone", open, b1)
	}
	// b's session is untouched: still paused, and it steps.
	if r := call[sessions.ExecResult](t, b, "step_over", map[string]any{"sessionId": b1, "waitMs": "5000"}); r.LastStop == nil || r.LastStop.Location == nil || r.LastStop.Location.Line != 11 {
		t.Fatalf("b's step after a left: %+v", r)
	}
	if all := ids(call[listOut](t, b, "list_debug_sessions", map[string]any{"all": true})); len(all) != 1 {
		t.Fatalf("b lists with all after a left %v, want its own alone", all)
	}
}
