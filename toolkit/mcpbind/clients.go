package mcpbind

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultGrace is how long a client that left keeps what it made.
const DefaultGrace = 60 * time.Second

// ClientsOptions configure [NewClients]. Zero values are the defaults.
type ClientsOptions struct {
	// Grace is how long a client that left may come back before it is
	// gone (0: DefaultGrace).
	Grace time.Duration
	// AfterFunc is the clock of the grace: it calls f after d unless
	// stopped (nil: time.AfterFunc).
	AfterFunc func(d time.Duration, f func()) (stop func() bool)
}

// Clients follows the clients of a server by their connection (the MCP
// session's id, which each call's caller carries: toolkit.ClientID), so
// that what a client made ends some time after the client left. A client
// leaves when
//   - its MCP session ends (a DELETE, the end of its legacy SSE stream),
//     or
//   - it held Streamable HTTP's event stream (a GET) and then has no
//     request open: the stream dropped (a crash, a lost network).
//
// It is gone when it did not come back (a request on its session) within
// the grace period: then its MCP session is closed and each function of
// [Clients.OnGone] runs, once. A client that never held a stream and
// stays quiet never leaves: nothing tells it from a client thinking.
// The one client of stdio, whose session has no id, is not followed.
//
// Clients is safe for concurrent use. Goroutines: one per followed MCP
// session, waiting for its end; the grace timers call the OnGone
// functions on their own goroutines.
type Clients struct {
	grace time.Duration
	after func(time.Duration, func()) func() bool

	mu     sync.Mutex
	known  map[string]*client
	onGone []func(clientID string)
	closed bool
}

// client is what Clients knows of one connection.
type client struct {
	ss       *mcp.ServerSession
	open     int         // HTTP requests open on it
	streamed bool        // it held an event stream
	ended    bool        // its MCP session ended
	stop     func() bool // the running grace timer, or nil
}

// NewClients returns a follower of clients; [Clients.Follow] attaches it
// to a server and [Clients.Handler] to that server's HTTP handler.
func NewClients(o ClientsOptions) *Clients {
	if o.Grace <= 0 {
		o.Grace = DefaultGrace
	}
	if o.AfterFunc == nil {
		o.AfterFunc = func(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }
	}
	return &Clients{grace: o.Grace, after: o.AfterFunc, known: map[string]*client{}}
}

// Grace returns the grace period.
func (c *Clients) Grace() time.Duration { return c.grace }

// OnGone adds f, called with the id of each client gone.
func (c *Clients) OnGone(f func(clientID string)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.onGone = append(c.onGone, f)
}

// Follow makes c follow the clients of srv, from their initialization
// on: a session that never initialized (a probe) is no client.
func (c *Clients) Follow(srv *mcp.Server) {
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if ss, ok := req.GetSession().(*mcp.ServerSession); ok && ss != nil && ss.InitializeParams() != nil {
				c.seen(ss)
			}
			return res, err
		}
	})
}

// seen records a client's MCP session and waits for its end.
func (c *Clients) seen(ss *mcp.ServerSession) {
	id := ss.ID()
	if id == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	if k := c.known[id]; k != nil {
		return
	}
	c.known[id] = &client{ss: ss}
	go func() {
		_ = ss.Wait()
		c.mu.Lock()
		defer c.mu.Unlock()
		if k := c.known[id]; k != nil && k.ss == ss {
			k.ended = true
			c.leaveLocked(id, k)
		}
	}()
}

// Handler wraps the HTTP handler of the server's transports: it counts
// each followed client's open requests, by its Mcp-Session-Id header.
func (c *Clients) Handler(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("Mcp-Session-Id")
		if id == "" || !c.begin(id, r.Method == http.MethodGet) {
			h.ServeHTTP(w, r)
			return
		}
		defer c.end(id)
		h.ServeHTTP(w, r)
	})
}

// begin counts a request of client id (a GET is its event stream); it
// reports whether the client is followed. A client back within its grace
// keeps what it made.
func (c *Clients) begin(id string, stream bool) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := c.known[id]
	if k == nil {
		return false
	}
	k.open++
	k.streamed = k.streamed || stream
	if k.stop != nil && !k.ended {
		k.stop()
		k.stop = nil
	}
	return true
}

// end uncounts a request of client id.
func (c *Clients) end(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := c.known[id]
	if k == nil {
		return
	}
	if k.open--; k.open == 0 && k.streamed {
		c.leaveLocked(id, k)
	}
}

// leaveLocked starts client id's grace, unless it runs. Callers hold mu.
func (c *Clients) leaveLocked(id string, k *client) {
	if k.stop != nil || c.closed {
		return
	}
	k.stop = c.after(c.grace, func() { c.expire(id, k) })
}

// expire ends the grace of client k: it is gone unless it came back.
func (c *Clients) expire(id string, k *client) {
	c.mu.Lock()
	if c.known[id] != k || c.closed || (!k.ended && k.open > 0) {
		c.mu.Unlock()
		return
	}
	delete(c.known, id)
	onGone := append([]func(string){}, c.onGone...)
	c.mu.Unlock()
	if !k.ended {
		_ = k.ss.Close()
	}
	for _, f := range onGone {
		f(id)
	}
}

// Close stops the grace timers: no client is gone after it (the server
// is shutting down and ends everything itself).
func (c *Clients) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	for _, k := range c.known {
		if k.stop != nil {
			k.stop()
		}
	}
	c.known = map[string]*client{}
}
