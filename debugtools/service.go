package debugtools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dbg-dev/dbg/textcut"
	"github.com/dbg-dev/dbg/toolkit"
)

// Config configures the JVM capabilities.
type Config struct {
	// AgentJar is a user-supplied DebugTools agent jar; empty uses dbg's
	// own agent (or DBG_DEBUGTOOLS_AGENT_JAR when set).
	AgentJar string
	// CacheDir overrides where the built agent is cached.
	CacheDir string
	// ScanTTL is how long a JVM scan is reused (default 1.5s).
	ScanTTL time.Duration
	// Now is the clock (nil = time.Now).
	Now func() time.Time
	// Starter starts run configurations for run_and_invoke
	// (configurationName); nil: run configurations are not available.
	Starter toolkit.ConfigurationStarter
}

// AgentJarEnv names the environment variable of a user-supplied agent jar.
const AgentJarEnv = "DBG_DEBUGTOOLS_AGENT_JAR"

// Connection is one live agent connection.
type Connection struct {
	ID              string
	ApplicationName string
	PID             int
	Host            string
	Port            int
	HTTPPort        int
	CreatedAt       time.Time
	External        bool // a user-supplied agent jar
	// DefaultLoader is the target's default class loader (from
	// /allClassLoader at connect time), nil when unknown.
	DefaultLoader *ClassLoaderDTO

	Client *AgentClient
	HTTP   *HTTPClient
}

// State is CONNECTED while the TCP connection is open.
func (c *Connection) State() string {
	if c.Client != nil && c.Client.Alive() {
		return "CONNECTED"
	}
	return "DISCONNECTED"
}

// Service holds the JVM connections and the cached JVM scan. It is safe
// for concurrent use. Background goroutines (finishing an attach that was
// not waited for) end with their own deadline or on Close.
type Service struct {
	cfg     Config
	builder AgentBuilder

	mu    sync.Mutex
	conns map[string]*Connection
	scan  struct {
		at   time.Time
		jvms []JVM
		err  error
	}
	ctx    context.Context
	cancel context.CancelFunc
	// extraAgentArgs are appended to the built-in agent's arguments
	// (tests: sqlMode=wrap).
	extraAgentArgs string
	dirs           []*attachDir // attach folders, removed at Close
	wg             sync.WaitGroup
}

// NewService returns a Service.
func NewService(cfg Config) *Service {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.ScanTTL <= 0 {
		cfg.ScanTTL = 1500 * time.Millisecond
	}
	if cfg.AgentJar == "" {
		cfg.AgentJar = os.Getenv(AgentJarEnv)
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Service{cfg: cfg, builder: AgentBuilder{CacheDir: cfg.CacheDir}, conns: map[string]*Connection{}, ctx: ctx, cancel: cancel}
}

// Close drops every connection, stops background work and removes the
// attach folders.
func (s *Service) Close() {
	s.cancel()
	s.wg.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, c := range s.conns {
		c.Client.Close()
		delete(s.conns, id)
	}
	for _, d := range s.dirs {
		d.remove()
	}
	s.dirs = nil
}

// keep records an attach folder, removed at Close.
func (s *Service) keep(d *attachDir) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dirs = append(s.dirs, d)
}

// JVMs returns the visible (not hidden) local JVMs, from a scan at most
// ScanTTL old.
func (s *Service) JVMs(ctx context.Context) ([]JVM, error) {
	s.mu.Lock()
	if !s.scan.at.IsZero() && s.cfg.Now().Sub(s.scan.at) < s.cfg.ScanTTL {
		j, err := s.scan.jvms, s.scan.err
		s.mu.Unlock()
		return j, err
	}
	s.mu.Unlock()
	all, err := Discover(ctx)
	var vis []JVM
	for _, j := range all {
		if !j.Hidden() && j.PID != os.Getpid() {
			vis = append(vis, j)
		}
	}
	s.mu.Lock()
	s.scan.at, s.scan.jvms, s.scan.err = s.cfg.Now(), vis, err
	s.mu.Unlock()
	return vis, err
}

