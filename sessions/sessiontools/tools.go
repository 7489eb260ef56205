package sessiontools

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"slices"
	"time"

	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
	"github.com/dbg-dev/dbg/toolkit/redact"
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

// named reports whether a compact answer may leave out the session's id:
// the agent named it in full.
func named(tb *toolkit.Toolbox, in interface{ session() string }, s *sessions.Session) bool {
	return tb.Compact() && in.session() == s.ID()
}

// sessionTool adds a tool that acts on the session its input names.
func sessionTool[In interface{ session() string }, Out any](tb *toolkit.Toolbox, m *sessions.Manager, name, description string, f func(context.Context, *sessions.Session, In) (Out, error), opts ...toolkit.ToolOption) {
	toolkit.AddTool(tb, name, description, func(ctx context.Context, in In) (Out, error) {
		s, err := m.GetFor(ctx, in.session())
		if err != nil {
			var zero Out
			return zero, err
		}
		return f(ctx, s, in)
	}, opts...)
}

// Tools is the debug-session capability of a server: the session tools,
// the live-edit tools, the sessions' resources, get_debug_tools_status
// and the sessions' prompts.
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
	registerPrompts(tb)
}

// registerTools adds the debug-session tools to tb.
func registerTools(tb *toolkit.Toolbox, m *sessions.Manager) {
	breakOn := toolkit.Enum("breakOnExceptions", "uncaught", "all", "none")
	tb.ShareSchemas(reflect.TypeFor[sessions.StopInfo](), reflect.TypeFor[sessions.SourceLine]())
	declareToolsets(tb)
	toolkit.AddTool(tb, "list_supported_languages", "Languages: adapter found, path, version, launch and attach support, install command.",
		func(ctx context.Context, _ struct{}) (languagesOut, error) {
			return languagesOut{Languages: m.Languages(ctx)}, nil
		}, toolkit.Hints{Title: "Supported languages", ReadOnly: true}, toolkit.InToolset(MoreToolset))
	toolkit.AddTool(tb, "create_debug_session", "New session; attaches when port, processId or adapterConfig names a target, else start_debugging next.",
		func(ctx context.Context, in createSessionIn) (sessionOut, error) {
			req := in.request()
			req.ChildProcesses, req.CoreFile, req.Program = in.ChildProcesses.Ptr(), in.CoreFile, in.Program
			s, res, err := m.Create(ctx, req)
			if err != nil {
				return sessionOut{}, err
			}
			return sessionAnswer(ctx, tb, s, res, sessions.WantChanged, true, false), nil
		}, toolkit.Hints{Title: "Create debug session"}, toolkit.LinkResources(), breakOn)
	sessionTool(tb, m, "attach_to_process", "Attach a created session to processId or port; pauses unless stopOnEntry is false.",
		func(ctx context.Context, s *sessions.Session, in attachIn) (sessionOut, error) {
			res, err := s.Attach(ctx, in.request())
			if err != nil {
				return sessionOut{}, err
			}
			return sessionAnswer(ctx, tb, s, res, sessions.WantChanged, false, in.session() == s.ID()), nil
		}, toolkit.Hints{Title: "Attach to process"}, toolkit.LinkResources(), breakOn, toolkit.InToolset(sessions.RemoteToolset().Name))
	sessionTool(tb, m, "detach_from_process", "Detach; the target keeps running unless terminateProcess.",
		func(ctx context.Context, s *sessions.Session, in detachIn) (okOut, error) {
			if in.TerminateProcess.Or(false) && observing(tb) {
				return okOut{}, toolkit.ProfileRefusal(toolkit.ProfileObserve, "terminateProcess: true")
			}
			if err := s.Detach(ctx, in.TerminateProcess.Or(false)); err != nil {
				return okOut{}, err
			}
			return okOut{SessionID: s.ID(), Message: s.Info().Reason, compact: named(tb, in, s)}, nil
		}, toolkit.Hints{Title: "Detach", Destructive: true}, toolkit.DestructiveWhen(terminates))
	sessionTool(tb, m, "start_debugging", "Launch; answers the first stop, or pending:true (then wait_for_stop), or the exit.",
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
			return sessionAnswer(ctx, tb, s, res, in.want(), false, in.session() == s.ID()), nil
		}, toolkit.Hints{Title: "Start debugging"}, breakOn)
	sessionTool(tb, m, "restart_debugging", "Relaunch with the same configuration and breakpoints.",
		func(ctx context.Context, s *sessions.Session, in sessionArg) (sessionOut, error) {
			res, err := s.Restart(ctx)
			if err != nil {
				return sessionOut{}, err
			}
			return sessionAnswer(ctx, tb, s, res, sessions.WantChanged, false, in.session() == s.ID()), nil
		}, toolkit.Hints{Title: "Restart program", Destructive: true})
	toolkit.AddTool(tb, "close_debug_session", "End a session; kills a launched program's process group.",
		func(ctx context.Context, in sessionArg) (okOut, error) {
			if in.SessionID == "" {
				return okOut{}, toolkit.NewError(toolkit.CodeInvalidArgument, "sessionId is required", "pass the id of the session to close").WithOptions(sessionIDs(m)...)
			}
			if err := m.CloseSession(ctx, in.SessionID); err != nil {
				return okOut{}, err
			}
			return okOut{SessionID: in.SessionID, Message: "closed", compact: tb.Compact()}, nil
		}, toolkit.Hints{Title: "Close session", Destructive: true, Idempotent: true}, toolkit.DestructiveWhen(launched(m)))
	toolkit.AddTool(tb, "list_debug_sessions", "Your sessions (all: everyone's): language, state, last stop, pid, parent, groups.",
		func(ctx context.Context, in listIn) (listOut, error) {
			l := m.ListFor(ctx, in.All.Or(false))
			out := listOut{Sessions: make([]listedSession, 0, len(l)), Count: len(l), Groups: groupsOf(m.Groups(), l)}
			for _, s := range l {
				out.Sessions = append(out.Sessions, listedSession{SessionInfo: s, Resources: resourcesOf(s.ID)})
			}
			return out, nil
		}, toolkit.Hints{Title: "List sessions", ReadOnly: true})
	sessionTool(tb, m, "set_breakpoint", "Break at file:line or a function; answers verified and the actual line.",
		func(ctx context.Context, s *sessions.Session, in breakpointIn) (breakpointOut, error) {
			if err := checkSource(m, s, "file", in.File); err != nil {
				return breakpointOut{}, err
			}
			bp, err := s.SetBreakpoint(ctx, sessions.BreakpointSpec{File: in.File, Line: int(in.Line), Function: in.Function,
				Condition: in.Condition, HitCondition: in.HitCondition, LogMessage: in.LogMessage})
			if err != nil {
				return breakpointOut{}, err
			}
			return breakpointOut{Breakpoint: bp, SessionID: s.ID(), compact: named(tb, in, s)}, nil
		}, toolkit.Hints{Title: "Set breakpoint"})
	sessionTool(tb, m, "list_breakpoints", "The session's breakpoints.",
		func(ctx context.Context, s *sessions.Session, in sessionArg) (breakpointsOut, error) {
			bps := s.Breakpoints()
			if bps == nil {
				bps = []sessions.Breakpoint{}
			}
			return breakpointsOut{Breakpoints: bps}, nil
		}, toolkit.Hints{Title: "List breakpoints", ReadOnly: true})
	sessionTool(tb, m, "remove_breakpoint", "Remove a breakpoint by id.",
		func(ctx context.Context, s *sessions.Session, in removeBPIn) (okOut, error) {
			if err := s.RemoveBreakpoint(ctx, int(in.BreakpointID)); err != nil {
				return okOut{}, err
			}
			return okOut{SessionID: s.ID(), Message: fmt.Sprintf("breakpoint %d removed", in.BreakpointID), compact: named(tb, in, s)}, nil
		}, toolkit.Hints{Title: "Remove breakpoint", Idempotent: true})
	sessionTool(tb, m, "clear_breakpoints", "Remove all breakpoints, or a file's.",
		func(ctx context.Context, s *sessions.Session, in clearBPIn) (okOut, error) {
			n, err := s.ClearBreakpoints(ctx, in.File)
			if err != nil {
				return okOut{}, err
			}
			return okOut{SessionID: s.ID(), Message: fmt.Sprintf("%d breakpoint(s) removed", n), compact: named(tb, in, s)}, nil
		}, toolkit.Hints{Title: "Clear breakpoints", Idempotent: true}, toolkit.InToolset(MoreToolset))
	sessionTool(tb, m, "set_exception_breakpoints", "Break on exceptions: all, uncaught, none, or adapter filters.",
		func(ctx context.Context, s *sessions.Session, in exceptionsIn) (exceptionsOut, error) {
			f, err := s.SetExceptionBreakpoints(ctx, in.BreakOnExceptions, in.Filters)
			if err != nil {
				return exceptionsOut{}, err
			}
			return exceptionsOut{Filters: f}, nil
		}, toolkit.Hints{Title: "Exception breakpoints", Idempotent: true}, breakOn, toolkit.InToolset(MoreToolset))
	execTool := func(name, desc string, hints toolkit.Hints, run func(ctx context.Context, s *sessions.Session, in threadArg) (*sessions.Stop, error)) {
		sessionTool(tb, m, name, desc, func(ctx context.Context, s *sessions.Session, in threadArg) (stopOut, error) {
			r, err := run(ctx, s, in)
			if err != nil {
				return stopOut{}, err
			}
			return newStopOut(r, tb.Compact()), nil
		}, hints)
	}
	allTool := func(name, desc string, hints toolkit.Hints, run func(ctx context.Context, s *sessions.Session, in threadArg) (*sessions.Stop, error), each func(context.Context, *sessions.Session) (*sessions.Stop, error)) {
		toolkit.AddTool(tb, name, desc, func(ctx context.Context, in allIn) (allOut, error) {
			compact := tb.Compact()
			if in.All.Or(false) {
				out := allOut{Sessions: []stopOut{}}
				for _, r := range m.ForAll(ctx, each) {
					out.Sessions = append(out.Sessions, newStopOut(&r, compact))
				}
				return out, nil
			}
			s, err := m.GetFor(ctx, in.SessionID)
			if err != nil {
				return allOut{}, err
			}
			r, err := run(ctx, s, in.threadArg)
			if err != nil {
				return allOut{}, err
			}
			o := newStopOut(r, compact)
			return allOut{stopOut: &o}, nil
		}, hints)
	}
	allTool("continue_execution", "Resume (all: every session); answers pending:true (then wait_for_stop) unless waitMs.",
		toolkit.Hints{Title: "Continue"},
		func(ctx context.Context, s *sessions.Session, in threadArg) (*sessions.Stop, error) {
			return s.Continue(ctx, int(in.ThreadID), ms(in.WaitMs, 0), in.want())
		}, func(ctx context.Context, s *sessions.Session) (*sessions.Stop, error) {
			return s.Continue(ctx, 0, 0, sessions.WantStop)
		})
	allTool("pause_execution", "Pause (all: every session); answers where it stopped.",
		toolkit.Hints{Title: "Pause"},
		func(ctx context.Context, s *sessions.Session, in threadArg) (*sessions.Stop, error) {
			return s.Pause(ctx, int(in.ThreadID), ms(in.WaitMs, 0), in.want())
		}, func(ctx context.Context, s *sessions.Session) (*sessions.Stop, error) {
			return s.Pause(ctx, 0, 0, sessions.WantStop)
		})
	for _, st := range []struct {
		name string
		kind sessions.StepKind
		desc string
		hint toolkit.Hints
	}{
		{"step_over", sessions.StepOver, "Step over.", toolkit.Hints{Title: "Step over"}},
		{"step_into", sessions.StepInto, "Step into the call.", toolkit.Hints{Title: "Step into"}},
		{"step_out", sessions.StepOut, "Step out of the function.", toolkit.Hints{Title: "Step out"}},
	} {
		kind := st.kind
		execTool(st.name, st.desc, st.hint, func(ctx context.Context, s *sessions.Session, in threadArg) (*sessions.Stop, error) {
			return s.Step(ctx, kind, int(in.ThreadID), ms(in.WaitMs, 0), in.want())
		})
	}
	sessionTool(tb, m, "run_to_line", "Run to file:line, or an earlier stop.",
		func(ctx context.Context, s *sessions.Session, in runToLineIn) (stopOut, error) {
			if err := checkSource(m, s, "file", in.File); err != nil {
				return stopOut{}, err
			}
			r, err := s.RunToLine(ctx, in.File, int(in.Line), int(in.ThreadID), ms(in.WaitMs, 0), in.want())
			if err != nil {
				return stopOut{}, err
			}
			return newStopOut(r, tb.Compact()), nil
		}, toolkit.Hints{Title: "Run to line"}, toolkit.InToolset(MoreToolset))
	toolkit.AddTool(tb, "wait_for_stop", "Wait for the next stop or exit, child sessions' too (sessionIds or all: several).",
		func(ctx context.Context, in waitIn) (stopOut, error) {
			ids := in.SessionIDs
			if in.SessionID != "" {
				ids = append([]string{in.SessionID}, ids...)
			}
			_, r, err := m.Wait(ctx, sessions.WaitRequest{SessionIDs: ids, All: in.All.Or(false), Timeout: ms(in.TimeoutMs, 30*time.Second), Want: in.want()})
			if err != nil {
				return stopOut{}, err
			}
			return newStopOut(r, tb.Compact()), nil
		}, toolkit.Hints{Title: "Wait for stop", ReadOnly: true})
	sessionTool(tb, m, "list_threads", "The program's threads.",
		func(ctx context.Context, s *sessions.Session, in sessionArg) (threadsOut, error) {
			t, err := s.Threads(ctx)
			return threadsOut{Threads: t}, err
		}, toolkit.Hints{Title: "List threads", ReadOnly: true}, toolkit.InToolset(MoreToolset))
	sessionTool(tb, m, "get_stack_trace", "Stack of the stopped thread: frame ids, functions, files, lines.",
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
			return stackOut{StackFrames: frames, TotalFrames: total, compact: tb.Compact()}, nil
		}, toolkit.Hints{Title: "Stack trace", ReadOnly: true})
	sessionTool(tb, m, "get_scopes", "A frame's scopes and their variablesReference.",
		func(ctx context.Context, s *sessions.Session, in scopesIn) (scopesOut, error) {
			sc, err := s.Scopes(ctx, int(in.FrameID))
			return scopesOut{Scopes: sc}, err
		}, toolkit.Hints{Title: "Scopes", ReadOnly: true}, toolkit.InToolset(MoreToolset))
	sessionTool(tb, m, "get_variables", "Variables of a scope, or a variable's children; capped.",
		func(ctx context.Context, s *sessions.Session, in variablesIn) (variablesOut, error) {
			ref := in.Scope
			if ref == 0 {
				ref = in.VariablesReference
			}
			v, tr, err := s.Variables(ctx, int(ref), int(in.Start), int(in.Limit))
			if !in.IncludeSpecial.Or(false) {
				v = slices.DeleteFunc(v, func(v sessions.Variable) bool { return sessions.IsGroup(v.Name) })
			}
			return variablesOut{Variables: v, Truncation: tr, compact: tb.Compact()}, err
		}, toolkit.Hints{Title: "Variables", ReadOnly: true}, toolkit.ListReveal())
	sessionTool(tb, m, "get_local_variables", "Locals of the top frame (or frameId).",
		func(ctx context.Context, s *sessions.Session, in localsIn) (localsOut, error) {
			v, tr, sc, err := s.Locals(ctx, int(in.FrameID), in.Names, in.IncludeSpecial.Or(false))
			if err != nil {
				return localsOut{}, err
			}
			out := localsOut{Variables: v, Scope: sc.Name, Truncation: tr, Location: s.FrameLocation(int(in.FrameID)), compact: tb.Compact()}
			out.atStop = in.FrameID == 0 && out.Location != nil && s.AtStop(out.Location)
			return out, nil
		}, toolkit.Hints{Title: "Local variables", ReadOnly: true}, toolkit.ListReveal())
	sessionTool(tb, m, "evaluate_expression", "Evaluate an expression in the stopped frame (or frameId).",
		func(ctx context.Context, s *sessions.Session, in evaluateIn) (evalOut, error) {
			r, err := evaluate(ctx, tb, m, s, in)
			if err != nil {
				return evalOut{}, err
			}
			return evalOut{EvalResult: *r, compact: tb.Compact()}, nil
		}, toolkit.Hints{Title: "Evaluate expression"}, toolkit.Enum("context", "repl", "watch", "hover"), toolkit.ListReveal())
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
		}, toolkit.Hints{Title: "Set variable", Destructive: true, Alters: true}, toolkit.InToolset(LiveToolset), toolkit.ListReveal())
	toolkit.AddTool(tb, "get_source_context", "Source lines around a line (default: the stop).",
		func(ctx context.Context, in sourceIn) (sourceOut, error) {
			file, line := in.File, int(in.Line)
			var s *sessions.Session
			if in.SessionID != "" || file == "" || line == 0 {
				// A session named is a session that exists, even when
				// file and line make it unneeded.
				var err error
				if s, err = m.GetFor(ctx, in.SessionID); err != nil {
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
			if err := m.CheckPath(s, "file", file); err != nil {
				return sourceOut{}, err
			}
			if err := toolkit.CheckReadable("file", file, toolkit.MaxSourceBytes, false); err != nil {
				return sourceOut{}, err
			}
			ctxLines := int(in.LinesContext)
			if ctxLines == 0 {
				ctxLines = 5
			}
			lines, total := sessions.SourceContext(file, line, ctxLines)
			if redact.EnvFile(file) && !tb.RevealsSecrets() {
				// Environment values are credentials as often as not.
				for i := range lines {
					lines[i].Text, _ = redact.String(lines[i].Text)
				}
			}
			if line < 1 || line > total {
				return sourceOut{}, toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("line %d is outside %s (%d lines)", line, file, total), "pick a line between 1 and "+fmt.Sprint(total))
			}
			markStop(m, s, file, lines)
			return sourceOut{File: file, Line: line, TotalLines: total, Lines: lines}, nil
		}, toolkit.Hints{Title: "Source context", ReadOnly: true})
	sessionTool(tb, m, "get_output", "The program's output; since=nextSince reads newer lines.",
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
			if in.Lines.Or(false) {
				out.Lines = lines
				if out.Lines == nil {
					out.Lines = []toolkit.OutputLine{}
				}
				return out, nil
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
		}, toolkit.Hints{Title: "Program output", ReadOnly: true})
	registerObserveTools(tb, m)
}

