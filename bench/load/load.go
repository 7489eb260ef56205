package main

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/sessions/sessiontools"
	"github.com/dbg-dev/dbg/toolkit"
	"github.com/dbg-dev/dbg/toolkit/mcpbind"
)

// Config is one load run.
type Config struct {
	Clients  int           // MCP clients, each on its own connection
	Langs    []string      // the sessions of each client, one per language
	Duration time.Duration // how long every client loops
	// Baseline is how long one client loops alone first, for the
	// single-client medians (0: none).
	Baseline time.Duration
	Steps    int    // step_over calls per pass
	Profile  string // write the CPU profile of the loaded phase here ("": none)
	Root     string // the repository (its testdata)
	// Idle is how long the paused server's CPU is measured.
	Idle time.Duration
}

// fixture is one language's endless loop from testdata: the breakpoint
// line (marked) and an expression over its locals.
type fixture struct {
	lang, source string
	line         int
}

var fixtureSpecs = map[string][2]string{
	"python":     {"python/loadloop.py", "# BREAK"},
	"go":         {"go/loadloop/main.go", "// BREAK"},
	"javascript": {"javascript/loadloop.js", "// BP:loop"},
	"mock":       {"mock/loadloop.mock", "let total = add(total, i)"},
}

func loadFixture(root, lang string) (fixture, error) {
	spec, ok := fixtureSpecs[lang]
	if !ok {
		return fixture{}, fmt.Errorf("no fixture for %q (one of python, go, javascript, mock)", lang)
	}
	src := filepath.Join(root, "testdata", spec[0])
	b, err := os.ReadFile(src)
	if err != nil {
		return fixture{}, err
	}
	for i, l := range strings.Split(string(b), "\n") {
		if strings.HasSuffix(strings.TrimSpace(l), spec[1]) {
			return fixture{lang: lang, source: src, line: i + 1}, nil
		}
	}
	return fixture{}, fmt.Errorf("%s: no line marked %q", src, spec[1])
}

// server is dbg's server as `dbg serve` builds it for the session tools
// (the manager with its warm adapters, the toolbox with the audit, the
// clients followed), on Streamable HTTP at a loopback port behind a
// bearer token, in this process so its goroutines can be counted.
type server struct {
	m       *sessions.Manager
	clients *mcpbind.Clients
	hs      *http.Server
	url     string
	token   string
	state   string
}

func startServer(state string) (*server, error) {
	m := sessions.NewManager(sessions.Config{Adapters: adapters.Default(), StateDir: state, WarmAdapters: true})
	srv := mcp.NewServer(&mcp.Implementation{Name: "dbg", Version: "load"}, nil)
	tb := mcpbind.NewToolbox(srv, time.Now)
	audit := toolkit.NewAuditLog(state, nil, nil)
	audit.SetOwnerOf(m.OwnerID)
	tb.SetPolicy(toolkit.Policy{Audit: audit})
	sessiontools.New(m).Register(tb)
	clients := mcpbind.NewClients(mcpbind.ClientsOptions{})
	clients.Follow(srv)
	clients.OnGone(func(id string) { m.CloseOwnedBy(context.Background(), id) })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	token := fmt.Sprintf("load-%d-%d", os.Getpid(), time.Now().UnixNano())
	h := clients.Handler(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	s := &server{m: m, clients: clients, url: "http://" + ln.Addr().String() + "/mcp", token: token, state: state}
	s.hs = &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), []byte("Bearer "+token)) != 1 {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})}
	go func() { _ = s.hs.Serve(ln) }()
	return s, nil
}

func (s *server) close() {
	s.clients.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_ = s.hs.Shutdown(ctx)
	s.m.Shutdown(ctx)
}

// bearer sends the token with every request of one client.
type bearer struct {
	token string
	base  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.base.RoundTrip(r)
}

// client is one MCP client with its sessions.
type client struct {
	n        int
	cs       *mcp.ClientSession
	tr       *http.Transport
	sessions []*session
	rec      *recorder
}

type session struct {
	id string
	fx fixture
}

