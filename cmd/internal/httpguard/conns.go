package httpguard

import (
	"container/list"
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
	// Grace is how long a connection that sent a request is kept,
	// whatever the cap, for the request to be read. Past the cap, when
	// every connection that could make room sent one and is younger, the
	// server accepts no more until one ages past Grace or closes: a flood
	// of asking sockets slows the accepting instead of closing a client's
	// connection before the server read what it sent.
	Grace time.Duration
}

// DefaultLimits are the limits of dbg serve.
var DefaultLimits = Limits{
	MaxConns: 4096, MaxConnsPerAddr: 1024,
	ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second, IdleTimeout: 120 * time.Second,
	Grace: time.Second,
}

// Server is an http.Server with the limits applied. Serve it with
// [Server.Serve], which counts its connections.
//
// When a new connection would pass MaxConns or MaxConnsPerAddr, the
// oldest connection that has never carried an authenticated request is
// closed to make room: a silent one (waiting for its first request, or
// between requests, with nothing sent) first, else one that sent a
// request and is older than [Limits.Grace]; while there is neither, the
// accepting waits. Sockets of a client without the token, however many,
// never keep a client with it out, and a request the server has not
// read yet is not lost to newer sockets. When every connection has
// authenticated, the new one is closed. The counting is guarded by one mutex; the accepting
// goroutine and the server's connection goroutines (through ConnState)
// share it.
type Server struct {
	*http.Server
	lim Limits

	mu    sync.Mutex
	conns map[net.Conn]*connEntry
	addrs map[string]int
	order *list.List    // of *connEntry, oldest first
	freed chan struct{} // a send when a connection is forgotten
	now   func() time.Time
}

// connEntry is what the server knows of one open connection.
type connEntry struct {
	srv     *Server
	conn    net.Conn
	addr    string
	el      *list.Element // in Server.order
	at      time.Time
	state   http.ConnState
	trusted bool // it carried an authenticated request
	spoke   bool // in its state, it had sent bytes the server had not read
}

type connKey struct{}

// NewServer returns a server of h with the limits lim.
func NewServer(h http.Handler, lim Limits) *Server {
	s := &Server{lim: lim, conns: map[net.Conn]*connEntry{}, addrs: map[string]int{}, order: list.New(), freed: make(chan struct{}, 1), now: time.Now}
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

// admit counts a new connection, making room for it or refusing it. When
// only connections younger than Grace could make room, it admits nothing
// and reports how long to wait before asking again.
func (s *Server) admit(c net.Conn) (ok bool, wait time.Duration) {
	addr := remoteIP(c)
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	if s.lim.MaxConns > 0 && len(s.conns) >= s.lim.MaxConns {
		if ok, wait := s.evictLocked("", now); !ok {
			return false, wait
		}
	}
	if s.lim.MaxConnsPerAddr > 0 && s.addrs[addr] >= s.lim.MaxConnsPerAddr {
		if ok, wait := s.evictLocked(addr, now); !ok {
			return false, wait
		}
	}
	e := &connEntry{srv: s, conn: c, addr: addr, at: now, state: http.StateNew}
	e.el = s.order.PushBack(e)
	s.conns[c] = e
	s.addrs[addr]++
	return true, 0
}

// evictLocked closes the oldest connection that never carried an
// authenticated request (of addr, unless addr is ""): a silent one
// first (waiting for its first request, or between requests, with
// nothing sent), else the oldest that has sent a request and is past its
// grace. It reports whether it closed one and, when not, how long until
// the first of those in their grace passes it (0 when there is none).
func (s *Server) evictLocked(addr string, now time.Time) (bool, time.Duration) {
	var spoke *connEntry // the oldest that sent something, past its grace
	var wait time.Duration
	for el := s.order.Front(); el != nil; el = el.Next() {
		e := el.Value.(*connEntry)
		if e.trusted || (addr != "" && e.addr != addr) {
			continue
		}
		if !e.spoke && (e.state == http.StateNew || e.state == http.StateIdle) {
			if n, known := unread(e.conn); !known || n == 0 {
				s.closeLocked(e)
				return true, 0
			}
			e.spoke = true // its request waits to be read
		}
		if left := s.lim.Grace - now.Sub(e.at); left > 0 {
			if wait == 0 || left < wait {
				wait = left
			}
		} else if spoke == nil {
			spoke = e
		}
	}
	if spoke == nil {
		return false, wait
	}
	s.closeLocked(spoke)
	return true, 0
}

func (s *Server) closeLocked(e *connEntry) {
	s.forgetLocked(e.conn)
	_ = e.conn.Close()
}

func (s *Server) forgetLocked(c net.Conn) {
	if e, ok := s.conns[c]; ok {
		delete(s.conns, c)
		s.order.Remove(e.el)
		if s.addrs[e.addr]--; s.addrs[e.addr] <= 0 {
			delete(s.addrs, e.addr)
		}
		select {
		case s.freed <- struct{}{}:
		default:
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
			e.state, e.spoke = st, false
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
		if l.s.waitAdmit(c) {
			return c, nil
		}
		_ = c.Close()
	}
}

// waitAdmit admits c, waiting while the connections that could make room
// for it are in their grace; each wait ends when a connection closes or
// the first of them passes its grace, so it lasts at most Grace.
func (s *Server) waitAdmit(c net.Conn) bool {
	for {
		ok, wait := s.admit(c)
		if ok || wait <= 0 {
			return ok
		}
		t := time.NewTimer(wait)
		select {
		case <-s.freed:
		case <-t.C:
		}
		t.Stop()
	}
}
