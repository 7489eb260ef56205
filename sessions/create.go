package sessions

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	godap "github.com/google/go-dap"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/proc"
	"github.com/dbg-dev/dbg/toolkit"
)

// CreateRequest creates a session (create_debug_session). With Port,
// ProcessID or an adapterConfig that names a target it attaches at once.
type CreateRequest struct {
	Language          string
	Name              string
	ExecutablePath    string
	Host              string
	Port              int
	ProcessID         int
	Timeout           time.Duration
	VerifyTimeout     time.Duration
	StopOnEntry       *bool
	JustMyCode        *bool
	SourcePaths       []string
	BreakOnExceptions string
	AdapterConfig     map[string]any
	// ChildProcesses false: the session does not follow the processes
	// its program starts (nil: the adapter follows those it can).
	ChildProcesses *bool
	// CoreFile opens a post-mortem session of a core file, of Program
	// (the binary that crashed); see postmortem.go.
	CoreFile string
	Program  string
	// Via, when set, reaches the target on another machine (see [Via]);
	// ProcessID and Port are then the target's.
	Via *Via
	// PathMappings map the target's folders to local ones.
	PathMappings []adapters.PathMapping
}

// StartRequest launches the debuggee of a created session (start_debugging).
type StartRequest struct {
	ScriptPath          string
	Args                []string
	Cwd                 string
	Env                 map[string]string
	DAPLaunchArgs       map[string]any
	AdapterLaunchConfig map[string]any
	BreakOnExceptions   string // "" = uncaught for launch
	StopOnEntry         bool
	// Wait bounds how long Start waits for the first stop (0 = default).
	Wait time.Duration
	// ExceptionFilters, when not nil, are the adapter's own exception
	// filter ids, used instead of BreakOnExceptions.
	ExceptionFilters []string
	// Through, when set, is the adapter's Target.Through: a script the
	// runtime runs in place of its own start of the program.
	Through []string
	// SkipStop, when set, is asked about each exception stop before the
	// first stop the launch answers (and again at every restart): the
	// program is continued past those it reports true for.
	SkipStop func(ctx context.Context, s *Session, stop *StopInfo) bool
}

// StartResult says where a launch or attach stands when the call returns.
type StartResult struct {
	State    State     `json:"state"`
	Pending  bool      `json:"pending,omitempty"`
	LastStop *StopInfo `json:"lastStop,omitempty"`
	ExitCode *int      `json:"exitCode,omitempty"`
	Message  string    `json:"message,omitempty"`
}

const (
	defaultVerifyTimeout = 20 * time.Second
	maxVerifyTimeout     = 600 * time.Second
	connectTimeout       = 90 * time.Second // adapter start, build and launch
)

