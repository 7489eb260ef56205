package sessiontools

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"time"

	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
)

// ms turns a tool's milliseconds into a wait: def when unset, at most
// sessions.MaxWait.
func ms(n toolkit.Int, def time.Duration) time.Duration {
	if n <= 0 {
		return def
	}
	if d := time.Duration(n) * time.Millisecond; d < sessions.MaxWait {
		return d
	}
	return sessions.MaxWait
}

// sessionTool adds a tool that acts on the session its input names.
func sessionTool[In interface{ session() string }, Out any](tb *toolkit.Toolbox, m *sessions.Manager, name, description string, f func(context.Context, *sessions.Session, In) (Out, error)) {
	toolkit.AddTool(tb, name, description, func(ctx context.Context, in In) (Out, error) {
		s, err := m.Get(in.session())
		if err != nil {
			var zero Out
			return zero, err
		}
		return f(ctx, s, in)
	})
}

// Tools is the debug-session capability of a server: the session tools,
// the live-edit tools, the sessions' resources and
// get_debug_tools_status.
type Tools struct {
	m *sessions.Manager
}

// New returns the debug-session capability over m.
func New(m *sessions.Manager) *Tools { return &Tools{m: m} }

// Register implements toolkit.Capability. Register it before the other
// capabilities: the session types they share (StopInfo, SourceLine) are
// then described once for all.
func (x *Tools) Register(tb *toolkit.Toolbox) {
	registerTools(tb, x.m)
	registerResources(tb, x.m)
	registerLiveEditTools(tb, x.m)
	registerStatusTool(tb, x.m)
}

