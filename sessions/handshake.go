package sessions

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	godap "github.com/google/go-dap"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/dap"
	"github.com/dbg-dev/dbg/textcut"
	"github.com/dbg-dev/dbg/toolkit"
)

// verifyThreads polls threads until at least one exists. It returns the
// session that holds them: s, or a child session of s (see
// childThreads).
func (s *Session) verifyThreads(ctx context.Context, d time.Duration) ([]godap.Thread, *Session, error) {
	deadline := time.Now().Add(d)
	var lastErr error
	for {
		var body godap.ThreadsResponseBody
		rctx, cancel := context.WithTimeout(ctx, minDur(5*time.Second, time.Until(deadline)+time.Millisecond))
		lastErr = s.request(rctx, "threads", nil, &body)
		var child *Session
		if lastErr == nil && len(body.Threads) == 0 {
			child, body.Threads = s.childThreads(rctx)
		}
		cancel()
		if lastErr == nil && len(body.Threads) > 0 {
			return body.Threads, firstSession(child, s), nil
		}
		if s.State() == StateTerminated {
			s.mu.Lock()
			r := s.reason
			s.mu.Unlock()
			return nil, nil, toolkit.NewError(toolkit.CodeAttachFailed, "the target ended during attach: "+r, "check that the process is still running")
		}
		if time.Now().After(deadline) {
			msg := fmt.Sprintf("no thread reported within %s of attaching", d)
			if lastErr != nil {
				msg += ": " + lastErr.Error()
			}
			return nil, nil, toolkit.NewError(toolkit.CodeAttachFailed, msg, "check the pid/port, or raise verifyTimeout").Retry()
		}
		select {
		case <-ctx.Done():
			return nil, nil, ctx.Err()
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
//
// The steps that do not depend on each other overlap: the launch or
// attach arguments (which may build the program) are made while the
// adapter starts and answers initialize, and the adapter comes from the
// warm pool when one waits there.
func (s *Session) connect(ctx context.Context, t adapters.Target) (err error) {
	ctx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	s.mu.Lock()
	s.target = t
	s.exitCode, s.lastStop, s.pid, s.reason, s.adapterDied = nil, nil, 0, "", false
	s.threads = map[int]string{}
	s.setStateLocked(StateInitializing, "")
	s.mu.Unlock()

	fail := func(code string, e error, hint string) error { return s.failStart(nil, t, code, e, hint) }
	var coreArgs map[string]any
	if t.Mode == adapters.Core {
		// A core is opened by the request the adapter names (postmortem.go).
		mode, args, err := s.adapter.Traits().Core(ctx, t)
		if err != nil {
			return fail(toolkit.CodeInvalidArgument, err, "fix coreFile and program, or pick the adapter with adapterConfig")
		}
		t.Mode, coreArgs = mode, args
	}

	type built struct {
		args map[string]any
		err  error
	}
	made := make(chan built, 1)
	go func() {
		var b built
		switch {
		case coreArgs != nil:
			b.args = coreArgs
		case t.Mode == adapters.Launch:
			b.args, b.err = s.adapter.LaunchArgs(ctx, t)
		default:
			b.args, b.err = s.adapter.AttachArgs(ctx, t)
		}
		made <- b
	}()
	args := func(ctx context.Context) (map[string]any, error) {
		select {
		case b := <-made:
			made <- b
			return b.args, b.err
		case <-ctx.Done():
			return nil, fmt.Errorf("making the %s arguments: %w", t.Mode, ctx.Err())
		}
	}
	ep, err := s.m.pool.start(ctx, s, t)
	if err != nil {
		// Bad arguments are the caller's to fix, whatever else failed.
		if _, aerr := args(ctx); aerr != nil {
			return fail(toolkit.CodeInvalidArgument, aerr, "fix the arguments and try again")
		}
		var nf *adapters.NotFoundError
		if errors.As(err, &nf) {
			return fail(toolkit.CodeAdapterNotFound, err, "install it with `"+nf.Install+"`")
		}
		var refused *adapters.AttachRefusedError
		if errors.As(err, &refused) {
			return fail(toolkit.CodeAttachFailed, err, refused.Hint)
		}
		return fail(toolkit.CodeAdapterFailed, err, "check that the adapter works: dbg adapters")
	}
	if err := s.handshakeWith(ctx, ep, t, args); err != nil {
		return err
	}
	s.m.pool.started(s, t)
	return nil
}

// handshake runs the DAP start-up sequence on a started adapter.
func (s *Session) handshake(ctx context.Context, ep *adapters.Endpoint, t adapters.Target, args map[string]any) error {
	return s.handshakeWith(ctx, ep, t, func(context.Context) (map[string]any, error) { return args, nil })
}

// handshakeWith is handshake with the launch or attach arguments made
// meanwhile: args waits for them.
func (s *Session) handshakeWith(ctx context.Context, ep *adapters.Endpoint, t adapters.Target, makeArgs func(context.Context) (map[string]any, error)) (err error) {
	fail := func(code string, e error, hint string) error { return s.failStart(ep, t, code, e, hint) }
	log, logErr := dap.OpenTrafficLog(s.m.cfg.DAPLogDir, s.id, s.m.cfg.DAPLogRedact)
	if logErr != nil {
		s.m.warnf("session %s: %v; its DAP traffic is not logged", s.id, logErr)
	}
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
	conn = dap.NewConn(ep.Conn, dap.Options{OnEvent: onEvent, OnRequest: s.onReverseRequest, Log: log, Timeout: s.m.cfg.RequestTimeout})
	initDone := make(chan struct{})
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		close(ready)
		_ = conn.Close()
		return fail(toolkit.CodeInvalidState, errors.New("the session was closed while it started"), "create a new session")
	}
	s.conn, s.ep, s.initDone = conn, ep, initDone
	s.bps.resetAdapterIDs()
	s.mu.Unlock()
	close(ready)
	s.m.recordProcesses(s)
	go s.onConnClosed(conn)

	var answer initializeAnswer
	initArgs := godap.InitializeRequestArguments{ClientID: "dbg", ClientName: "dbg", AdapterID: s.language,
		Locale: "en", LinesStartAt1: true, ColumnsStartAt1: true, PathFormat: "path",
		SupportsVariableType: true, SupportsRunInTerminalRequest: true, SupportsStartDebuggingRequest: true,
		SupportsProgressReporting: false, SupportsInvalidatedEvent: false}
	if err := s.request(ctx, "initialize", initArgs, &answer); err != nil {
		return fail(toolkit.CodeAdapterFailed, s.withStderr(err), "the adapter failed to initialize")
	}
	caps := answer.Capabilities
	s.mu.Lock()
	s.caps, s.live = caps, answer.liveCaps
	s.mu.Unlock()

	args, err := makeArgs(ctx)
	if err != nil {
		return fail(toolkit.CodeInvalidArgument, err, "fix the arguments and try again")
	}
	call, err := conn.Start(ctx, string(t.Mode), args)
	if err != nil {
		return fail(toolkit.CodeAdapterFailed, s.withStderr(err), "the adapter refused to start")
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
			return fail(toolkit.CodeAdapterFailed, s.withStderr(conn.Err()), launchHint(t))
		case <-ctx.Done():
			return fail(toolkit.CodeTimeout, fmt.Errorf("the adapter never sent initialized: %w", ctx.Err()), "retry; check the adapter with dbg adapters")
		}
	case <-conn.Done():
		return fail(toolkit.CodeAdapterFailed, s.withStderr(conn.Err()), launchHint(t))
	case <-ctx.Done():
		return fail(toolkit.CodeTimeout, fmt.Errorf("%s did not complete: %w", t.Mode, ctx.Err()), "retry, or raise the timeout")
	}
	if err := s.syncAll(ctx); err != nil {
		return fail(toolkit.CodeAdapterFailed, err, "the adapter refused the breakpoints")
	}
	if caps.SupportsConfigurationDoneRequest {
		if err := s.request(ctx, "configurationDone", nil, nil); err != nil {
			return fail(toolkit.CodeAdapterFailed, s.withStderr(err), "the adapter failed to start the program")
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
// toolkit.ToolError.
func (s *Session) failStart(ep *adapters.Endpoint, t adapters.Target, code string, e error, hint string) error {
	s.stopEndpoint(context.Background(), ep, t.Mode == adapters.Launch)
	s.mu.Lock()
	s.setStateLocked(StateError, e.Error())
	s.mu.Unlock()
	var te *toolkit.ToolError
	if errors.As(e, &te) {
		return te
	}
	return toolkit.NewError(code, e.Error(), hint).Wrap(e)
}

// startFailCode is the error code of a refused launch or attach.
func startFailCode(t adapters.Target) string {
	if t.Mode == adapters.Attach {
		return toolkit.CodeAttachFailed
	}
	return toolkit.CodeAdapterFailed
}

func launchHint(t adapters.Target) string {
	if t.Mode == adapters.Attach {
		return "check the pid or port, and that the process can be debugged (ptrace permissions, the debug port is open)"
	}
	return "check scriptPath, args and cwd; get_output shows what the program printed"
}

// withStderr adds the adapter's last stderr lines to an error; a closed
// stream is the adapter's end.
func (s *Session) withStderr(err error) error {
	if err == nil {
		err = dap.ErrClosed
	}
	if errors.Is(err, dap.ErrClosed) {
		err = fmt.Errorf("the debug adapter exited (%w)", err)
	}
	s.mu.Lock()
	ep := s.ep
	s.mu.Unlock()
	if ep != nil && ep.Process != nil {
		if tail := strings.TrimSpace(ep.Process.StderrTail()); tail != "" {
			return fmt.Errorf("%w; adapter stderr: %s", err, textcut.LastLines(tail, 8))
		}
	}
	if out := strings.TrimSpace(s.output.Text("stderr")); out != "" {
		return fmt.Errorf("%w; program stderr: %s", err, textcut.LastLines(out, 8))
	}
	return err
}

// waitFirst waits up to d for a stop newer than seq or the end, and says
// where the session stands.
func (s *Session) waitFirst(ctx context.Context, seq int, d time.Duration) *StartResult {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	st, _ := s.waitStop(ctx, ctx, seq)
	res := &StartResult{State: st.State, LastStop: st.LastStop, ExitCode: st.ExitCode}
	switch st.State {
	case StatePaused, StatePostmortem:
		res.Message = "stopped: " + st.LastStop.Reason
	case StateTerminated:
		res.Message = st.Reason
	default:
		res.Pending = true
		res.Message = "running; call wait_for_stop to wait for a breakpoint"
	}
	return res
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