// Create makes a session; it attaches when req names a target.
func (m *Manager) Create(ctx context.Context, req CreateRequest) (*Session, *StartResult, error) {
	if strings.TrimSpace(req.Language) == "" {
		return nil, nil, toolkit.NewError(toolkit.CodeInvalidArgument, "language is required", "pass one of availableOptions").WithOptions(m.cfg.Adapters.Languages()...)
	}
	a, ok := m.cfg.Adapters.Lookup(req.Language)
	if !ok {
		return nil, nil, toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("language %q is not supported", req.Language),
			"pass one of availableOptions; list_supported_languages shows which adapters are installed").WithOptions(m.cfg.Adapters.Languages()...)
	}
	if info := m.findAdapter(ctx, a); !info.Found {
		return nil, nil, adapterNotFound(info)
	}
	switch req.BreakOnExceptions {
	case "", "all", "uncaught", "none":
	default:
		return nil, nil, toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("breakOnExceptions %q is not one of all, uncaught, none", req.BreakOnExceptions), "pass all, uncaught or none")
	}
	if req.VerifyTimeout < 0 || req.VerifyTimeout > maxVerifyTimeout {
		return nil, nil, toolkit.NewError(toolkit.CodeInvalidArgument, "verifyTimeout must be between 0 and 600000 ms", "pass a smaller verifyTimeout")
	}
	if err := refuseChildren(a, req); err != nil {
		return nil, nil, err
	}
	s := newSession(m, a.Language(), a, req)
	s.owner = ownerOf(ctx)
	if req.CoreFile != "" && s.namesTarget(req) {
		return nil, nil, toolkit.NewError(toolkit.CodeInvalidArgument, "coreFile opens a core file; it takes no processId or port", "pass coreFile and program alone, or attach to a live process without coreFile")
	}
	if err := m.add(s); err != nil {
		return nil, nil, err
	}
	if req.CoreFile != "" {
		res, err := s.openCore(ctx, req)
		if err != nil {
			_ = m.CloseSession(context.WithoutCancel(ctx), s.id)
			return nil, nil, err
		}
		return s, res, nil
	}
	if !s.namesTarget(req) {
		return s, nil, nil
	}
	res, err := s.Attach(ctx, req)
	if err != nil {
		// The caller gets no session id from a failed create: do not
		// leave the session behind.
		_ = m.CloseSession(context.WithoutCancel(ctx), s.id)
		return nil, nil, err
	}
	return s, res, nil
}

// namesTarget reports whether req names a target to attach to: a port, a
// process id, or an adapterConfig that the session's adapter reads as one.
func (s *Session) namesTarget(req CreateRequest) bool {
	return req.Port != 0 || req.ProcessID != 0 || adapters.NamesTarget(s.adapter, req.AdapterConfig)
}

func adapterNotFound(info adapters.Info) error {
	hint := "install it with `dbg adapters install " + info.Language + "`"
	if info.InstallCommand != "" {
		hint = "install it with `" + info.InstallCommand + "`"
	}
	e := toolkit.NewError(toolkit.CodeAdapterNotFound, fmt.Sprintf("the %s debug adapter (%s) is not installed", info.Language, info.Adapter), hint)
	if info.Note != "" {
		e.Details = info.Note
	}
	return e
}

// findTTL is how long a found adapter is trusted without a new Find. An
// adapter removed meanwhile still fails clearly when it is started.
const findTTL = 10 * time.Minute

// findAdapter runs Find, caching positive answers: Find may run a version
// command (lldb's takes 300 ms), which is too slow for every create.
func (m *Manager) findAdapter(ctx context.Context, a adapters.Adapter) adapters.Info {
	m.findMu.Lock()
	c, ok := m.findCache[a.Language()]
	m.findMu.Unlock()
	if ok && c.info.Found && m.cfg.Now().Sub(c.at) < findTTL {
		return c.info
	}
	info := a.Find(ctx)
	m.findMu.Lock()
	m.findCache[a.Language()] = findEntry{info: info, at: m.cfg.Now()}
	m.findMu.Unlock()
	return info
}

// Start launches the program of session id.
func (m *Manager) Start(ctx context.Context, id string, req StartRequest) (*StartResult, error) {
	s, err := m.Get(id)
	if err != nil {
		return nil, err
	}
	return s.Launch(ctx, req)
}

