package main

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"
)

type serveOptions struct {
	addr        string
	project     string
	rotateToken bool
}

func newServeCmd(e *env) *cobra.Command {
	opts := &serveOptions{}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the MCP tools over HTTP (Streamable HTTP at /mcp, legacy SSE at /sse)",
		Long: `Serve every dbg tool over HTTP on a loopback address: Streamable HTTP at /mcp
and the legacy HTTP+SSE transport at /sse. Every request needs
"Authorization: Bearer <token>"; the token is created on first use, kept with
mode 0600 in dbg's state directory, bound to the project, and printed on
start. --rotate-token replaces it.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runServe(cmd, e, opts)
		},
	}
	cmd.Flags().StringVar(&opts.addr, "addr", "127.0.0.1:7077", "loopback address to listen on")
	cmd.Flags().StringVar(&opts.project, "project", "", "the project directory (default: the working directory)")
	cmd.Flags().BoolVar(&opts.rotateToken, "rotate-token", false, "replace the project's token before serving")
	return cmd
}

func runServe(cmd *cobra.Command, e *env, opts *serveOptions) error {
	ctx := cmd.Context()
	host, _, err := net.SplitHostPort(opts.addr)
	if err != nil {
		return fmt.Errorf("--addr %q: %w", opts.addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("--addr must be a loopback address, not %s", host)
	}
	project, err := filepath.Abs(firstNonEmptyStr(opts.project, "."))
	if err != nil {
		return err
	}
	token, err := projectToken(e.stateDir(), project, opts.rotateToken)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", opts.addr)
	if err != nil {
		return err
	}
	m := e.newManager(project)
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		m.Shutdown(sctx)
	}()
	srv, release := newServer(ctx, e, m)
	defer release()
	port := ln.Addr().(*net.TCPAddr).Port
	handler := newGuard(token, port, e.now).wrap(mcpHandler(srv))
	hs := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	unannounce, err := announceDaemon(e.stateDir(), project, ln.Addr().String())
	if err != nil {
		return err
	}
	defer unannounce()
	fmt.Fprintf(cmd.ErrOrStderr(), "dbg serving %s on http://%s/mcp (Streamable HTTP) and /sse (SSE)\nAuthorization: Bearer %s\n", project, ln.Addr(), token)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = hs.Shutdown(sctx)
		return nil
	case err := <-errc:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return err
	}
}

func firstNonEmptyStr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// mcpHandler routes /mcp (Streamable HTTP) and /sse (legacy SSE) to one
// server, so every client sees the same sessions.
func mcpHandler(srv *mcp.Server) http.Handler {
	get := func(*http.Request) *mcp.Server { return srv }
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(get, nil))
	mux.Handle("/mcp/", mcp.NewStreamableHTTPHandler(get, nil))
	sse := mcp.NewSSEHandler(get, nil)
	mux.Handle("/sse", sse)
	mux.Handle("/sse/", sse)
	return mux
}

// tokenFile is the stored token of one project.
type tokenFile struct {
	Project string    `json:"project"`
	Token   string    `json:"token"`
	Created time.Time `json:"created"`
}

// projectToken returns the project's token, creating (or rotating) it.
// Tokens are 32 random bytes, base64url, in a 0600 file per project.
func projectToken(stateDir, project string, rotate bool) (string, error) {
	sum := sha256.Sum256([]byte(project))
	dir := filepath.Join(stateDir, "tokens")
	path := filepath.Join(dir, hex.EncodeToString(sum[:8])+".json")
	if !rotate {
		if b, err := os.ReadFile(path); err == nil {
			var tf tokenFile
			if json.Unmarshal(b, &tf) == nil && tf.Project == project && len(tf.Token) >= 43 {
				return tf.Token, nil
			}
		}
	}
	var raw [32]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", err
	}
	tf := tokenFile{Project: project, Token: base64.RawURLEncoding.EncodeToString(raw[:]), Created: time.Now().UTC()}
	b, _ := json.Marshal(tf)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, path); err != nil {
		return "", err
	}
	return tf.Token, nil
}

// guard enforces the HTTP security model: loopback peers only, a loopback
// Host with the right port (no DNS rebinding), an absent or loopback
// Origin, the bearer token (constant-time), bodies up to 1 MiB, and at most
// 8 failed authentications in 30 s (all peers are loopback, so they count
// together); the right token is never refused for that. Every answer carries
// Cache-Control: no-store. It is safe for concurrent use.
type guard struct {
	token []byte
	port  string
	now   func() time.Time

	mu       sync.Mutex
	failures []time.Time // failed authentications; every peer is loopback, so one count
}

const (
	maxBody       = 1 << 20
	maxFailures   = 8
	failureWindow = 30 * time.Second
)

func newGuard(token string, port int, now func() time.Time) *guard {
	return &guard{token: []byte(token), port: fmt.Sprint(port), now: now}
}

func (g *guard) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		peer, _, err := net.SplitHostPort(r.RemoteAddr)
		if ip := net.ParseIP(peer); err != nil || ip == nil || !ip.IsLoopback() {
			http.Error(w, "only loopback clients are served", http.StatusForbidden)
			return
		}
		if !g.hostOK(r.Host) {
			http.Error(w, "bad Host header", http.StatusForbidden)
			return
		}
		if o := r.Header.Get("Origin"); o != "" && !g.originOK(o) {
			http.Error(w, "cross-origin requests are refused", http.StatusForbidden)
			return
		}
		auth := r.Header.Get("Authorization")
		given, ok := strings.CutPrefix(auth, "Bearer ")
		if !ok || subtle.ConstantTimeCompare([]byte(strings.TrimSpace(given)), g.token) != 1 {
			// The right token is never turned away; wrong ones are limited.
			if g.limited() {
				w.Header().Set("Retry-After", "30")
				http.Error(w, "too many failed authentications", http.StatusTooManyRequests)
				return
			}
			g.fail()
			w.Header().Set("WWW-Authenticate", `Bearer realm="dbg"`)
			http.Error(w, "missing or wrong bearer token", http.StatusUnauthorized)
			return
		}
		if r.ContentLength > maxBody {
			http.Error(w, "request body over 1 MiB", http.StatusRequestEntityTooLarge)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxBody)
		next.ServeHTTP(noStore{w}, r)
	})
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

func (g *guard) hostOK(host string) bool {
	h, p, err := net.SplitHostPort(host)
	if err != nil || p != g.port {
		return false
	}
	return h == "localhost" || net.ParseIP(h) != nil && net.ParseIP(h).IsLoopback()
}

func (g *guard) originOK(origin string) bool {
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
	host = strings.Trim(host, "[]")
	return host == "localhost" || net.ParseIP(host) != nil && net.ParseIP(host).IsLoopback()
}

func (g *guard) recentLocked() []time.Time {
	cut := g.now().Add(-failureWindow)
	kept := g.failures[:0]
	for _, t := range g.failures {
		if t.After(cut) {
			kept = append(kept, t)
		}
	}
	g.failures = kept
	return kept
}

func (g *guard) limited() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.recentLocked()) >= maxFailures
}

func (g *guard) fail() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.failures = append(g.recentLocked(), g.now())
}
