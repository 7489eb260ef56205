package debugtools

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/dbg-dev/dbg/proc"
	"github.com/dbg-dev/dbg/toolkit"
)

type runInvokeIn struct {
	invokeIn
	ConfigurationName       string      `json:"configurationName,omitempty" jsonschema:"run configuration to start (or reuse) and attach"`
	PID                     flexString  `json:"pid,omitempty" jsonschema:"JVM to attach without a connection"`
	AttachName              string      `json:"attachName,omitempty"`
	WaitForConnectionMillis toolkit.Int `json:"waitForConnectionMillis,omitempty" jsonschema:"default 30000"`
	ReadyTimeoutMillis      toolkit.Int `json:"readyTimeoutMillis,omitempty" jsonschema:"wait for Spring (default 60000)"`
	LogLimit                toolkit.Int `json:"logLimit,omitempty" jsonschema:"default 100"`
	SQLLimit                toolkit.Int `json:"sqlLimit,omitempty" jsonschema:"default 50"`
}

// RunInvokeOut is the answer of run_and_invoke.
type RunInvokeOut struct {
	ConnectionID string         `json:"connectionId"`
	Attached     bool           `json:"attached"`
	Ready        bool           `json:"ready"`
	Invocation   InvokeOut      `json:"invocation"`
	Logs         []LogEntry     `json:"logs"`
	LogsError    *string        `json:"logsError"`
	SQL          []SQLStatement `json:"sql"`
	SQLError     *string        `json:"sqlError"`
}

func (t *jvmTools) runAndInvoke(ctx context.Context, in runInvokeIn) (RunInvokeOut, error) {
	dto, view, timeout, err := t.buildRun(in.invokeIn)
	if err != nil {
		return RunInvokeOut{}, err
	}
	var out RunInvokeOut
	conn, attached, err := t.connectFor(ctx, in)
	if err != nil {
		return RunInvokeOut{}, err
	}
	out.ConnectionID, out.Attached = conn.ID, attached
	out.Ready = true
	if conn.HTTP != nil {
		wait := 60 * time.Second
		if in.ReadyTimeoutMillis > 0 {
			wait = time.Duration(in.ReadyTimeoutMillis) * time.Millisecond
		}
		ready, err := waitReady(ctx, conn.HTTP, wait)
		if err != nil {
			return RunInvokeOut{}, err
		}
		out.Ready = ready
	}
	var logMark, sqlMark int64 = -1, -1
	if conn.HTTP != nil {
		if p, err := conn.HTTP.Logs(ctx, 0, 1, "", ""); err == nil && p.Available {
			logMark = p.Next
		}
		if p, err := conn.HTTP.SQL(ctx, 0, 1, ""); err == nil && p.Available {
			sqlMark = p.Next
		}
	}
	inv, invErr := t.invokeOn(ctx, conn, dto, view, timeout)
	if invErr != nil && !keepsData(invErr) {
		return RunInvokeOut{}, invErr
	}
	out.Invocation = inv
	out.Logs, out.SQL = []LogEntry{}, []SQLStatement{}
	if logMark < 0 {
		out.LogsError = ptr("logs are not available from this connection")
	} else if p, err := conn.HTTP.Logs(ctx, logMark, clampLimit(in.LogLimit, 100, 1000), "", ""); err != nil {
		out.LogsError = ptr(err.Error())
	} else if p.Entries != nil {
		out.Logs = p.Entries
	}
	if sqlMark < 0 {
		out.SQLError = ptr("SQL history is not available from this connection")
	} else if p, err := conn.HTTP.SQL(ctx, sqlMark, clampLimit(in.SQLLimit, 50, 500), ""); err != nil {
		out.SQLError = ptr(err.Error())
	} else if p.Statements != nil {
		out.SQL = p.Statements
	}
	if invErr != nil {
		// The method threw: the logs and SQL of the call stay in data.
		return out, invErr
	}
	return out, nil
}

// keepsData reports whether err is a business failure whose data the
// envelope keeps.
func keepsData(err error) bool {
	var te *toolkit.ToolError
	return errors.As(err, &te) && te.KeepsData()
}