// registerTools adds the debug-session tools to tb.
func registerTools(tb *toolkit.Toolbox, m *sessions.Manager) {
	tb.ShareSchemas(reflect.TypeFor[sessions.StopInfo](), reflect.TypeFor[sessions.SourceLine]())
	toolkit.AddTool(tb, "list_supported_languages", "List every supported language: whether its debug adapter is installed, its path and version, what works (launch, attach by pid, attach by port) and the install command when missing.",
		func(ctx context.Context, _ struct{}) (languagesOut, error) {
			return languagesOut{Languages: m.Languages(ctx)}, nil
		})
	toolkit.AddTool(tb, "create_debug_session", "Create a debugging session. Launch mode unless port, processId or an adapterConfig naming a target is given; then it attaches in the same call, verifies at least one thread within verifyTimeout and pauses the target unless stopOnEntry is false. For launch, call start_debugging next.",
		func(ctx context.Context, in createIn) (sessionOut, error) {
			s, res, err := m.Create(ctx, in.request())
			if err != nil {
				return sessionOut{}, err
			}
			return sessionAnswer(ctx, s, res, true), nil
		})
	sessionTool(tb, m, "attach_to_process", "Attach an existing session to a running process (processId) or debug port (port). Pauses the target unless stopOnEntry is false.",
		func(ctx context.Context, s *sessions.Session, in attachIn) (sessionOut, error) {
			res, err := s.Attach(ctx, in.request())
			if err != nil {
				return sessionOut{}, err
			}
			return sessionAnswer(ctx, s, res, true), nil
		})
	sessionTool(tb, m, "detach_from_process", "Detach from the target. It keeps running unless terminateProcess is true.",
		func(ctx context.Context, s *sessions.Session, in detachIn) (okOut, error) {
			if err := s.Detach(ctx, in.TerminateProcess.Or(false)); err != nil {
				return okOut{}, err
			}
			return okOut{SessionID: s.ID(), Message: s.Info().Reason}, nil
		})
	sessionTool(tb, m, "start_debugging", "Launch the program under the debugger. Returns when it first stops (breakpoint, entry, exception), or is running with breakpoints verified (pending:true, then call wait_for_stop), or exits.",
		func(ctx context.Context, s *sessions.Session, in startIn) (sessionOut, error) {
			if err := checkScript(s, in.ScriptPath); err != nil {
				return sessionOut{}, err
			}
			soe := in.StopOnEntry.Or(false)
			if v, ok := in.DAPLaunchArgs["stopOnEntry"].(bool); ok {
				soe = v
			}
			res, err := s.Launch(ctx, sessions.StartRequest{ScriptPath: in.ScriptPath, Args: in.Args, Cwd: in.Cwd, Env: in.Env,
				DAPLaunchArgs: in.DAPLaunchArgs, AdapterLaunchConfig: in.AdapterLaunchConfig,
				BreakOnExceptions: in.BreakOnExceptions, StopOnEntry: soe, Wait: ms(in.WaitMs, 0)})
			if err != nil {
				return sessionOut{}, err
			}
			return sessionAnswer(ctx, s, res, in.Changed.Or(true)), nil
		})
	sessionTool(tb, m, "restart_debugging", "Relaunch the session's program with the same configuration; breakpoints are kept.",
		func(ctx context.Context, s *sessions.Session, in sessionArg) (sessionOut, error) {
			res, err := s.Restart(ctx)
			if err != nil {
				return sessionOut{}, err
			}
			return sessionAnswer(ctx, s, res, true), nil
		})
	toolkit.AddTool(tb, "close_debug_session", "Close a session: disconnect, stop the adapter and, for launched programs, kill the program's whole process group.",
		func(ctx context.Context, in sessionArg) (okOut, error) {
			if in.SessionID == "" {
				return okOut{}, toolkit.NewError(toolkit.CodeInvalidArgument, "sessionId is required", "pass the id of the session to close").WithOptions(sessionIDs(m)...)
			}
			if err := m.CloseSession(ctx, in.SessionID); err != nil {
				return okOut{}, err
			}
			return okOut{SessionID: in.SessionID, Message: "closed"}, nil
		})
	toolkit.AddTool(tb, "list_debug_sessions", "List the debug sessions with their language, state, last stop and process, and the URIs of their MCP resources (dbg://sessions/{id}/state and /output), which a client can subscribe to instead of polling wait_for_stop.",
		func(ctx context.Context, _ struct{}) (listOut, error) {
			l := m.List()
			out := listOut{Sessions: make([]listedSession, 0, len(l)), Count: len(l)}
			for _, s := range l {
				out.Sessions = append(out.Sessions, listedSession{SessionInfo: s, Resources: resourcesOf(s.ID)})
			}
			return out, nil
		})
	sessionTool(tb, m, "set_breakpoint", "Set a breakpoint at file:line (or on a function). The answer says whether the adapter verified it, the actual line if it moved, and the line's text.",
		func(ctx context.Context, s *sessions.Session, in breakpointIn) (breakpointOut, error) {
			if err := checkSource("file", in.File); err != nil {
				return breakpointOut{}, err
			}
			bp, err := s.SetBreakpoint(ctx, sessions.BreakpointSpec{File: in.File, Line: int(in.Line), Function: in.Function,
				Condition: in.Condition, HitCondition: in.HitCondition, LogMessage: in.LogMessage})
			if err != nil {
				return breakpointOut{}, err
			}
			return breakpointOut{Breakpoint: bp, SessionID: s.ID()}, nil
		})
	sessionTool(tb, m, "list_breakpoints", "List the session's breakpoints with their verification.",
		func(ctx context.Context, s *sessions.Session, in sessionArg) (breakpointsOut, error) {
			bps := s.Breakpoints()
			if bps == nil {
				bps = []sessions.Breakpoint{}
			}
			return breakpointsOut{Breakpoints: bps}, nil
		})
	sessionTool(tb, m, "remove_breakpoint", "Remove one breakpoint by id.",
		func(ctx context.Context, s *sessions.Session, in removeBPIn) (okOut, error) {
			if err := s.RemoveBreakpoint(ctx, int(in.BreakpointID)); err != nil {
				return okOut{}, err
			}
			return okOut{SessionID: s.ID(), Message: fmt.Sprintf("breakpoint %d removed", in.BreakpointID)}, nil
		})
	sessionTool(tb, m, "clear_breakpoints", "Remove every breakpoint (or those of one file).",
		func(ctx context.Context, s *sessions.Session, in clearBPIn) (okOut, error) {
			n, err := s.ClearBreakpoints(ctx, in.File)
			if err != nil {
				return okOut{}, err
			}
			return okOut{SessionID: s.ID(), Message: fmt.Sprintf("%d breakpoint(s) removed", n)}, nil
		})
	sessionTool(tb, m, "set_exception_breakpoints", "Break on exceptions: all, uncaught or none (or explicit adapter filter ids).",
		func(ctx context.Context, s *sessions.Session, in exceptionsIn) (exceptionsOut, error) {
			f, err := s.SetExceptionBreakpoints(ctx, in.BreakOnExceptions, in.Filters)
			if err != nil {
				return exceptionsOut{}, err
			}
			return exceptionsOut{Filters: f}, nil
		})
	execTool := func(name, desc string, run func(ctx context.Context, s *sessions.Session, in threadArg) (*sessions.ExecResult, error)) {
		sessionTool(tb, m, name, desc, func(ctx context.Context, s *sessions.Session, in threadArg) (sessions.ExecResult, error) {
			r, err := run(ctx, s, in)
			if err != nil {
				return sessions.ExecResult{}, err
			}
			s.AddChanges(ctx, r, in.Changed.Or(true))
			return *r, nil
		})
	}
	execTool("continue_execution", "Resume the paused program. Answers at once (pending:true); wait_for_stop reports the next stop. Pass waitMs to wait here instead.",
		func(ctx context.Context, s *sessions.Session, in threadArg) (*sessions.ExecResult, error) {
			return s.Continue(ctx, int(in.ThreadID), ms(in.WaitMs, 0))
		})
	execTool("pause_execution", "Pause the running program and answer where it stopped.",
		func(ctx context.Context, s *sessions.Session, in threadArg) (*sessions.ExecResult, error) {
			return s.Pause(ctx, int(in.ThreadID), ms(in.WaitMs, 0))
		})
	for _, st := range []struct {
		name string
		kind sessions.StepKind
		desc string
	}{
		{"step_over", sessions.StepOver, "Step to the next line in the same function and answer the new location with source context."},
		{"step_into", sessions.StepInto, "Step into the call on the current line and answer the new location with source context."},
		{"step_out", sessions.StepOut, "Run until the current function returns and answer the new location with source context."},
	} {
		kind := st.kind
		execTool(st.name, st.desc, func(ctx context.Context, s *sessions.Session, in threadArg) (*sessions.ExecResult, error) {
			return s.Step(ctx, kind, int(in.ThreadID), ms(in.WaitMs, 0))
		})
	}
	sessionTool(tb, m, "run_to_line", "Run until file:line is reached (a temporary breakpoint), or another stop comes first.",
		func(ctx context.Context, s *sessions.Session, in runToLineIn) (sessions.ExecResult, error) {
			if err := checkSource("file", in.File); err != nil {
				return sessions.ExecResult{}, err
			}
			r, err := s.RunToLine(ctx, in.File, int(in.Line), int(in.ThreadID), ms(in.WaitMs, 0))
			if err != nil {
				return sessions.ExecResult{}, err
			}
			s.AddChanges(ctx, r, in.Changed.Or(true))
			return *r, nil
		})
	sessionTool(tb, m, "wait_for_stop", "Block until the program stops (breakpoint, step, exception) or exits, up to timeoutMs. Returns the stop reason, location with source context, and exception text.",
		func(ctx context.Context, s *sessions.Session, in waitIn) (sessions.ExecResult, error) {
			r, err := s.WaitForStop(ctx, ms(in.TimeoutMs, 30*time.Second))
			if err != nil {
				return sessions.ExecResult{}, err
			}
			s.AddChanges(ctx, r, in.Changed.Or(true))
			return *r, nil
		})
	sessionTool(tb, m, "list_threads", "List the program's threads.",
		func(ctx context.Context, s *sessions.Session, in sessionArg) (threadsOut, error) {
			t, err := s.Threads(ctx)
			return threadsOut{Threads: t}, err
		})
	sessionTool(tb, m, "get_stack_trace", "Get the stack of the stopped thread (or threadId): frame ids, functions, files, lines and line text.",
		func(ctx context.Context, s *sessions.Session, in stackIn) (stackOut, error) {
			frames, total, err := s.StackTrace(ctx, int(in.ThreadID), int(in.StartFrame), int(in.Levels))
			if err != nil {
				return stackOut{}, err
			}
			if !in.IncludeInternals.Or(false) {
				kept := frames[:0]
				for _, f := range frames {
					if f.File != "" || len(kept) == 0 {
						kept = append(kept, f)
					}
				}
				frames = kept
			}
			return stackOut{StackFrames: frames, TotalFrames: total}, nil
		})
	sessionTool(tb, m, "get_scopes", "Get the scopes (locals, globals...) of a frame, with the variablesReference to pass to get_variables.",
		func(ctx context.Context, s *sessions.Session, in scopesIn) (scopesOut, error) {
			sc, err := s.Scopes(ctx, int(in.FrameID))
			return scopesOut{Scopes: sc}, err
		})
	sessionTool(tb, m, "get_variables", "Get the variables of a scope or the children of a variable (scope = variablesReference). Capped, with a truncation note.",
		func(ctx context.Context, s *sessions.Session, in variablesIn) (variablesOut, error) {
			ref := in.Scope
			if ref == 0 {
				ref = in.VariablesReference
			}
			v, tr, err := s.Variables(ctx, int(ref), int(in.Start), int(in.Limit))
			return variablesOut{Variables: v, Truncation: tr}, err
		})
	sessionTool(tb, m, "get_local_variables", "Get the local variables of the top frame (or frameId) in one call.",
		func(ctx context.Context, s *sessions.Session, in localsIn) (localsOut, error) {
			v, tr, sc, err := s.LocalVariables(ctx, int(in.FrameID), in.Names)
			if err != nil {
				return localsOut{}, err
			}
			if !in.IncludeSpecial.Or(false) {
				v = dropSpecial(v)
			}
			out := localsOut{Variables: v, Scope: sc.Name, Truncation: tr}
			if ls := s.Info().LastStop; ls != nil {
				out.Location = ls.Location
			}
			return out, nil
		})
	sessionTool(tb, m, "evaluate_expression", "Evaluate an expression in the stopped program (top frame or frameId). sideEffects: false refuses what would change the program (calls, assignments).",
		func(ctx context.Context, s *sessions.Session, in evaluateIn) (sessions.EvalResult, error) {
			r, err := evaluate(ctx, m, s, in)
			if err != nil {
				return sessions.EvalResult{}, err
			}
			return *r, nil
		})
	sessionTool(tb, m, "set_variable", "Change a variable's value in the stopped program.",
		func(ctx context.Context, s *sessions.Session, in setVariableIn) (sessions.EvalResult, error) {
			ref := in.VariablesReference
			if ref == 0 {
				ref = in.Scope
			}
			r, err := s.SetVariable(ctx, int(ref), in.Name, in.Value, int(in.FrameID))
			if err != nil {
				return sessions.EvalResult{}, err
			}
			return *r, nil
		})
	toolkit.AddTool(tb, "get_source_context", "Read source lines around a line (default: where the session stopped).",
		func(ctx context.Context, in sourceIn) (sourceOut, error) {
			file, line := in.File, int(in.Line)
			var s *sessions.Session
			if in.SessionID != "" || file == "" || line == 0 {
				// A session named is a session that exists, even when
				// file and line make it unneeded.
				var err error
				if s, err = m.Get(in.SessionID); err != nil {
					return sourceOut{}, err
				}
			}
			if file == "" || line == 0 {
				ls := s.Info().LastStop
				if ls == nil || ls.Location == nil {
					return sourceOut{}, toolkit.NewError(toolkit.CodeInvalidArgument, "file and line are required (the session has not stopped)", "pass file and line")
				}
				if file == "" {
					file = ls.Location.File
				}
				if line == 0 {
					line = ls.Location.Line
				}
			}
			if err := toolkit.CheckReadable("file", file, toolkit.MaxSourceBytes, false); err != nil {
				return sourceOut{}, err
			}
			ctxLines := int(in.LinesContext)
			if ctxLines == 0 {
				ctxLines = 5
			}
			lines, total := sessions.SourceContext(file, line, ctxLines)
			if line < 1 || line > total {
				return sourceOut{}, toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("line %d is outside %s (%d lines)", line, file, total), "pick a line between 1 and "+fmt.Sprint(total))
			}
			return sourceOut{File: file, Line: line, TotalLines: total, Lines: lines}, nil
		})
	sessionTool(tb, m, "get_output", "Read the program's captured stdout/stderr and adapter output (bounded ring buffer). Pass since=nextSince to read only new lines.",
		func(ctx context.Context, s *sessions.Session, in outputIn) (outputOut, error) {
			limit := int(in.Limit)
			if limit <= 0 {
				limit = 200
			}
			lines, dropped, next := s.Output().Since(int64(in.Since), 0, in.Category)
			out := outputOut{NextSince: next, Dropped: dropped}
			if len(lines) > limit {
				out.Truncation = &sessions.Truncation{Note: fmt.Sprintf("showing the newest %d of %d lines; pass since or a larger limit", limit, len(lines)), Returned: limit, Total: len(lines)}
				lines = lines[len(lines)-limit:]
			}
			out.Lines = lines
			if out.Lines == nil {
				out.Lines = []toolkit.OutputLine{}
			}
			text := make([]byte, 0, 256)
			for _, l := range lines {
				text = append(text, l.Text...)
				text = append(text, '\n')
			}
			const maxText = 64 << 10
			if len(text) > maxText {
				text = text[len(text)-maxText:]
				if out.Truncation == nil {
					out.Truncation = &sessions.Truncation{Note: "text cut to the last 64 KiB"}
				}
			}
			out.Text = string(text)
			return out, nil
		})
	registerObserveTools(tb, m)
}