// Connections lists live connections by id; dead ones are dropped.
func (s *Service) Connections() []*Connection {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*Connection, 0, len(s.conns))
	for id, c := range s.conns {
		if !c.Client.Alive() {
			delete(s.conns, id)
			continue
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// ConnectionByPID returns the live connection of pid, if any.
func (s *Service) ConnectionByPID(pid int) *Connection {
	for _, c := range s.Connections() {
		if c.PID == pid {
			return c
		}
	}
	return nil
}

// Connection returns a connection by id.
func (s *Service) Connection(id string) (*Connection, bool) {
	for _, c := range s.Connections() {
		if c.ID == id {
			return c, true
		}
	}
	return nil, false
}

func (s *Service) add(c *Connection) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.conns[c.ID]; ok && old != c {
		old.Client.Close()
	}
	s.conns[c.ID] = c
}

// AttachResult is what Attach reports.
type AttachResult struct {
	JVM        *JVM
	AttachName string
	Conn       *Connection // nil when the agent did not answer within the wait
	Message    string
}

// AttachError categories for the tools.
var (
	ErrAgentBuild   = errors.New("debugtools: cannot build the agent")
	ErrAgentNoReply = errors.New("debugtools: the agent did not answer")
)

// Attach loads the agent into pid and, when wait > 0, waits up to wait
// for its connection. Without a wait the connection is completed in the
// background (within 30s) and appears in Connections.
func (s *Service) Attach(ctx context.Context, pid int, attachName string, wait time.Duration) (*AttachResult, error) {
	if c := s.ConnectionByPID(pid); c != nil {
		return &AttachResult{AttachName: c.ApplicationName, Conn: c, Message: "Already attached; connection established"}, nil
	}
	j, err := InspectJVM(ctx, pid)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotAttachable, err)
	}
	if err := CheckAttachable(j); err != nil {
		return nil, err
	}
	if err := checkUser(j); err != nil {
		return nil, err
	}
	if attachName == "" {
		attachName = j.AttachName
	}
	jar := s.cfg.AgentJar
	external := jar != ""
	if !external {
		javac, err := FindJavac(j.JavaHome)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrAgentBuild, err)
		}
		bctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
		jar, err = s.builder.Jar(bctx, javac)
		cancel()
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrAgentBuild, err)
		}
	}
	dir, err := newAttachDir(j, jar)
	if err != nil {
		return nil, err
	}
	s.keep(dir) // a staged jar is read by the JVM after the load too: removed at Close
	var args string
	var extPort, extHTTP int
	safeName := strings.NewReplacer(",", "_", "=", "_").Replace(attachName)
	pfDir := dir
	if external {
		extPort, extHTTP = freePort(), freePort()
		// The DebugTools agent's argument names.
		args = fmt.Sprintf("tcpPort=%d,httpPort=%d,applicationName=%s", extPort, extHTTP, safeName)
		pfDir = nil
	} else {
		inTarget, _ := dir.portFile()
		args = fmt.Sprintf("port=0,httpPort=0,host=127.0.0.1,applicationName=%s,portFile=%s", safeName, inTarget)
		if s.extraAgentArgs != "" {
			args += "," + s.extraAgentArgs
		}
	}
	toolkit.Progress(ctx, "loading the agent into JVM %d (HotSpot attach)…", pid)
	lctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	err = LoadAgent(lctx, j, dir.jar, args, AttachOptions{})
	cancel()
	if err != nil {
		dir.remove()
		return nil, err
	}
	res := &AttachResult{JVM: j, AttachName: attachName, Message: "Attach requested"}
	finish := func(ctx context.Context) (*Connection, error) {
		defer dir.settled()
		return s.awaitAgent(ctx, pid, attachName, pfDir, extPort, extHTTP, external)
	}
	if wait <= 0 {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			bctx, cancel := context.WithTimeout(s.ctx, 30*time.Second)
			defer cancel()
			_, _ = finish(bctx)
		}()
		return res, nil
	}
	toolkit.Progress(ctx, "waiting up to %s for the agent of JVM %d to connect…", wait, pid)
	wctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	c, err := finish(wctx)
	if err != nil {
		res.Message = "Attach requested, but no connection within " + wait.String() + ": " + err.Error()
		return res, nil
	}
	res.Conn = c
	res.Message = "Attach requested and connection established"
	return res, nil
}

func freePort() int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

type portFile struct {
	PID             int    `json:"pid"`
	Port            int    `json:"port"`
	HTTPPort        int    `json:"httpPort"`
	ApplicationName string `json:"applicationName"`
	Host            string `json:"host"`
	Error           string `json:"error"`
}

// awaitAgent polls for the agent's ports (in dir's port file, for the
// built-in agent) and connects.
func (s *Service) awaitAgent(ctx context.Context, pid int, name string, dir *attachDir, port, httpPort int, external bool) (*Connection, error) {
	host := "127.0.0.1"
	delay := 5 * time.Millisecond
	for {
		var addr string
		if dir != nil {
			if b, err := dir.readPort(); err == nil {
				var pf portFile
				if json.Unmarshal(b, &pf) == nil {
					if pf.Error != "" {
						return nil, fmt.Errorf("%w: the agent failed to start; the target wrote: %s", ErrAgentNoReply, textcut.Quote(pf.Error, 400))
					}
					if pf.Port > 0 {
						port, httpPort = pf.Port, pf.HTTPPort
						if pf.ApplicationName != "" {
							name = pf.ApplicationName
						}
						addr = net.JoinHostPort(host, strconv.Itoa(port))
					}
				}
			}
		} else {
			addr = net.JoinHostPort(host, strconv.Itoa(port))
		}
		if addr != "" {
			dctx, cancel := context.WithTimeout(ctx, 2*time.Second)
			cl, err := DialAgent(dctx, addr)
			cancel()
			if err == nil {
				c := &Connection{ID: fmt.Sprintf("%s-%d", name, pid), ApplicationName: name, PID: pid, Host: host, Port: port,
					HTTPPort: httpPort, CreatedAt: s.cfg.Now(), External: external, Client: cl}
				if httpPort > 0 {
					c.HTTP = NewHTTPClient(host, httpPort)
					lctx, cancel := context.WithTimeout(ctx, 2*time.Second)
					if loaders, err := c.HTTP.ClassLoaders(lctx); err == nil {
						for _, l := range loaders {
							if l.Default {
								c.DefaultLoader = &ClassLoaderDTO{Name: l.Name, Identity: l.Identity}
							}
						}
					}
					cancel()
				}
				s.add(c)
				return c, nil
			}
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("%w: %v", ErrAgentNoReply, ctx.Err())
		case <-t.C:
		}
		if delay < 25*time.Millisecond {
			delay *= 2
		}
	}
}