func connect(ctx context.Context, s *server, n int, rec *recorder) (*client, error) {
	tr := &http.Transport{MaxIdleConnsPerHost: 8}
	hc := &http.Client{Transport: bearer{token: s.token, base: tr}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: fmt.Sprintf("load-%d", n), Version: "1"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: s.url, HTTPClient: hc, MaxRetries: -1}, nil)
	if err != nil {
		return nil, err
	}
	return &client{n: n, cs: cs, tr: tr, rec: rec}, nil
}

// call calls a tool, times it (as tool, and tool by language when lang
// is set), and decodes the envelope's data.
func (c *client) call(ctx context.Context, lang, name string, args map[string]any) (map[string]any, error) {
	cctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	t0 := time.Now()
	res, err := c.cs.CallTool(cctx, &mcp.CallToolParams{Name: name, Arguments: args})
	d := time.Since(t0)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var env struct {
		Success bool
		Data    map[string]any
		Error   *toolkit.ToolError
	}
	raw, _ := json.Marshal(res.StructuredContent)
	_ = json.Unmarshal(raw, &env)
	if !env.Success {
		msg := "no error"
		if env.Error != nil {
			msg = env.Error.Code + ": " + env.Error.Message
		}
		return nil, fmt.Errorf("%s: %s", name, msg)
	}
	c.rec.time(name, lang, d)
	return env.Data, nil
}

// open creates the client's sessions, each stopped at its breakpoint.
func (c *client) open(ctx context.Context, fxs []fixture) error {
	for _, fx := range fxs {
		d, err := c.call(ctx, "", "create_debug_session", map[string]any{"language": fx.lang, "name": fmt.Sprintf("c%d-%s", c.n, fx.lang)})
		if err != nil {
			return err
		}
		s := &session{id: str(d["sessionId"]), fx: fx}
		c.sessions = append(c.sessions, s)
		if _, err := c.call(ctx, "", "set_breakpoint", map[string]any{"sessionId": s.id, "file": fx.source, "line": fx.line}); err != nil {
			return err
		}
		st, err := c.call(ctx, "", "start_debugging", map[string]any{"sessionId": s.id, "scriptPath": fx.source, "waitMs": 90000})
		if err != nil {
			return err
		}
		if err := s.atBreakpoint(st); err != nil {
			return fmt.Errorf("%s start: %w", fx.lang, err)
		}
	}
	return nil
}

// atBreakpoint checks a stop answer: paused at the fixture's line.
func (s *session) atBreakpoint(st map[string]any) error {
	if st["state"] != "paused" {
		return fmt.Errorf("%s: state %v, want paused", s.id, st["state"])
	}
	if l := num(st, "lastStop", "location", "line"); l != s.fx.line {
		return fmt.Errorf("%s: stopped at line %d, want %d", s.id, l, s.fx.line)
	}
	return nil
}

// pass is one locals → step ×n → evaluate → continue → stop at the
// breakpoint again.
func (c *client) pass(ctx context.Context, s *session, steps int) error {
	lang := s.fx.lang
	id := map[string]any{"sessionId": s.id}
	if _, err := c.call(ctx, lang, "get_local_variables", id); err != nil {
		return err
	}
	for range steps {
		st, err := c.call(ctx, lang, "step_over", map[string]any{"sessionId": s.id, "waitMs": 30000})
		if err != nil {
			return err
		}
		if st["state"] != "paused" {
			return fmt.Errorf("step_over: %s is %v, want paused", s.id, st["state"])
		}
	}
	if _, err := c.call(ctx, lang, "evaluate_expression", map[string]any{"sessionId": s.id, "expression": "total + 1"}); err != nil {
		return err
	}
	if _, err := c.call(ctx, lang, "continue_execution", id); err != nil {
		return err
	}
	st, err := c.call(ctx, lang, "wait_for_stop", map[string]any{"sessionId": s.id, "timeoutMs": 30000})
	if err != nil {
		return err
	}
	return s.atBreakpoint(st)
}