func (in createIn) request() sessions.CreateRequest {
	return sessions.CreateRequest{Language: in.Language, Name: in.Name, ExecutablePath: in.ExecutablePath, Host: in.Host,
		Port: int(in.Port), ProcessID: int(in.ProcessID), Timeout: ms(in.Timeout, 0), VerifyTimeout: ms(in.VerifyTimeout, 0),
		StopOnEntry: in.StopOnEntry.Ptr(), JustMyCode: in.JustMyCode.Ptr(), SourcePaths: in.SourcePaths,
		BreakOnExceptions: in.BreakOnExceptions, AdapterConfig: in.AdapterConfig, Via: in.Via, PathMappings: in.PathMappings}
}

// sessionAnswer is the answer of a launch or attach; want says whether a
// stop it reached reads its locals for changed (a first stop: null).
func sessionAnswer(ctx context.Context, s *sessions.Session, res *sessions.StartResult, want bool) sessionOut {
	info := s.Info()
	out := sessionOut{SessionID: info.ID, Name: info.Name, Language: info.Language, State: info.State, Mode: info.Mode,
		Interpreter: info.Interpreter, Resources: new(resourcesOf(info.ID))}
	if res != nil {
		out.Remote, out.Warnings = s.Remote(), s.Warnings()
		out.Pending, out.Message = res.Pending, res.Message
		if res.State != "" {
			out.State = res.State
		}
	} else if info.State == sessions.StateCreated {
		out.Message = "created; call start_debugging with scriptPath to launch, or attach_to_process"
	}
	if out.State == sessions.StatePaused {
		// Only the stop the session is paused at: an older one is history.
		// A dispatcher's launch (js-debug) answers its child's stop.
		stop, own := info.LastStop, info.State == sessions.StatePaused
		if res != nil && res.LastStop != nil && !own {
			stop = res.LastStop
		}
		out.LastStop = stop
		if stop != nil {
			if l := stop.Location; l != nil && l.File != "" {
				out.Source, _ = s.SourceContext(l.File, l.Line, 3)
			}
		}
		if stop != nil && own {
			r := &sessions.ExecResult{State: out.State, LastStop: out.LastStop}
			s.AddChanges(ctx, r, want)
			out.Changed, out.ChangedNote = r.Changed, r.ChangedNote
		}
	}
	return out
}

