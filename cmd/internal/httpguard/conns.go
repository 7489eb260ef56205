package httpguard

import (
	"context"
	"net"
	"net/http"
	"sync"
	"time"
)

// Limits bound what one client, or all of them, can hold of a guarded
// server: its connections and how long each may sit idle or send a
// request.
type Limits struct {
	// MaxConns is the most connections open at once, and MaxConnsPerAddr
	// the most from one remote address.
	MaxConns, MaxConnsPerAddr int
	// ReadHeaderTimeout bounds the reading of a request's header,
	// ReadTimeout of the whole request until it is authenticated (then
	// it is lifted: a client with the token may stream for as long as
	// it likes), IdleTimeout a kept-alive connection between requests.
	ReadHeaderTimeout, ReadTimeout, IdleTimeout time.Duration
}

// DefaultLimits are the limits of dbg serve.
var DefaultLimits = Limits{
	MaxConns: 4096, MaxConnsPerAddr: 1024,
	ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second, IdleTimeout: 120 * time.Second,
}

// Server is an http.Server with the limits applied. Serve it with
// [Server.Serve], which counts its connections.
//
// When a new connection would pass MaxConns or MaxConnsPerAddr, the
// oldest connection that has never carried an authenticated request is
// closed to make room, a waiting one (for its first request, or between
// requests) before one whose request is being read: sockets of a client
// without the token, however many, never keep a client with it out.
// When every connection has authenticated, the new one is closed. The counting is guarded by one
// mutex; the accepting goroutine and the server's connection
// goroutines (through ConnState) share it.
type Server struct {
	*http.Server
	lim Limits

	mu    sync.Mutex
	conns map[net.Conn]*connEntry
	addrs map[string]int
	seq   uint64
}

// connEntry is what the server knows of one open connection.
type connEntry struct {
	srv     *Server
	conn    net.Conn
	addr    string
	seq     uint64 // the order of acceptance
	state   http.ConnState
	trusted bool // it carried an authenticated request
}

type connKey struct{}

// NewServer returns a server of h with the limits lim.
func NewServer(h http.Handler, lim Limits) *Server {
	s := &Server{lim: lim, conns: map[net.Conn]*connEntry{}, addrs: map[string]int{}}
	s.Server = &http.Server{
		Handler:           h,
		ReadHeaderTimeout: lim.ReadHeaderTimeout,
		ReadTimeout:       lim.ReadTimeout,
		IdleTimeout:       lim.IdleTimeout,
		ConnState:         s.connState,
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			s.mu.Lock()
			e := s.conns[c]
			s.mu.Unlock()
			return context.WithValue(ctx, connKey{}, e)
		},
	}
	return s
}

// Serve accepts connections on ln within the limits and serves them.
func (s *Server) Serve(ln net.Listener) error {
	return s.Server.Serve(limitedListener{ln, s})
}

// Open reports how many connections the server holds.
func (s *Server) Open() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}

// trust marks the connection of a request as authenticated, and lifts
// the read deadline of its request.
func trust(w http.ResponseWriter, r *http.Request) {
	if e, ok := r.Context().Value(connKey{}).(*connEntry); ok && e != nil {
		e.srv.mu.Lock()
		e.trusted = true
		e.srv.mu.Unlock()
	}
	_ = http.NewResponseController(w).SetReadDeadline(time.Time{})
}

// admit counts a new connection, making room for it or refusing it.
func (s *Server) admit(c net.Conn) bool {
	addr := remoteIP(c)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lim.MaxConns > 0 && len(s.conns) >= s.lim.MaxConns && !s.evictLocked("") {
		return false
	}
	if s.lim.MaxConnsPerAddr > 0 && s.addrs[addr] >= s.lim.MaxConnsPerAddr && !s.evictLocked(addr) {
		return false
	}
	s.seq++
	s.conns[c] = &connEntry{srv: s, conn: c, addr: addr, seq: s.seq, state: http.StateNew}
	s.addrs[addr]++
	return true
}

// evictLocked closes the oldest connection that never carried an
// authenticated request (of addr, unless addr is ""): a waiting one (for
// its first request, or between requests) first, else one whose request
// is being read or refused. It reports whether there was one.
func (s *Server) evictLocked(addr string) bool {
	var waiting, busy *connEntry
	for _, e := range s.conns {
		if e.trusted || (addr != "" && e.addr != addr) {
			continue
		}
		if e.state == http.StateNew || e.state == http.StateIdle {
			if waiting == nil || e.seq < waiting.seq {
				waiting = e
			}
		} else if busy == nil || e.seq < busy.seq {
			busy = e
		}
	}
	oldest := waiting
	if oldest == nil {
		oldest = busy
	}
	if oldest == nil {
		return false
	}
	s.forgetLocked(oldest.conn)
	_ = oldest.conn.Close()
	return true
}

func (s *Server) forgetLocked(c net.Conn) {
	if e, ok := s.conns[c]; ok {
		delete(s.conns, c)
		if s.addrs[e.addr]--; s.addrs[e.addr] <= 0 {
			delete(s.addrs, e.addr)
		}
	}
}

func (s *Server) connState(c net.Conn, st http.ConnState) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch st {
	case http.StateClosed, http.StateHijacked:
		s.forgetLocked(c)
	default:
		if e, ok := s.conns[c]; ok {
			e.state = st
		}
	}
}

func remoteIP(c net.Conn) string {
	host, _, err := net.SplitHostPort(c.RemoteAddr().String())
	if err != nil {
		return c.RemoteAddr().String()
	}
	return host
}

// limitedListener admits each accepted connection through its server.
type limitedListener struct {
	net.Listener
	s *Server
}

func (l limitedListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.s.admit(c) {
			return c, nil
		}
		_ = c.Close()
	}
}