// isolated checks that the client's own list is its own sessions, no
// more, no fewer; it returns the ids of other clients' sessions it saw.
func (c *client) isolated(ctx context.Context) (foreign []string, err error) {
	d, err := c.call(ctx, "", "list_debug_sessions", nil)
	if err != nil {
		return nil, err
	}
	mine := map[string]bool{}
	for _, s := range c.sessions {
		mine[s.id] = true
	}
	listed, _ := d["sessions"].([]any)
	for _, l := range listed {
		id := str(l.(map[string]any)["sessionId"])
		if !mine[id] {
			foreign = append(foreign, id)
		}
		delete(mine, id)
	}
	if len(mine) > 0 {
		return foreign, fmt.Errorf("client %d's list lacks its own sessions %v", c.n, keys(mine))
	}
	return foreign, nil
}

// loop runs passes on every session of the client, side by side, until
// ctx ends, and checks isolation after each pass of its first session.
func (c *client) loop(ctx context.Context, steps int, rec *recorder) {
	var wg sync.WaitGroup
	for i, s := range c.sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				work := context.WithoutCancel(ctx) // a pass ends whole: the session ends paused
				if err := c.pass(work, s, steps); err != nil {
					rec.fail(err)
					return
				}
				rec.passes.Add(1)
				if i == 0 {
					foreign, err := c.isolated(work)
					if err != nil {
						rec.fail(err)
					}
					rec.seeForeign(foreign)
				}
			}
		}()
	}
	wg.Wait()
}

// Run is one load run: the server, every client's sessions, a
// single-client phase, the loaded phase, the paused server, and what
// the server holds at the start and the end.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	var fxs []fixture
	for _, l := range cfg.Langs {
		fx, err := loadFixture(cfg.Root, l)
		if err != nil {
			return nil, err
		}
		fxs = append(fxs, fx)
	}
	state, err := os.MkdirTemp("", "dbg-load-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(state)
	rep := &Report{Config: cfg, CPUs: runtime.NumCPU(), Began: time.Now()}
	srv, err := startServer(state)
	if err != nil {
		return nil, err
	}
	defer srv.close()
	rep.Idle = snapshot(nil)

	single := newRecorder()
	loaded := newRecorder()
	var cls []*client
	defer func() {
		for _, c := range cls {
			_ = c.cs.Close()
		}
	}()
	for n := range cfg.Clients {
		c, err := connect(ctx, srv, n, single)
		if err != nil {
			return nil, err
		}
		cls = append(cls, c)
	}
	// The sessions open one client after another; the clients' first
	// sessions of a language start the adapters and the warm pool.
	for _, c := range cls {
		if err := c.open(ctx, fxs); err != nil {
			return nil, fmt.Errorf("client %d: %w", c.n, err)
		}
	}
	rep.Sessions = len(cls) * len(fxs)
	rep.Memory = memoryOf(srv.m)
	// The clients' idle keep-alive connections (their goroutines and
	// descriptors, both ends in this process) are not the server's.
	closeIdle := func() {
		for _, c := range cls {
			c.tr.CloseIdleConnections()
		}
	}
	time.Sleep(2 * time.Second) // the warm pool's idle adapters come up
	closeIdle()
	rep.Start = settle(srv.m, rep.Idle, 5*time.Second)
	rep.HeapPerSession = (rep.Start.Heap - rep.Idle.Heap) / int64(rep.Sessions)

	if cfg.Baseline > 0 {
		bctx, cancel := context.WithTimeout(ctx, cfg.Baseline)
		c0, b0 := treeCPU(), time.Now()
		cls[0].loop(bctx, cfg.Steps, single)
		rep.SingleCPU, rep.SingleTime = treeCPU().since(c0), time.Since(b0)
		cancel()
	}
	rep.Single = single

	for _, c := range cls {
		c.rec = loaded
	}
	stopProfile := profileTo(cfg.Profile)
	cpu0 := treeCPU()
	t0 := time.Now()
	lctx, cancel := context.WithTimeout(ctx, cfg.Duration)
	var wg sync.WaitGroup
	for _, c := range cls {
		wg.Add(1)
		go func() { defer wg.Done(); c.loop(lctx, cfg.Steps, loaded) }()
	}
	wg.Wait()
	cancel()
	rep.Loaded = loaded
	rep.Elapsed = time.Since(t0)
	rep.RunCPU = treeCPU().since(cpu0)
	stopProfile()

	// Every session is paused at its breakpoint again: the server should
	// do nothing.
	time.Sleep(time.Second)
	stopPaused := func() {}
	if cfg.Profile != "" {
		stopPaused = profileTo(strings.TrimSuffix(cfg.Profile, ".pprof") + "-paused.pprof")
	}
	p0 := treeCPU()
	time.Sleep(cfg.Idle)
	rep.PausedCPU = treeCPU().since(p0)
	stopPaused()
	closeIdle()
	rep.End = settle(srv.m, rep.Start, 20*time.Second)

	// Every client sees all the sessions when it asks, with the owners
	// of the others'.
	if d, err := cls[len(cls)-1].call(ctx, "", "list_debug_sessions", map[string]any{"all": true}); err != nil {
		loaded.fail(err)
	} else {
		l, _ := d["sessions"].([]any)
		owned := 0
		for _, s := range l {
			if o, _ := s.(map[string]any)["owner"].(map[string]any); o != nil {
				owned++
			}
		}
		rep.AllListed, rep.AllOwned = len(l), owned
	}
	// Another client's session works by id, and the audit says so.
	other := cls[0].sessions[0]
	if _, err := cls[len(cls)-1].call(ctx, "", "get_local_variables", map[string]any{"sessionId": other.id}); err != nil {
		loaded.fail(err)
	}
	if entries, err := toolkit.ReadAudit(state, time.Time{}); err == nil {
		for _, e := range entries {
			if e.Owner != "" {
				rep.ForeignAudited++
			}
		}
	}
	rep.LoadAverage = loadAverage()
	return rep, nil
}