// Launch starts the debuggee (start_debugging).
func (s *Session) Launch(ctx context.Context, req StartRequest) (*StartResult, error) {
	if strings.TrimSpace(req.ScriptPath) == "" {
		return nil, toolkit.NewError(toolkit.CodeInvalidArgument, "scriptPath is required", "pass the program to debug (a source file, package directory or binary)")
	}
	isPath := adapters.IsPath(s.adapter, req.ScriptPath)
	if isPath {
		if _, err := os.Stat(req.ScriptPath); err != nil {
			return nil, toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("scriptPath %s does not exist", req.ScriptPath), "pass an existing file or directory (absolute, or relative to "+cwdOr()+")")
		}
	}
	if req.Cwd != "" {
		if st, err := os.Stat(req.Cwd); err != nil || !st.IsDir() {
			return nil, toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("cwd %s is not a directory", req.Cwd), "pass an existing directory as cwd")
		}
	}
	s.mu.Lock()
	switch s.state {
	case StateCreated:
	case StateTerminated, StateError:
		if s.conn != nil {
			s.mu.Unlock()
			return nil, toolkit.NewError(toolkit.CodeInvalidState, "session "+s.id+" has already run", "use restart_debugging, or create a new session")
		}
	default:
		st := s.state
		s.mu.Unlock()
		return nil, toolkit.NewError(toolkit.CodeInvalidState, fmt.Sprintf("session %s is %s", s.id, st), "it is already started; use restart_debugging or close it first")
	}
	s.mu.Unlock()
	mode := req.BreakOnExceptions
	if mode == "" {
		mode = "uncaught"
	}
	if _, err := s.SetExceptionBreakpoints(ctx, mode, req.ExceptionFilters); err != nil {
		return nil, err
	}
	extra := map[string]any{}
	// create_debug_session's adapterConfig (jsDebugPath, ...) applies to
	// the launch too; the launch's own configuration wins.
	for k, v := range s.req.AdapterConfig {
		extra[k] = v
	}
	for k, v := range req.AdapterLaunchConfig {
		extra[k] = v
	}
	for k, v := range req.DAPLaunchArgs {
		extra[k] = v
	}
	t := adapters.Target{Mode: adapters.Launch, Program: req.ScriptPath, Args: req.Args, Cwd: req.Cwd, Env: withMark(req.Env, s.mark), Through: req.Through,
		StopOnEntry: req.StopOnEntry, ExecutablePath: s.req.ExecutablePath, JustMyCode: s.req.JustMyCode,
		SourcePaths: s.req.SourcePaths, Extra: extra, NoChildren: s.noChildren()}
	if isPath {
		t.Program, _ = filepath.Abs(t.Program)
	}
	r := req
	s.mu.Lock()
	s.launchReq = &r
	s.mu.Unlock()
	if err := s.connect(ctx, t); err != nil {
		return nil, err
	}
	wait := req.Wait
	if wait <= 0 {
		wait = time.Second
		if req.StopOnEntry || len(s.Breakpoints()) > 0 {
			wait = 5 * time.Second
		}
	}
	res := s.waitLaunched(ctx, wait)
	if err := s.launchFailed(t, res); err != nil {
		return nil, err
	}
	if req.SkipStop != nil {
		res = s.skipStops(ctx, req.SkipStop, res, time.Now().Add(wait))
	}
	return res, nil
}

// launchFailed is the error of a launch whose adapter died before the
// program ended (killed while it started the program): the launch
// failed, whatever the program managed to do. What it started is
// stopped; the session stays ended, for restart_debugging or close.
func (s *Session) launchFailed(t adapters.Target, res *StartResult) error {
	s.mu.Lock()
	died, reason, ep := s.adapterDied && s.state == StateTerminated, s.reason, s.ep
	s.mu.Unlock()
	if !died || res.State != StateTerminated {
		return nil
	}
	return s.failStart(ep, t, toolkit.CodeAdapterFailed, errors.New(reason),
		"the adapter ended while it started the program: check it with dbg adapters, then start_debugging again")
}

func cwdOr() string {
	wd, _ := os.Getwd()
	return wd
}