// checkScript refuses a scriptPath that is a device, pipe, socket or
// kernel file, and one over the limit the adapter declares for the
// programs it reads whole (the mock's). A path that does not exist is
// left to the adapter (a module or package name).
func checkScript(s *sessions.Session, path string) error {
	if path == "" {
		return nil
	}
	if _, err := os.Stat(path); err != nil {
		return nil
	}
	return toolkit.CheckReadable("scriptPath", path, s.Traits().MaxProgramBytes, true)
}

// checkSource refuses a source file argument that cannot be a source
// file: a device, pipe, socket or kernel file. Missing files are left to
// the tool, which says so in its own words.
func checkSource(arg, path string) error {
	if path == "" {
		return nil
	}
	if _, err := os.Stat(path); err != nil {
		return nil
	}
	return toolkit.CheckReadable(arg, path, 0, false)
}

func sessionIDs(m *sessions.Manager) []string {
	var ids []string
	for _, s := range m.List() {
		ids = append(ids, s.ID)
	}
	return ids
}

// dropSpecial hides dunder names and adapter pseudo-variables.
func dropSpecial(vs []sessions.Variable) []sessions.Variable {
	out := vs[:0]
	for _, v := range vs {
		if sessions.IsSpecialLocal(v.Name) {
			continue
		}
		out = append(out, v)
	}
	return out
}