// profileTo starts a CPU profile written to path ("": none) and returns
// what stops it and closes its file.
func profileTo(path string) (stop func()) {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		return func() {}
	}
	if pprof.StartCPUProfile(f) != nil {
		f.Close()
		return func() {}
	}
	return func() { pprof.StopCPUProfile(); f.Close() }
}

// perSession is the memory of one session's processes.
type perSession struct {
	Lang string
	RSS  int64 // the adapter and what it started (the program)
}

// memoryOf reads each session's process tree: its adapter (none for
// the built-in mock) and the program.
func memoryOf(m *sessions.Manager) []perSession {
	var out []perSession
	for _, s := range m.List() {
		var rss int64
		seen := map[int]bool{}
		for _, root := range []int{s.AdapterPID, s.PID} {
			if root <= 0 {
				continue
			}
			for _, pid := range append([]int{root}, descendants(root)...) {
				if !seen[pid] {
					seen[pid] = true
					rss += rssOf(pid)
				}
			}
		}
		out = append(out, perSession{Lang: s.Language, RSS: rss})
	}
	return out
}

func str(v any) string { s, _ := v.(string); return s }

// num reads a number at a path of nested objects.
func num(v map[string]any, path ...string) int {
	var cur any = v
	for _, p := range path {
		m, _ := cur.(map[string]any)
		cur = m[p]
	}
	f, _ := cur.(float64)
	return int(f)
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// recorder gathers one phase's latencies, errors and isolation.
type recorder struct {
	mu      sync.Mutex
	lat     map[string][]time.Duration // tool, and tool/language
	errs    []string
	foreign []string
	passes  counter
}

type counter struct {
	mu sync.Mutex
	n  int
}

func (c *counter) Add(d int) { c.mu.Lock(); c.n += d; c.mu.Unlock() }
func (c *counter) Load() int { c.mu.Lock(); defer c.mu.Unlock(); return c.n }

func newRecorder() *recorder { return &recorder{lat: map[string][]time.Duration{}} }

func (r *recorder) time(tool, lang string, d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lat[tool] = append(r.lat[tool], d)
	if lang != "" {
		r.lat[tool+"/"+lang] = append(r.lat[tool+"/"+lang], d)
	}
}

func (r *recorder) fail(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, err.Error())
}

func (r *recorder) seeForeign(ids []string) {
	if len(ids) == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.foreign = append(r.foreign, ids...)
}

// Errors returns the phase's errors.
func (r *recorder) Errors() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.errs)
}

// Foreign returns the other clients' sessions a client saw unasked.
func (r *recorder) Foreign() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.foreign)
}

func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

var errNoProc = errors.New("no /proc")

// readAll reads a small file of /proc.
func readAll(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, errNoProc
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, 1<<16))
}