// Attach attaches the session to a running process (attach_to_process).
func (s *Session) Attach(ctx context.Context, req CreateRequest) (*StartResult, error) {
	if !s.namesTarget(req) {
		return nil, toolkit.NewError(toolkit.CodeInvalidArgument, "processId or port is required", "pass the pid of the process or the port it listens on for a debugger")
	}
	s.mu.Lock()
	if s.state != StateCreated && s.state != StateTerminated && s.state != StateError {
		st := s.state
		s.mu.Unlock()
		return nil, toolkit.NewError(toolkit.CodeInvalidState, fmt.Sprintf("session %s is %s", s.id, st), "detach or close it first")
	}
	if s.closing {
		s.mu.Unlock()
		return nil, toolkit.NewError(toolkit.CodeSessionNotFound, "session "+s.id+" was closed", "create a new session")
	}
	if s.state != StateCreated {
		ep := s.ep
		s.mu.Unlock()
		s.stopEndpoint(ctx, ep, false) // whatever is left of the last attach
		s.mu.Lock()
		s.resetLocked()
	}
	s.mu.Unlock()
	if req.ProcessID != 0 && req.Via == nil && !proc.Alive(req.ProcessID) {
		return nil, toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("no process %d", req.ProcessID), "pass the pid of a running process")
	}
	mode := req.BreakOnExceptions
	if mode == "" {
		mode = "none" // attach never applies a language default
	}
	if _, err := s.SetExceptionBreakpoints(ctx, mode, nil); err != nil {
		return nil, err
	}
	stopOnEntry := req.StopOnEntry == nil || *req.StopOnEntry
	t := adapters.Target{Mode: adapters.Attach, PID: req.ProcessID, Host: req.Host, Port: req.Port, StopOnAttach: stopOnEntry,
		ExecutablePath: firstNonEmpty(req.ExecutablePath, s.req.ExecutablePath), JustMyCode: req.JustMyCode,
		SourcePaths: req.SourcePaths, PathMappings: req.PathMappings, Extra: req.AdapterConfig, NoChildren: s.noChildren()}
	if t.PID == 0 {
		if v, ok := req.AdapterConfig["processId"]; ok {
			t.PID = toInt(v)
		}
	}
	if t.Port == 0 {
		if v, ok := req.AdapterConfig["port"]; ok {
			t.Port = toInt(v)
		}
	}
	s.mu.Lock()
	s.req.ProcessID, s.req.Port, s.req.Host = req.ProcessID, req.Port, req.Host
	s.mu.Unlock()
	r, err := s.reach(ctx, req, &t)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.remote = r
	s.mu.Unlock()
	if err := s.connect(ctx, t); err != nil {
		return nil, remoteFailed(ctx, r, err)
	}
	s.keepReach(r)
	verify := req.VerifyTimeout
	if verify <= 0 {
		verify = defaultVerifyTimeout
	}
	threads, holder, err := s.verifyThreads(ctx, verify)
	if err != nil {
		return nil, err
	}
	in := ""
	if holder != s {
		in = " in child session " + holder.id
	}
	if !stopOnEntry {
		s.mu.Lock()
		defer s.mu.Unlock()
		return &StartResult{State: s.state, Message: fmt.Sprintf("attached; %d thread(s)%s; the target keeps running", len(threads), in)}, nil
	}
	holder.mu.Lock()
	seq, st := holder.stopSeq, holder.state
	holder.mu.Unlock()
	if st == StatePaused {
		seq-- // the adapter stopped it itself (delve): answer that stop
	} else if err := holder.request(ctx, "pause", godap.PauseArguments{ThreadId: threads[0].Id}, nil); err != nil {
		return nil, err
	}
	res := holder.waitFirst(ctx, seq, 3*time.Second)
	res.Message = fmt.Sprintf("attached; %d thread(s)%s", len(threads), in)
	if holder == s {
		s.proposeFromStack(ctx, res)
	}
	return res, nil
}

// noChildren reports whether the session was created with
// childProcesses: false.
func (s *Session) noChildren() bool {
	return s.req.ChildProcesses != nil && !*s.req.ChildProcesses
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func toInt(v any) int {
	switch x := v.(type) {
	case float64:
		return int(x)
	case int:
		return x
	case json.Number:
		n, _ := x.Int64()
		return int(n)
	case string:
		var n int
		fmt.Sscan(x, &n)
		return n
	}
	return 0
}
