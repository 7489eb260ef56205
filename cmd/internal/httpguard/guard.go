package httpguard

import (
	"crypto/subtle"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Limits of the guard.
const (
	MaxBody       = 1 << 20          // request bodies up to 1 MiB
	MaxFailures   = 8                // failed authentications allowed in FailureWindow
	FailureWindow = 30 * time.Second // the window failures are counted over
)

// Guard enforces the HTTP security model (see the package doc). It is
// safe for concurrent use: the failure count is the only state, behind
// one mutex.
type Guard struct {
	token func() []byte // the token in force
	port  string
	now   func() time.Time

	mu       sync.Mutex
	failures []time.Time // failed authentications; every peer is loopback, so one count
}

// New returns the guard of a server listening on port, admitting token.
// now is the clock of the rate limit.
func New(token string, port int, now func() time.Time) *Guard {
	b := []byte(token)
	return &Guard{token: func() []byte { return b }, port: fmt.Sprint(port), now: now}
}

// NewFollowing returns the guard of a server listening on port that
// admits the token of ft as it is at each request, so a rotation takes
// effect without a restart.
func NewFollowing(ft *FileToken, port int, now func() time.Time) *Guard {
	return &Guard{token: ft.Current, port: fmt.Sprint(port), now: now}
}

// CheckListenAddr refuses a listening address that is not loopback.
func CheckListenAddr(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--addr %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("--addr must be a loopback address, not %s", host)
	}
	return nil
}

// Wrap returns next behind the guard.
func (g *Guard) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		peer, _, err := net.SplitHostPort(r.RemoteAddr)
		if ip := net.ParseIP(peer); err != nil || ip == nil || !ip.IsLoopback() {
			refuse(w, "only loopback clients are served", http.StatusForbidden)
			return
		}
		if !g.hostOK(r.Host) {
			refuse(w, "bad Host header", http.StatusForbidden)
			return
		}
		if o := r.Header.Get("Origin"); o != "" && !originOK(o) {
			refuse(w, "cross-origin requests are refused", http.StatusForbidden)
			return
		}
		auth := r.Header.Get("Authorization")
		given, ok := strings.CutPrefix(auth, "Bearer ")
		if want := g.token(); !ok || len(want) == 0 || subtle.ConstantTimeCompare([]byte(strings.TrimSpace(given)), want) != 1 {
			// The right token is never turned away; wrong ones are limited.
			if g.limited() {
				w.Header().Set("Retry-After", "30")
				refuse(w, "too many failed authentications", http.StatusTooManyRequests)
				return
			}
			g.fail()
			w.Header().Set("WWW-Authenticate", `Bearer realm="dbg"`)
			refuse(w, "missing or wrong bearer token", http.StatusUnauthorized)
			return
		}
		trust(w, r)
		if r.ContentLength > MaxBody {
			refuse(w, "request body over 1 MiB", http.StatusRequestEntityTooLarge)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, MaxBody)
		next.ServeHTTP(noStore{w}, r)
	})
}

// refuse answers a refused request and closes its connection: a client
// that is refused keeps nothing of the server.
func refuse(w http.ResponseWriter, msg string, code int) {
	w.Header().Set("Connection", "close")
	http.Error(w, msg, code)
}

// noStore keeps Cache-Control: no-store on answers whose handler sets its
// own cache header (the SDK's event streams).
type noStore struct{ http.ResponseWriter }

func (n noStore) WriteHeader(code int) {
	n.Header().Set("Cache-Control", "no-store")
	n.ResponseWriter.WriteHeader(code)
}

func (n noStore) Write(b []byte) (int, error) {
	n.Header().Set("Cache-Control", "no-store")
	return n.ResponseWriter.Write(b)
}

// Flush lets event streams through.
func (n noStore) Flush() {
	if f, ok := n.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap gives http.ResponseController the real writer.
func (n noStore) Unwrap() http.ResponseWriter { return n.ResponseWriter }

func (g *Guard) hostOK(host string) bool {
	h, p, err := net.SplitHostPort(host)
	if err != nil || p != g.port {
		return false
	}
	return isLoopbackName(h)
}

func originOK(origin string) bool {
	rest, ok := strings.CutPrefix(origin, "http://")
	if !ok {
		rest, ok = strings.CutPrefix(origin, "https://")
	}
	if !ok {
		return false
	}
	host := rest
	if h, _, err := net.SplitHostPort(rest); err == nil {
		host = h
	}
	return isLoopbackName(strings.Trim(host, "[]"))
}

// isLoopbackName reports whether host is localhost or a loopback IP.
func isLoopbackName(host string) bool {
	ip := net.ParseIP(host)
	return host == "localhost" || ip != nil && ip.IsLoopback()
}

func (g *Guard) recentLocked() []time.Time {
	cut := g.now().Add(-FailureWindow)
	kept := g.failures[:0]
	for _, t := range g.failures {
		if t.After(cut) {
			kept = append(kept, t)
		}
	}
	g.failures = kept
	return kept
}

func (g *Guard) limited() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.recentLocked()) >= MaxFailures
}

func (g *Guard) fail() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.failures = append(g.recentLocked(), g.now())
}
