package mcpbind

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// grace is one grace timer of the fake clock.
type grace struct {
	fire    func()
	stopped chan struct{}
}

// followed serves an empty server over Streamable HTTP with its clients
// followed on a fake clock; gone receives each client gone and streams
// each event stream opened.
func followed(t *testing.T) (url string, timers chan grace, gone, streams chan string) {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "0"}, nil)
	timers = make(chan grace, 8)
	c := NewClients(ClientsOptions{AfterFunc: func(d time.Duration, f func()) func() bool {
		if d != DefaultGrace {
			t.Errorf("grace %s, want the default %s", d, DefaultGrace)
		}
		g := grace{fire: f, stopped: make(chan struct{})}
		timers <- g
		var once sync.Once
		return func() bool { once.Do(func() { close(g.stopped) }); return true }
	}})
	c.Follow(srv)
	gone = make(chan string, 8)
	c.OnGone(func(id string) { gone <- id })
	t.Cleanup(c.Close)
	streams = make(chan string, 8)
	h := c.Handler(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			streams <- r.Header.Get("Mcp-Session-Id")
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	return hs.URL, timers, gone, streams
}

// conns is a client's network, whose connections drop at cut.
type conns struct {
	mu  sync.Mutex
	all []net.Conn
}

func (n *conns) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
	if err == nil {
		n.mu.Lock()
		n.all = append(n.all, c)
		n.mu.Unlock()
	}
	return c, err
}

func (n *conns) cut() {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, c := range n.all {
		_ = c.Close()
	}
	n.all = nil
}

func recv[T any](t *testing.T, ch chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(30 * time.Second):
		t.Fatalf("no %s", what)
	}
	var zero T
	return zero
}

// A client whose event stream dropped and came back within the grace
// keeps what it made: its grace stops.
func TestClientBackWithinGrace(t *testing.T) {
	t.Parallel()
	url, timers, gone, streams := followed(t)
	n := &conns{}
	tr := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: &http.Transport{DialContext: n.dial}}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if id := recv(t, streams, "event stream"); id != cs.ID() {
		t.Fatalf("stream of %q, want %q", id, cs.ID())
	}
	n.cut()
	g := recv(t, timers, "grace after the stream dropped")
	if id := recv(t, streams, "event stream reopened"); id != cs.ID() {
		t.Fatalf("stream reopened by %q, want %q", id, cs.ID())
	}
	recv(t, g.stopped, "stop of the grace when the client came back")
	select {
	case id := <-gone:
		t.Fatalf("%s gone though it came back", id)
	default:
	}
	if err := cs.Ping(context.Background(), nil); err != nil {
		t.Fatalf("the client that came back: %v", err)
	}
}

// A client without an event stream leaves only when its session ends
// (DELETE): then it is gone once the grace passes.
func TestClientWithoutStreamGoneAfterClose(t *testing.T) {
	t.Parallel()
	url, timers, gone, _ := followed(t)
	tr := &mcp.StreamableClientTransport{Endpoint: url, DisableStandaloneSSE: true}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	id := cs.ID()
	if err := cs.Ping(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	_ = cs.Close()
	g := recv(t, timers, "grace after the session ended")
	select {
	case id := <-gone:
		t.Fatalf("%s gone before its grace passed", id)
	default:
	}
	g.fire()
	if got := recv(t, gone, "client gone"); got != id {
		t.Fatalf("gone %q, want %q", got, id)
	}
}
