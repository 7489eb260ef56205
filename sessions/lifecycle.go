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
	"github.com/dbg-dev/dbg/dap"
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
}

// StartResult says where a launch or attach stands when the call returns.
type StartResult struct {
	State    State     `json:"state"`
	Pending  bool      `json:"pending,omitempty"`
	LastStop *StopInfo `json:"lastStop,omitempty"`
	ExitCode *int      `json:"exitCode,omitempty"`
	Message  string    `json:"message,omitempty"`
}

// attachTriggers are adapterConfig keys that name a target.
var attachTriggers = []string{"vmServiceUri", "websocketAddress", "vmServiceInfoFile", "deviceId", "processId", "port"}

const (
	defaultVerifyTimeout = 20 * time.Second
	maxVerifyTimeout     = 600 * time.Second
	connectTimeout       = 90 * time.Second // adapter start, build and launch
)

// Create makes a session; it attaches when req names a target.
func (m *Manager) Create(ctx context.Context, req CreateRequest) (*Session, *StartResult, error) {
	if strings.TrimSpace(req.Language) == "" {
		return nil, nil, NewError(CodeInvalidArgument, "language is required", "pass one of availableOptions").WithOptions(m.cfg.Adapters.Languages()...)
	}
	a, ok := m.cfg.Adapters.Lookup(req.Language)
	if !ok {
		return nil, nil, NewError(CodeInvalidArgument, fmt.Sprintf("language %q is not supported", req.Language),
			"pass one of availableOptions; list_supported_languages shows which adapters are installed").WithOptions(m.cfg.Adapters.Languages()...)
	}
	if info := m.findAdapter(ctx, a); !info.Found {
		return nil, nil, adapterNotFound(info)
	}
	switch req.BreakOnExceptions {
	case "", "all", "uncaught", "none":
	default:
		return nil, nil, NewError(CodeInvalidArgument, fmt.Sprintf("breakOnExceptions %q is not one of all, uncaught, none", req.BreakOnExceptions), "pass all, uncaught or none")
	}
	if req.VerifyTimeout < 0 || req.VerifyTimeout > maxVerifyTimeout {
		return nil, nil, NewError(CodeInvalidArgument, "verifyTimeout must be between 0 and 600000 ms", "pass a smaller verifyTimeout")
	}
	s := newSession(m, a.Language(), a, req)
	if err := m.add(s); err != nil {
		return nil, nil, err
	}
	if req.Port == 0 && req.ProcessID == 0 && !namesTarget(req.AdapterConfig) {
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

func namesTarget(cfg map[string]any) bool {
	for _, k := range attachTriggers {
		if v, ok := cfg[k]; ok && v != nil && v != "" {
			return true
		}
	}
	return false
}

func adapterNotFound(info adapters.Info) error {
	hint := "install it with `dbg adapters install " + info.Language + "`"
	if info.InstallCommand != "" {
		hint = "install it with `" + info.InstallCommand + "`"
	}
	e := NewError(CodeAdapterNotFound, fmt.Sprintf("the %s debug adapter (%s) is not installed", info.Language, info.Adapter), hint)
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
		return nil, NewError(CodeInvalidArgument, "scriptPath is required", "pass the program to debug (a source file, package directory or binary)")
	}
	if !strings.HasPrefix(req.ScriptPath, "-m ") && !looksLikeClassName(req.ScriptPath) {
		if _, err := os.Stat(req.ScriptPath); err != nil {
			return nil, NewError(CodeInvalidArgument, fmt.Sprintf("scriptPath %s does not exist", req.ScriptPath), "pass an existing file or directory (absolute, or relative to "+cwdOr()+")")
		}
	}
	if req.Cwd != "" {
		if st, err := os.Stat(req.Cwd); err != nil || !st.IsDir() {
			return nil, NewError(CodeInvalidArgument, fmt.Sprintf("cwd %s is not a directory", req.Cwd), "pass an existing directory as cwd")
		}
	}
	s.mu.Lock()
	switch s.state {
	case StateCreated:
	case StateTerminated, StateError:
		if s.conn != nil {
			s.mu.Unlock()
			return nil, NewError(CodeInvalidState, "session "+s.id+" has already run", "use restart_debugging, or create a new session")
		}
	default:
		st := s.state
		s.mu.Unlock()
		return nil, NewError(CodeInvalidState, fmt.Sprintf("session %s is %s", s.id, st), "it is already started; use restart_debugging or close it first")
	}
	s.mu.Unlock()
	mode := req.BreakOnExceptions
	if mode == "" {
		mode = "uncaught"
	}
	if _, err := s.SetExceptionBreakpoints(ctx, mode, nil); err != nil {
		return nil, err
	}
	extra := map[string]any{}
	for k, v := range req.AdapterLaunchConfig {
		extra[k] = v
	}
	for k, v := range req.DAPLaunchArgs {
		extra[k] = v
	}
	t := adapters.Target{Mode: adapters.Launch, Program: req.ScriptPath, Args: req.Args, Cwd: req.Cwd, Env: req.Env,
		StopOnEntry: req.StopOnEntry, ExecutablePath: s.req.ExecutablePath, JustMyCode: s.req.JustMyCode,
		SourcePaths: s.req.SourcePaths, Extra: extra}
	if t.Program != "" && !strings.HasPrefix(t.Program, "-m ") && !looksLikeClassName(t.Program) {
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
	return s.waitFirst(ctx, 0, wait), nil
}

// looksLikeClassName accepts Java main class names (com.example.Main, or
// Main in the default package), which name no file.
func looksLikeClassName(p string) bool {
	if strings.ContainsAny(p, "/\\") || strings.HasSuffix(p, ".java") || strings.HasSuffix(p, ".jar") {
		return false
	}
	parts := strings.Split(p, ".")
	for _, part := range parts {
		if part == "" {
			return false
		}
		for i, r := range part {
			if !(r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
				return false
			}
		}
	}
	last := parts[len(parts)-1]
	return last[0] >= 'A' && last[0] <= 'Z'
}

func cwdOr() string {
	wd, _ := os.Getwd()
	return wd
}

// Attach attaches the session to a running process (attach_to_process).
func (s *Session) Attach(ctx context.Context, req CreateRequest) (*StartResult, error) {
	s.mu.Lock()
	if s.state != StateCreated && s.state != StateTerminated && s.state != StateError {
		st := s.state
		s.mu.Unlock()
		return nil, NewError(CodeInvalidState, fmt.Sprintf("session %s is %s", s.id, st), "detach or close it first")
	}
	if s.closing {
		s.mu.Unlock()
		return nil, NewError(CodeSessionNotFound, "session "+s.id+" was closed", "create a new session")
	}
	if s.state != StateCreated {
		ep := s.ep
		s.mu.Unlock()
		s.stopEndpoint(ctx, ep, false) // whatever is left of the last attach
		s.mu.Lock()
		s.resetLocked()
	}
	s.mu.Unlock()
	if req.ProcessID != 0 && !alive(req.ProcessID) {
		return nil, NewError(CodeInvalidArgument, fmt.Sprintf("no process %d", req.ProcessID), "pass the pid of a running process")
	}
	mode := req.BreakOnExceptions
	if mode == "" {
		mode = "none" // attach never applies a language default
	}
	if _, err := s.SetExceptionBreakpoints(ctx, mode, nil); err != nil {
		return nil, err
	}
	t := adapters.Target{Mode: adapters.Attach, PID: req.ProcessID, Host: req.Host, Port: req.Port,
		ExecutablePath: firstNonEmpty(req.ExecutablePath, s.req.ExecutablePath), JustMyCode: req.JustMyCode,
		SourcePaths: req.SourcePaths, Extra: req.AdapterConfig}
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
	if err := s.connect(ctx, t); err != nil {
		return nil, err
	}
	verify := req.VerifyTimeout
	if verify <= 0 {
		verify = defaultVerifyTimeout
	}
	threads, err := s.verifyThreads(ctx, verify)
	if err != nil {
		return nil, err
	}
	stopOnEntry := req.StopOnEntry == nil || *req.StopOnEntry
	if !stopOnEntry {
		s.mu.Lock()
		defer s.mu.Unlock()
		return &StartResult{State: s.state, Message: fmt.Sprintf("attached; %d thread(s); the target keeps running", len(threads))}, nil
	}
	s.mu.Lock()
	seq, st := s.stopSeq, s.state
	s.mu.Unlock()
	if st != StatePaused {
		if err := s.request(ctx, "pause", godap.PauseArguments{ThreadId: threads[0].Id}, nil); err != nil {
			return nil, err
		}
	}
	res := s.waitFirst(ctx, seq, 3*time.Second)
	res.Message = fmt.Sprintf("attached; %d thread(s)", len(threads))
	return res, nil
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

// verifyThreads polls threads until at least one exists.
func (s *Session) verifyThreads(ctx context.Context, d time.Duration) ([]godap.Thread, error) {
	deadline := time.Now().Add(d)
	var lastErr error
	for {
		var body godap.ThreadsResponseBody
		rctx, cancel := context.WithTimeout(ctx, minDur(5*time.Second, time.Until(deadline)+time.Millisecond))
		lastErr = s.request(rctx, "threads", nil, &body)
		cancel()
		if lastErr == nil && len(body.Threads) > 0 {
			return body.Threads, nil
		}
		if s.State() == StateTerminated {
			s.mu.Lock()
			r := s.reason
			s.mu.Unlock()
			return nil, NewError(CodeAttachFailed, "the target ended during attach: "+r, "check that the process is still running")
		}
		if time.Now().After(deadline) {
			msg := fmt.Sprintf("no thread reported within %s of attaching", d)
			if lastErr != nil {
				msg += ": " + lastErr.Error()
			}
			return nil, NewError(CodeAttachFailed, msg, "check the pid/port, or raise verifyTimeout").Retry()
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func minDur(a, b time.Duration) time.Duration {
	if a < b {
		return a
	}
	return b
}

// connect starts the adapter and runs the DAP start-up sequence:
// initialize, launch/attach (not awaited), initialized, breakpoints and
// exception filters, configurationDone, then the launch/attach answer.
func (s *Session) connect(ctx context.Context, t adapters.Target) (err error) {
	ctx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	s.mu.Lock()
	s.target = t
	s.exitCode, s.lastStop, s.pid, s.reason = nil, nil, 0, ""
	s.threads = map[int]string{}
	s.setStateLocked(StateInitializing, "")
	s.mu.Unlock()

	fail := func(code string, e error, hint string) error { return s.failStart(nil, t, code, e, hint) }

	var args map[string]any
	if t.Mode == adapters.Launch {
		args, err = s.adapter.LaunchArgs(ctx, t)
	} else {
		args, err = s.adapter.AttachArgs(ctx, t)
	}
	if err != nil {
		return fail(CodeInvalidArgument, err, "fix the arguments and try again")
	}
	ep, err := s.adapter.Start(ctx, t)
	if err != nil {
		var nf *adapters.NotFoundError
		if errors.As(err, &nf) {
			return fail(CodeAdapterNotFound, err, "install it with `"+nf.Install+"`")
		}
		return fail(CodeAdapterFailed, err, "check that the adapter works: dbg adapters")
	}
	return s.handshake(ctx, ep, t, args)
}

// handshake runs the DAP start-up sequence on a started adapter.
func (s *Session) handshake(ctx context.Context, ep *adapters.Endpoint, t adapters.Target, args map[string]any) (err error) {
	fail := func(code string, e error, hint string) error { return s.failStart(ep, t, code, e, hint) }
	log, _ := dap.OpenTrafficLog(s.m.cfg.DAPLogDir, s.id)
	var conn *dap.Conn
	ready := make(chan struct{})
	onEvent := func(m *dap.Message) {
		<-ready
		s.mu.Lock()
		current := s.conn == conn
		s.mu.Unlock()
		if current { // late events of a previous run are dropped
			s.onEvent(m)
		}
	}
	conn = dap.NewConn(ep.Conn, dap.Options{OnEvent: onEvent, OnRequest: s.onReverseRequest, Log: log, Timeout: requestTimeout})
	initDone := make(chan struct{})
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		close(ready)
		_ = conn.Close()
		return fail(CodeInvalidState, errors.New("the session was closed while it started"), "create a new session")
	}
	s.conn, s.ep, s.initDone = conn, ep, initDone
	s.bps.resetAdapterIDs()
	s.mu.Unlock()
	close(ready)
	s.m.recordProcesses(s)
	go s.onConnClosed(conn)

	var caps godap.Capabilities
	initArgs := godap.InitializeRequestArguments{ClientID: "dbg", ClientName: "dbg", AdapterID: s.language,
		Locale: "en", LinesStartAt1: true, ColumnsStartAt1: true, PathFormat: "path",
		SupportsVariableType: true, SupportsRunInTerminalRequest: true, SupportsStartDebuggingRequest: true,
		SupportsProgressReporting: false, SupportsInvalidatedEvent: false}
	if err := s.request(ctx, "initialize", initArgs, &caps); err != nil {
		return fail(CodeAdapterFailed, s.withStderr(err), "the adapter failed to initialize")
	}
	s.mu.Lock()
	s.caps = caps
	s.mu.Unlock()

	call, err := conn.Start(ctx, string(t.Mode), args)
	if err != nil {
		return fail(CodeAdapterFailed, s.withStderr(err), "the adapter refused to start")
	}
	select {
	case <-initDone:
	case <-call.Done():
		// Some adapters answer launch before "initialized"; a failure ends here.
		if _, err := call.Wait(ctx, 0); err != nil {
			return fail(startFailCode(t), s.withStderr(err), launchHint(t))
		}
		select {
		case <-initDone:
		case <-conn.Done():
			return fail(CodeAdapterFailed, s.withStderr(conn.Err()), launchHint(t))
		case <-ctx.Done():
			return fail(CodeTimeout, fmt.Errorf("the adapter never sent initialized: %w", ctx.Err()), "retry; check the adapter with dbg adapters")
		}
	case <-conn.Done():
		return fail(CodeAdapterFailed, s.withStderr(conn.Err()), launchHint(t))
	case <-ctx.Done():
		return fail(CodeTimeout, fmt.Errorf("%s did not complete: %w", t.Mode, ctx.Err()), "retry, or raise the timeout")
	}
	if err := s.syncAll(ctx); err != nil {
		return fail(CodeAdapterFailed, err, "the adapter refused the breakpoints")
	}
	if caps.SupportsConfigurationDoneRequest {
		if err := s.request(ctx, "configurationDone", nil, nil); err != nil {
			return fail(CodeAdapterFailed, s.withStderr(err), "the adapter failed to start the program")
		}
	}
	if _, err := call.Wait(ctx, 0); err != nil {
		return fail(startFailCode(t), s.withStderr(err), launchHint(t))
	}
	s.mu.Lock()
	if s.state == StateInitializing {
		s.setStateLocked(StateRunning, "")
	}
	s.mu.Unlock()
	s.background(func() {
		s.trackProcesses()
		s.m.recordProcesses(s)
	})
	return nil
}

// failStart ends a launch or attach that went wrong: it stops what was
// started, puts the session in the error state, and returns the error as a
// ToolError.
func (s *Session) failStart(ep *adapters.Endpoint, t adapters.Target, code string, e error, hint string) error {
	s.stopEndpoint(context.Background(), ep, t.Mode == adapters.Launch)
	s.mu.Lock()
	s.setStateLocked(StateError, e.Error())
	s.mu.Unlock()
	var te *ToolError
	if errors.As(e, &te) {
		return te
	}
	return NewError(code, e.Error(), hint).Wrap(e)
}

// startFailCode is the error code of a refused launch or attach.
func startFailCode(t adapters.Target) string {
	if t.Mode == adapters.Attach {
		return CodeAttachFailed
	}
	return CodeAdapterFailed
}

func launchHint(t adapters.Target) string {
	if t.Mode == adapters.Attach {
		return "check the pid or port, and that the process can be debugged (ptrace permissions, the debug port is open)"
	}
	return "check scriptPath, args and cwd; get_output shows what the program printed"
}

// withStderr adds the adapter's last stderr lines to an error.
func (s *Session) withStderr(err error) error {
	if err == nil {
		err = dap.ErrClosed
	}
	s.mu.Lock()
	ep := s.ep
	s.mu.Unlock()
	if ep != nil && ep.Process != nil {
		if tail := strings.TrimSpace(ep.Process.StderrTail()); tail != "" {
			return fmt.Errorf("%w; adapter stderr: %s", err, lastLines(tail, 8))
		}
	}
	if out := strings.TrimSpace(s.output.Text("stderr")); out != "" {
		return fmt.Errorf("%w; program stderr: %s", err, lastLines(out, 8))
	}
	return err
}

// waitFirst waits up to d for a stop newer than seq or the end, and says
// where the session stands.
func (s *Session) waitFirst(ctx context.Context, seq int, d time.Duration) *StartResult {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	st, _ := s.waitStop(ctx, seq)
	res := &StartResult{State: st.State, LastStop: st.LastStop, ExitCode: st.ExitCode}
	switch st.State {
	case StatePaused:
		res.Message = "stopped: " + st.LastStop.Reason
	case StateTerminated:
		res.Message = st.Reason
	default:
		res.Pending = true
		res.Message = "running; call wait_for_stop to wait for a breakpoint"
	}
	return res
}

// Detach ends the debug connection and leaves the target running (or
// terminates it when terminate is set).
func (s *Session) Detach(ctx context.Context, terminate bool) error {
	s.mu.Lock()
	ep, conn, st := s.ep, s.conn, s.state
	s.mu.Unlock()
	if conn == nil || st == StateTerminated && ep == nil {
		return NewError(CodeInvalidState, "session "+s.id+" is not attached", "attach_to_process first")
	}
	if st == StatePaused && !terminate {
		// Let the target run before the adapter lets go of it.
		_ = s.request(ctx, "continue", godap.ContinueArguments{ThreadId: s.currentThread()}, nil)
	}
	s.disconnect(ctx, terminate)
	s.stopEndpoint(ctx, ep, terminate)
	s.mu.Lock()
	s.ep = nil
	reason := "detached; the target keeps running"
	if terminate {
		reason = "detached and terminated the target"
	}
	s.setStateLocked(StateTerminated, reason)
	s.mu.Unlock()
	return nil
}

// disconnect asks the adapter to end the session, briefly.
func (s *Session) disconnect(ctx context.Context, terminate bool) {
	s.mu.Lock()
	conn, st := s.conn, s.state
	s.mu.Unlock()
	if conn == nil || conn.Err() != nil {
		return
	}
	_ = st
	dctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	_, _ = conn.Request(dctx, "disconnect", godap.DisconnectArguments{TerminateDebuggee: terminate, Restart: false})
}

// stopEndpoint closes the adapter and kills what it started: the
// adapter's own process group and every descendant (debuggees that
// adapters put in groups of their own), and for launches the debuggee the
// adapter reported.
func (s *Session) stopEndpoint(ctx context.Context, ep *adapters.Endpoint, launched bool) {
	if ep == nil {
		return
	}
	s.trackProcesses()
	doomed := s.trackedAlive()
	s.mu.Lock()
	pid := s.pid
	s.mu.Unlock()
	if launched && pid > 0 && pid != os.Getpid() {
		doomed = append(doomed, pid)
		doomed = append(doomed, descendants(pid)...)
	}
	if !launched {
		// Never kill the attached target or its children.
		doomed = exclude(doomed, pid, descendants(pid))
	}
	ep.Close(ctx)
	killProcesses(doomed)
	s.m.forgetProcesses(s)
}

func exclude(pids []int, keep int, keepMore []int) []int {
	skip := map[int]bool{keep: true}
	for _, p := range keepMore {
		skip[p] = true
	}
	out := pids[:0]
	for _, p := range pids {
		if !skip[p] {
			out = append(out, p)
		}
	}
	return out
}

// Restart relaunches with the same configuration; breakpoints are kept.
func (s *Session) Restart(ctx context.Context) (*StartResult, error) {
	s.mu.Lock()
	req := s.launchReq
	t := s.target
	ep := s.ep
	s.mu.Unlock()
	if req == nil {
		return nil, NewError(CodeInvalidState, "session "+s.id+" was not launched", "restart_debugging works for sessions started with start_debugging")
	}
	s.disconnect(ctx, true)
	s.stopEndpoint(ctx, ep, t.Mode == adapters.Launch)
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		return nil, NewError(CodeSessionNotFound, "session "+s.id+" was closed", "create a new session")
	}
	s.resetLocked()
	s.mu.Unlock()
	return s.Launch(ctx, *req)
}

// CloseSession ends a session: it disconnects, kills the adapter and (for
// launch) the debuggee's whole process group, and forgets the session.
func (m *Manager) CloseSession(ctx context.Context, id string) error {
	s, err := m.Get(id)
	if err != nil {
		m.mu.Lock()
		was := m.closedIDs[id]
		m.mu.Unlock()
		if was {
			return NewError(CodeSessionNotFound, "session "+id+" is already closed", "nothing to do; list_debug_sessions shows the open sessions")
		}
		return err
	}
	s.close(ctx)
	m.mu.Lock()
	delete(m.sessions, s.id)
	m.closedIDs[s.id] = true
	m.mu.Unlock()
	return nil
}

func (s *Session) close(ctx context.Context) {
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		return
	}
	s.closing = true
	ep, launched, children := s.ep, s.target.Mode == adapters.Launch, append([]string(nil), s.children...)
	s.mu.Unlock()
	for _, c := range children {
		_ = s.m.CloseSession(ctx, c)
	}
	s.end()
	s.bg.Wait() // process tracking and records finish before the cleanup
	s.disconnect(ctx, launched)
	s.stopEndpoint(ctx, ep, launched)
	s.mu.Lock()
	if s.conn != nil {
		_ = s.conn.Close()
	}
	s.ep = nil
	s.setStateLocked(StateTerminated, "closed")
	s.mu.Unlock()
}

// resetLocked returns an ended session to "created", dropping its old
// connection, so it can launch or attach again. Callers hold mu.
func (s *Session) resetLocked() {
	if s.conn != nil {
		_ = s.conn.Close()
	}
	s.conn, s.ep = nil, nil
	s.state, s.reason = StateCreated, ""
	s.notifyLocked()
}

func (b *breakpointSet) resetAdapterIDs() {
	for _, list := range b.byFile {
		for _, bp := range list {
			bp.adapterID, bp.Verified = 0, false
		}
	}
	for _, bp := range b.funcs {
		bp.adapterID, bp.Verified = 0, false
	}
}