// connectFor finds or makes the connection run_and_invoke uses.
func (t *jvmTools) connectFor(ctx context.Context, in runInvokeIn) (*Connection, bool, error) {
	wait := 30 * time.Second
	if in.WaitForConnectionMillis > 0 {
		wait = time.Duration(in.WaitForConnectionMillis) * time.Millisecond
	}
	attach := func(pid int) (*Connection, bool, error) {
		if c := t.svc.ConnectionByPID(pid); c != nil {
			return c, false, nil
		}
		res, err := t.svc.Attach(ctx, pid, in.AttachName, wait)
		if err != nil {
			return nil, false, attachError(pid, err)
		}
		if res.Conn == nil {
			return nil, false, toolkit.NewError(toolkit.CodeTimeout, res.Message, "raise waitForConnectionMillis").Retry()
		}
		return res.Conn, true, nil
	}
	if in.ConnectionID != "" || in.SessionID != "" {
		c, err := t.resolveConn(ctx, in.ConnectionID, in.Common)
		return c, false, err
	}
	if in.ConfigurationName != "" {
		project, err := t.m.ResolveProject(in.ProjectPath)
		if err != nil {
			return nil, false, err
		}
		if t.starter == nil {
			return nil, false, toolkit.NewError(toolkit.CodeRunConfigNotFound, "run configurations are not available in this server", "start the program yourself and pass its pid")
		}
		pid, err := t.starter.StartConfiguration(ctx, project, in.ConfigurationName)
		if err != nil {
			return nil, false, err
		}
		jvm, err := waitForJVM(ctx, pid, wait)
		if err != nil {
			return nil, false, err
		}
		return attach(jvm)
	}
	if in.PID != "" {
		pid, err := strconv.Atoi(string(in.PID))
		if err != nil {
			return nil, false, toolkit.NewError(toolkit.CodeInvalidArgument, "pid must be a number", "")
		}
		return attach(pid)
	}
	if conns := t.svc.Connections(); len(conns) > 0 {
		c, err := t.resolveConn(ctx, "", in.Common)
		return c, false, err
	}
	jvms, err := t.svc.JVMs(ctx)
	if err != nil {
		return nil, false, toolkit.NewError(toolkit.CodeInternal, err.Error(), "")
	}
	var cands []JVM
	for _, j := range jvms {
		if CheckAttachable(&j) == nil {
			cands = append(cands, j)
		}
	}
	switch len(cands) {
	case 0:
		return nil, false, toolkit.NewError(toolkit.CodeNoConnection, "no connection and no attachable JVM",
			"start the service (restart_run_configuration) or pass pid").WithNext(toolkit.NextStartRunConfiguration)
	case 1:
		return attach(cands[0].PID)
	}
	var opts []string
	for _, j := range cands {
		opts = append(opts, fmt.Sprintf("%d (%s)", j.PID, j.DisplayName))
	}
	return nil, false, toolkit.NewError(toolkit.CodeConnectionAmbiguous, "several JVMs could be the target", "pass pid: one of availableOptions").
		WithOptions(opts...).WithNext(toolkit.NextAttachJVM)
}

// waitForJVM waits until the process pid, or one it started (a JVM under
// mvn or gradle), is a JVM that can be attached.
func waitForJVM(ctx context.Context, pid int, wait time.Duration) (int, error) {
	deadline := time.Now().Add(wait)
	for {
		jvms, _ := Discover(ctx)
		for _, j := range jvms {
			if descendsFrom(j.PID, pid) && CheckAttachable(&j) == nil {
				return j.PID, nil
			}
		}
		if !proc.Exists(pid) {
			return 0, toolkit.NewError(toolkit.CodeAttachFailed, fmt.Sprintf("the started process %d exited before a JVM appeared", pid),
				"read its output with read_target_application_logs(pid)").WithDetails(map[string]any{"pid": pid})
		}
		if time.Now().After(deadline) {
			return 0, toolkit.NewError(toolkit.CodeTimeout, fmt.Sprintf("no JVM appeared under process %d within %s", pid, wait),
				"raise waitForConnectionMillis, or check the run configuration starts a JVM").Retry()
		}
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// descendsFrom reports whether pid is root or one of its descendants.
func descendsFrom(pid, root int) bool {
	for i := 0; i < 64 && pid > 1; i++ {
		if pid == root {
			return true
		}
		pid = parentOf(pid)
	}
	return false
}

func parentOf(pid int) int {
	st, _ := proc.ReadStat(pid)
	return st.PPID
}

// waitReady polls /spring/ready until the context is active. Without
// Spring the JVM is ready at once.
func waitReady(ctx context.Context, h *HTTPClient, wait time.Duration) (bool, error) {
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	for {
		rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		present, ready, err := h.SpringReady(rctx)
		cancel()
		if err == nil && (!present || ready) {
			return true, nil
		}
		t := time.NewTimer(200 * time.Millisecond)
		select {
		case <-ctx.Done():
			t.Stop()
			return false, ctx.Err()
		case <-deadline.C:
			t.Stop()
			return false, toolkit.NewError(toolkit.CodeTimeout, fmt.Sprintf("the Spring context was not ready within %s", wait),
				"wait and retry, or raise readyTimeoutMillis").Retry().WithNext(toolkit.NextWaitForSpring)
		case <-t.C:
		}
	}
}