func (in createIn) request() sessions.CreateRequest {
	return sessions.CreateRequest{Language: in.Language, Name: in.Name, ExecutablePath: in.ExecutablePath, Host: in.Host,
		Port: int(in.Port), ProcessID: int(in.ProcessID), Timeout: ms(in.Timeout, 0), VerifyTimeout: ms(in.VerifyTimeout, 0),
		StopOnEntry: in.StopOnEntry.Ptr(), JustMyCode: in.JustMyCode.Ptr(), SourcePaths: in.SourcePaths,
		BreakOnExceptions: in.BreakOnExceptions, AdapterConfig: in.AdapterConfig, Via: in.Via, PathMappings: in.PathMappings}
}

// sessionAnswer is the answer of a create, launch or attach; want says
// what a stop it reached reads. created says the answer is the session's
// first (create_debug_session's): compact answers name the language and
// resources there only, and the interpreter in the first answer that has
// it; named says the agent named the session in full.
func sessionAnswer(ctx context.Context, tb *toolkit.Toolbox, s *sessions.Session, res *sessions.StartResult, want sessions.Want, created, named bool) sessionOut {
	info := s.Info()
	compact := tb.Compact()
	out := sessionOut{SessionID: info.ID, Name: info.Name, Language: info.Language, State: info.State, Mode: info.Mode,
		Interpreter: info.Interpreter, Resources: new(resourcesOf(info.ID)), compact: compact, created: created, named: named}
	if compact {
		if !created {
			out.Language, out.Resources = "", nil
		}
		if out.Interpreter != nil && s.Told("interpreter") {
			out.Interpreter = nil
		}
	}
	if res != nil {
		out.Remote, out.Warnings = s.Remote(), s.Warnings()
		out.Pending, out.Message = res.Pending, res.Message
		if res.State != "" {
			out.State = res.State
		}
	} else if info.State == sessions.StateCreated {
		out.Message = "created; call start_debugging with scriptPath to launch it"
	}
	if !out.State.Stopped() {
		return out
	}
	// Only the stop the session is paused at: an older one is history.
	// A dispatcher's launch (js-debug) answers its child's stop.
	if res != nil && res.LastStop != nil && !info.State.Stopped() {
		out.LastStop = res.LastStop
		if l := res.LastStop.Location; l != nil && l.File != "" {
			out.Source, _ = s.SourceContext(l.File, l.Line, 3)
		}
		return out
	}
	if info.LastStop != nil {
		r := s.StopAnswer(ctx, want)
		out.LastStop, out.Source, out.Changed, out.ChangedNote = r.LastStop, r.Source, r.Changed, r.ChangedNote
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
func checkSource(m *sessions.Manager, s *sessions.Session, arg, path string) error {
	if path == "" {
		return nil
	}
	if err := m.CheckPath(s, arg, path); err != nil {
		return err
	}
	if _, err := os.Stat(path); err != nil {
		return nil
	}
	return toolkit.CheckReadable(arg, path, 0, false)
}

// markStop marks current, among lines of file, the line the session (s,
// or else the only one) is stopped at, and no other: the line asked for
// is the excerpt's center, not where the program is.
func markStop(m *sessions.Manager, s *sessions.Session, file string, lines []sessions.SourceLine) {
	if s == nil {
		if all := m.List(); len(all) == 1 {
			s, _ = m.Get(all[0].ID)
		}
	}
	stop := 0
	if s != nil {
		if info := s.Info(); info.State == sessions.StatePaused && info.LastStop != nil && info.LastStop.Location != nil && sameFile(info.LastStop.Location.File, file) {
			stop = info.LastStop.Location.Line
		}
	}
	for i := range lines {
		lines[i].Current = lines[i].Line == stop
	}
}

// sameFile reports whether two paths name one file.
func sameFile(a, b string) bool {
	if a == b {
		return true
	}
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

func sessionIDs(m *sessions.Manager) []string {
	var ids []string
	for _, s := range m.List() {
		ids = append(ids, s.ID)
	}
	return ids
}
