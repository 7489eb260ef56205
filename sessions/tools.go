package sessions

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/sessions/toolkit"
)

// Tool inputs and outputs of the debug-session tools. Names follow
// mcp-debugger's, so prompts written for it work unchanged.

// SessionRef names the session a tool acts on; input types embed it.
type SessionRef struct {
	SessionID string `json:"sessionId" jsonschema:"the session id from create_debug_session (optional when only one session exists)"`
}

func (r SessionRef) session() string { return r.SessionID }

type sessionArg = SessionRef

type threadArg struct {
	SessionRef
	ThreadID Int `json:"threadId,omitempty" jsonschema:"thread to act on (default: the stopped thread)"`
	WaitMs   Int `json:"waitMs,omitempty" jsonschema:"how long to wait for the new location before answering pending:true (default 3000)"`
}

type createIn struct {
	Language          string         `json:"language" jsonschema:"programming language: mock, go, python, javascript, typescript, java, c, cpp, rust, ruby, cobol, dotnet, dart"`
	Name              string         `json:"name,omitempty" jsonschema:"optional session name"`
	ExecutablePath    string         `json:"executablePath,omitempty" jsonschema:"path to the language runtime (python, node, java), auto-detected when omitted"`
	Host              string         `json:"host,omitempty" jsonschema:"attach mode only: host to attach to (default 127.0.0.1); does not trigger attach by itself"`
	Port              Int            `json:"port,omitempty" jsonschema:"debug port to attach to (triggers attach mode)"`
	ProcessID         Int            `json:"processId,omitempty" jsonschema:"process id to attach to (triggers attach mode)"`
	Timeout           Int            `json:"timeout,omitempty" jsonschema:"attach mode only: connection timeout in ms, forwarded to the adapter"`
	VerifyTimeout     Int            `json:"verifyTimeout,omitempty" jsonschema:"attach mode only: ms to wait for at least one thread after attaching (default 20000, max 600000)"`
	StopOnEntry       Bool           `json:"stopOnEntry,omitempty" jsonschema:"attach mode only: pause the target after attaching (default true); false attaches to a live service without stopping it"`
	JustMyCode        Bool           `json:"justMyCode,omitempty" jsonschema:"only debug user code (skip library code)"`
	SourcePaths       []string       `json:"sourcePaths,omitempty" jsonschema:"source paths for code mapping (remote=local pairs where the adapter maps paths)"`
	BreakOnExceptions string         `json:"breakOnExceptions,omitempty" jsonschema:"attach mode: uncaught, all or none (default none)"`
	AdapterConfig     map[string]any `json:"adapterConfig,omitempty" jsonschema:"adapter-specific attach configuration merged into the attach request"`
}

type sessionOut struct {
	SessionID string       `json:"sessionId"`
	Name      string       `json:"name"`
	Language  string       `json:"language"`
	State     State        `json:"state"`
	Mode      string       `json:"mode,omitempty"`
	Pending   bool         `json:"pending,omitempty"`
	LastStop  *StopInfo    `json:"lastStop,omitempty"`
	Message   string       `json:"message,omitempty"`
	Source    []SourceLine `json:"source,omitempty"`
}

type startIn struct {
	SessionRef
	ScriptPath          string            `json:"scriptPath" jsonschema:"the program to debug: a source file, package directory, binary, jar or class"`
	Args                []string          `json:"args,omitempty" jsonschema:"program arguments"`
	Cwd                 string            `json:"cwd,omitempty" jsonschema:"working directory (default: the program's directory)"`
	Env                 map[string]string `json:"env,omitempty" jsonschema:"extra environment variables"`
	DAPLaunchArgs       map[string]any    `json:"dapLaunchArgs,omitempty" jsonschema:"extra launch arguments for the adapter (stopOnEntry, justMyCode, ...)"`
	AdapterLaunchConfig map[string]any    `json:"adapterLaunchConfig,omitempty" jsonschema:"adapter-specific launch configuration merged into the launch request"`
	BreakOnExceptions   string            `json:"breakOnExceptions,omitempty" jsonschema:"uncaught (default), all or none"`
	StopOnEntry         Bool              `json:"stopOnEntry,omitempty" jsonschema:"stop at the program's first line"`
	WaitMs              Int               `json:"waitMs,omitempty" jsonschema:"how long to wait for the first stop before answering pending:true"`
}

type attachIn struct {
	createIn
	SessionRef
}

type detachIn struct {
	SessionRef
	TerminateProcess Bool `json:"terminateProcess,omitempty" jsonschema:"also terminate the target (default false: it keeps running)"`
}

type okOut struct {
	SessionID string `json:"sessionId,omitempty"`
	Message   string `json:"message"`
}

type listOut struct {
	Sessions []SessionInfo `json:"sessions"`
	Count    int           `json:"count"`
}

type languagesOut struct {
	Languages []adapters.Info `json:"languages"`
}

type breakpointIn struct {
	SessionRef
	File         string `json:"file,omitempty" jsonschema:"source file (absolute or relative to the server's working directory)"`
	Line         Int    `json:"line,omitempty" jsonschema:"1-based line"`
	Condition    string `json:"condition,omitempty" jsonschema:"stop only when this expression is true"`
	HitCondition string `json:"hitCondition,omitempty" jsonschema:"stop on these hits, e.g. 3 or >=3"`
	LogMessage   string `json:"logMessage,omitempty" jsonschema:"log this message ({expr} interpolated) instead of stopping"`
	Function     string `json:"function,omitempty" jsonschema:"function name, for a function breakpoint instead of file/line"`
}

type breakpointOut struct {
	Breakpoint
	SessionID string `json:"sessionId"`
}

type breakpointsOut struct {
	Breakpoints []Breakpoint `json:"breakpoints"`
}

type removeBPIn struct {
	SessionRef
	BreakpointID Int `json:"breakpointId" jsonschema:"id from set_breakpoint or list_breakpoints"`
}

type clearBPIn struct {
	SessionRef
	File string `json:"file,omitempty" jsonschema:"only this file's breakpoints (default: all)"`
}

type exceptionsIn struct {
	SessionRef
	BreakOnExceptions string   `json:"breakOnExceptions,omitempty" jsonschema:"all, uncaught or none"`
	Filters           []string `json:"filters,omitempty" jsonschema:"explicit adapter filter ids (instead of breakOnExceptions)"`
}

type exceptionsOut struct {
	Filters []string `json:"filters"`
}

type runToLineIn struct {
	SessionRef
	File     string `json:"file" jsonschema:"source file"`
	Line     Int    `json:"line" jsonschema:"1-based line to run to"`
	ThreadID Int    `json:"threadId,omitempty" jsonschema:"thread (default: the stopped thread)"`
	WaitMs   Int    `json:"waitMs,omitempty" jsonschema:"how long to wait for the stop (default 10000)"`
}

type waitIn struct {
	SessionRef
	TimeoutMs Int `json:"timeoutMs,omitempty" jsonschema:"how long to wait (default 30000, max 600000)"`
}

type threadsOut struct {
	Threads []Thread `json:"threads"`
}

type stackIn struct {
	SessionRef
	ThreadID         Int  `json:"threadId,omitempty" jsonschema:"thread (default: the stopped thread)"`
	StartFrame       Int  `json:"startFrame,omitempty" jsonschema:"first frame to return"`
	Levels           Int  `json:"levels,omitempty" jsonschema:"how many frames (default 50)"`
	IncludeInternals Bool `json:"includeInternals,omitempty" jsonschema:"keep frames without source (runtime internals)"`
}

type stackOut struct {
	StackFrames []Frame `json:"stackFrames"`
	TotalFrames int     `json:"totalFrames,omitempty"`
}

type scopesIn struct {
	SessionRef
	FrameID Int `json:"frameId,omitempty" jsonschema:"frame id from get_stack_trace (default: the top frame)"`
}

type scopesOut struct {
	Scopes []Scope `json:"scopes"`
}

type variablesIn struct {
	SessionRef
	Scope              Int `json:"scope,omitempty" jsonschema:"variablesReference of a scope or of a variable with children"`
	VariablesReference Int `json:"variablesReference,omitempty" jsonschema:"same as scope"`
	Start              Int `json:"start,omitempty" jsonschema:"first child (paging)"`
	Limit              Int `json:"limit,omitempty" jsonschema:"max variables (default 100, max 1000)"`
}

type variablesOut struct {
	Variables  []Variable  `json:"variables"`
	Truncation *Truncation `json:"truncation,omitempty"`
}

type localsIn struct {
	SessionRef
	FrameID        Int      `json:"frameId,omitempty" jsonschema:"frame (default: the top frame)"`
	Names          []string `json:"names,omitempty" jsonschema:"only these variables"`
	IncludeSpecial Bool     `json:"includeSpecial,omitempty" jsonschema:"keep special variables (dunder names, return values)"`
}

type localsOut struct {
	Variables  []Variable  `json:"variables"`
	Scope      string      `json:"scope"`
	Location   *Location   `json:"location,omitempty"`
	Truncation *Truncation `json:"truncation,omitempty"`
}

type evaluateIn struct {
	SessionRef
	Expression string `json:"expression" jsonschema:"expression in the program's language"`
	FrameID    Int    `json:"frameId,omitempty" jsonschema:"frame (default: the top frame)"`
	Context    string `json:"context,omitempty" jsonschema:"repl (default), watch or hover"`
}

type setVariableIn struct {
	SessionRef
	Name               string `json:"name" jsonschema:"variable name"`
	Value              string `json:"value" jsonschema:"new value, in the program's syntax"`
	VariablesReference Int    `json:"variablesReference,omitempty" jsonschema:"scope holding the variable (default: found in the frame's scopes)"`
	Scope              Int    `json:"scope,omitempty" jsonschema:"same as variablesReference"`
	FrameID            Int    `json:"frameId,omitempty" jsonschema:"frame (default: the top frame)"`
}

type sourceIn struct {
	SessionID    string `json:"sessionId,omitempty" jsonschema:"the session id (optional)"`
	File         string `json:"file,omitempty" jsonschema:"source file (default: where the session stopped)"`
	Line         Int    `json:"line,omitempty" jsonschema:"center line (default: the stop line)"`
	LinesContext Int    `json:"linesContext,omitempty" jsonschema:"lines before and after (default 5)"`
}

type sourceOut struct {
	File       string       `json:"file"`
	Line       int          `json:"line"`
	TotalLines int          `json:"totalLines"`
	Lines      []SourceLine `json:"lines"`
}

type outputIn struct {
	SessionRef
	Since    Int    `json:"since,omitempty" jsonschema:"only lines after this seq (from a previous nextSince)"`
	Limit    Int    `json:"limit,omitempty" jsonschema:"max lines (default 200, newest kept)"`
	Category string `json:"category,omitempty" jsonschema:"stdout, stderr or console (default: all)"`
}

type outputOut struct {
	Lines      []toolkit.OutputLine `json:"lines"`
	Text       string               `json:"text"`
	NextSince  int64                `json:"nextSince"`
	Dropped    int64                `json:"dropped,omitempty"`
	Truncation *Truncation          `json:"truncation,omitempty"`
}

// maxWait caps every wait a tool call asks for.
const maxWait = 10 * time.Minute

func ms(n Int, def time.Duration) time.Duration {
	if n <= 0 {
		return def
	}
	if d := time.Duration(n) * time.Millisecond; d < maxWait {
		return d
	}
	return maxWait
}

// sessionTool adds a tool that acts on the session its input names.
func sessionTool[In interface{ session() string }, Out any](tb *Toolbox, m *Manager, name, description string, f func(context.Context, *Session, In) (Out, error)) {
	AddTool(tb, name, description, func(ctx context.Context, in In) (Out, error) {
		s, err := m.Get(in.session())
		if err != nil {
			var zero Out
			return zero, err
		}
		return f(ctx, s, in)
	})
}

// RegisterTools adds the debug-session tools to tb.
func RegisterTools(tb *Toolbox, m *Manager) {
	AddTool(tb, "list_supported_languages", "List every supported language: whether its debug adapter is installed, its path and version, what works (launch, attach by pid, attach by port) and the install command when missing.",
		func(ctx context.Context, _ struct{}) (languagesOut, error) {
			return languagesOut{Languages: m.Languages(ctx)}, nil
		})
	AddTool(tb, "create_debug_session", "Create a debugging session. Launch mode unless port, processId or an adapterConfig naming a target is given; then it attaches in the same call, verifies at least one thread within verifyTimeout and pauses the target unless stopOnEntry is false. For launch, call start_debugging next.",
		func(ctx context.Context, in createIn) (sessionOut, error) {
			s, res, err := m.Create(ctx, in.request())
			if err != nil {
				return sessionOut{}, err
			}
			return sessionAnswer(s, res), nil
		})
	sessionTool(tb, m, "attach_to_process", "Attach an existing session to a running process (processId) or debug port (port). Pauses the target unless stopOnEntry is false.",
		func(ctx context.Context, s *Session, in attachIn) (sessionOut, error) {
			if in.ProcessID == 0 && in.Port == 0 && !namesTarget(in.AdapterConfig) {
				return sessionOut{}, toolkit.NewError(toolkit.CodeInvalidArgument, "processId or port is required", "pass the pid of the process or the port it listens on for a debugger")
			}
			res, err := s.Attach(ctx, in.request())
			if err != nil {
				return sessionOut{}, err
			}
			return sessionAnswer(s, res), nil
		})
	sessionTool(tb, m, "detach_from_process", "Detach from the target. It keeps running unless terminateProcess is true.",
		func(ctx context.Context, s *Session, in detachIn) (okOut, error) {
			if err := s.Detach(ctx, in.TerminateProcess.Or(false)); err != nil {
				return okOut{}, err
			}
			return okOut{SessionID: s.ID(), Message: s.Info().Reason}, nil
		})
	sessionTool(tb, m, "start_debugging", "Launch the program under the debugger. Returns when it first stops (breakpoint, entry, exception), or is running with breakpoints verified (pending:true, then call wait_for_stop), or exits.",
		func(ctx context.Context, s *Session, in startIn) (sessionOut, error) {
			soe := in.StopOnEntry.Or(false)
			if v, ok := in.DAPLaunchArgs["stopOnEntry"].(bool); ok {
				soe = v
			}
			res, err := s.Launch(ctx, StartRequest{ScriptPath: in.ScriptPath, Args: in.Args, Cwd: in.Cwd, Env: in.Env,
				DAPLaunchArgs: in.DAPLaunchArgs, AdapterLaunchConfig: in.AdapterLaunchConfig,
				BreakOnExceptions: in.BreakOnExceptions, StopOnEntry: soe, Wait: ms(in.WaitMs, 0)})
			if err != nil {
				return sessionOut{}, err
			}
			return sessionAnswer(s, res), nil
		})
	sessionTool(tb, m, "restart_debugging", "Relaunch the session's program with the same configuration; breakpoints are kept.",
		func(ctx context.Context, s *Session, in sessionArg) (sessionOut, error) {
			res, err := s.Restart(ctx)
			if err != nil {
				return sessionOut{}, err
			}
			return sessionAnswer(s, res), nil
		})
	AddTool(tb, "close_debug_session", "Close a session: disconnect, stop the adapter and, for launched programs, kill the program's whole process group.",
		func(ctx context.Context, in sessionArg) (okOut, error) {
			if in.SessionID == "" {
				return okOut{}, toolkit.NewError(toolkit.CodeInvalidArgument, "sessionId is required", "pass the id of the session to close").WithOptions(sessionIDs(m)...)
			}
			if err := m.CloseSession(ctx, in.SessionID); err != nil {
				return okOut{}, err
			}
			return okOut{SessionID: in.SessionID, Message: "closed"}, nil
		})
	AddTool(tb, "list_debug_sessions", "List the debug sessions with their language, state, last stop and process.",
		func(ctx context.Context, _ struct{}) (listOut, error) {
			l := m.List()
			return listOut{Sessions: l, Count: len(l)}, nil
		})
	sessionTool(tb, m, "set_breakpoint", "Set a breakpoint at file:line (or on a function). The answer says whether the adapter verified it, the actual line if it moved, and the line's text.",
		func(ctx context.Context, s *Session, in breakpointIn) (breakpointOut, error) {
			bp, err := s.SetBreakpoint(ctx, BreakpointSpec{File: in.File, Line: int(in.Line), Function: in.Function,
				Condition: in.Condition, HitCondition: in.HitCondition, LogMessage: in.LogMessage})
			if err != nil {
				return breakpointOut{}, err
			}
			return breakpointOut{Breakpoint: bp, SessionID: s.ID()}, nil
		})
	sessionTool(tb, m, "list_breakpoints", "List the session's breakpoints with their verification.",
		func(ctx context.Context, s *Session, in sessionArg) (breakpointsOut, error) {
			bps := s.Breakpoints()
			if bps == nil {
				bps = []Breakpoint{}
			}
			return breakpointsOut{Breakpoints: bps}, nil
		})
	sessionTool(tb, m, "remove_breakpoint", "Remove one breakpoint by id.",
		func(ctx context.Context, s *Session, in removeBPIn) (okOut, error) {
			if err := s.RemoveBreakpoint(ctx, int(in.BreakpointID)); err != nil {
				return okOut{}, err
			}
			return okOut{SessionID: s.ID(), Message: fmt.Sprintf("breakpoint %d removed", in.BreakpointID)}, nil
		})
	sessionTool(tb, m, "clear_breakpoints", "Remove every breakpoint (or those of one file).",
		func(ctx context.Context, s *Session, in clearBPIn) (okOut, error) {
			n, err := s.ClearBreakpoints(ctx, in.File)
			if err != nil {
				return okOut{}, err
			}
			return okOut{SessionID: s.ID(), Message: fmt.Sprintf("%d breakpoint(s) removed", n)}, nil
		})
	sessionTool(tb, m, "set_exception_breakpoints", "Break on exceptions: all, uncaught or none (or explicit adapter filter ids).",
		func(ctx context.Context, s *Session, in exceptionsIn) (exceptionsOut, error) {
			f, err := s.SetExceptionBreakpoints(ctx, in.BreakOnExceptions, in.Filters)
			if err != nil {
				return exceptionsOut{}, err
			}
			return exceptionsOut{Filters: f}, nil
		})
	execTool := func(name, desc string, run func(ctx context.Context, s *Session, in threadArg) (*ExecResult, error)) {
		sessionTool(tb, m, name, desc, func(ctx context.Context, s *Session, in threadArg) (ExecResult, error) {
			r, err := run(ctx, s, in)
			if err != nil {
				return ExecResult{}, err
			}
			return *r, nil
		})
	}
	execTool("continue_execution", "Resume the paused program. Answers at once (pending:true); wait_for_stop reports the next stop. Pass waitMs to wait here instead.",
		func(ctx context.Context, s *Session, in threadArg) (*ExecResult, error) {
			return s.Continue(ctx, int(in.ThreadID), ms(in.WaitMs, 0))
		})
	execTool("pause_execution", "Pause the running program and answer where it stopped.",
		func(ctx context.Context, s *Session, in threadArg) (*ExecResult, error) {
			return s.Pause(ctx, int(in.ThreadID), ms(in.WaitMs, 0))
		})
	for _, st := range []struct{ name, cmd, desc string }{
		{"step_over", "next", "Step to the next line in the same function and answer the new location with source context."},
		{"step_into", "stepIn", "Step into the call on the current line and answer the new location with source context."},
		{"step_out", "stepOut", "Run until the current function returns and answer the new location with source context."},
	} {
		cmd := st.cmd
		execTool(st.name, st.desc, func(ctx context.Context, s *Session, in threadArg) (*ExecResult, error) {
			return s.Step(ctx, cmd, int(in.ThreadID), ms(in.WaitMs, 0))
		})
	}
	sessionTool(tb, m, "run_to_line", "Run until file:line is reached (a temporary breakpoint), or another stop comes first.",
		func(ctx context.Context, s *Session, in runToLineIn) (ExecResult, error) {
			r, err := s.RunToLine(ctx, in.File, int(in.Line), int(in.ThreadID), ms(in.WaitMs, 0))
			if err != nil {
				return ExecResult{}, err
			}
			return *r, nil
		})
	sessionTool(tb, m, "wait_for_stop", "Block until the program stops (breakpoint, step, exception) or exits, up to timeoutMs. Returns the stop reason, location with source context, and exception text.",
		func(ctx context.Context, s *Session, in waitIn) (ExecResult, error) {
			r, err := s.WaitForStop(ctx, ms(in.TimeoutMs, 30*time.Second))
			if err != nil {
				return ExecResult{}, err
			}
			return *r, nil
		})
	sessionTool(tb, m, "list_threads", "List the program's threads.",
		func(ctx context.Context, s *Session, in sessionArg) (threadsOut, error) {
			t, err := s.Threads(ctx)
			return threadsOut{Threads: t}, err
		})
	sessionTool(tb, m, "get_stack_trace", "Get the stack of the stopped thread (or threadId): frame ids, functions, files, lines and line text.",
		func(ctx context.Context, s *Session, in stackIn) (stackOut, error) {
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
		func(ctx context.Context, s *Session, in scopesIn) (scopesOut, error) {
			sc, err := s.Scopes(ctx, int(in.FrameID))
			return scopesOut{Scopes: sc}, err
		})
	sessionTool(tb, m, "get_variables", "Get the variables of a scope or the children of a variable (scope = variablesReference). Capped, with a truncation note.",
		func(ctx context.Context, s *Session, in variablesIn) (variablesOut, error) {
			ref := in.Scope
			if ref == 0 {
				ref = in.VariablesReference
			}
			v, tr, err := s.Variables(ctx, int(ref), int(in.Start), int(in.Limit))
			return variablesOut{Variables: v, Truncation: tr}, err
		})
	sessionTool(tb, m, "get_local_variables", "Get the local variables of the top frame (or frameId) in one call.",
		func(ctx context.Context, s *Session, in localsIn) (localsOut, error) {
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
	sessionTool(tb, m, "evaluate_expression", "Evaluate an expression in the stopped program (top frame or frameId).",
		func(ctx context.Context, s *Session, in evaluateIn) (EvalResult, error) {
			r, err := s.Evaluate(ctx, in.Expression, int(in.FrameID), in.Context)
			if err != nil {
				return EvalResult{}, err
			}
			return *r, nil
		})
	sessionTool(tb, m, "set_variable", "Change a variable's value in the stopped program.",
		func(ctx context.Context, s *Session, in setVariableIn) (EvalResult, error) {
			ref := in.VariablesReference
			if ref == 0 {
				ref = in.Scope
			}
			r, err := s.SetVariable(ctx, int(ref), in.Name, in.Value, int(in.FrameID))
			if err != nil {
				return EvalResult{}, err
			}
			return *r, nil
		})
	AddTool(tb, "get_source_context", "Read source lines around a line (default: where the session stopped).",
		func(ctx context.Context, in sourceIn) (sourceOut, error) {
			file, line := in.File, int(in.Line)
			if file == "" || line == 0 {
				s, err := m.Get(in.SessionID)
				if err != nil {
					return sourceOut{}, err
				}
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
			if st, err := os.Stat(file); err != nil || !st.Mode().IsRegular() {
				return sourceOut{}, toolkit.NewError(toolkit.CodeInvalidArgument, "cannot read "+file, "pass the path of an existing source file")
			}
			ctxLines := int(in.LinesContext)
			if ctxLines == 0 {
				ctxLines = 5
			}
			lines, total := SourceContext(file, line, ctxLines)
			if line < 1 || line > total {
				return sourceOut{}, toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("line %d is outside %s (%d lines)", line, file, total), "pick a line between 1 and "+fmt.Sprint(total))
			}
			return sourceOut{File: file, Line: line, TotalLines: total, Lines: lines}, nil
		})
	sessionTool(tb, m, "get_output", "Read the program's captured stdout/stderr and adapter output (bounded ring buffer). Pass since=nextSince to read only new lines.",
		func(ctx context.Context, s *Session, in outputIn) (outputOut, error) {
			limit := int(in.Limit)
			if limit <= 0 {
				limit = 200
			}
			lines, dropped, next := s.Output().Since(int64(in.Since), 0, in.Category)
			out := outputOut{NextSince: next, Dropped: dropped}
			if len(lines) > limit {
				out.Truncation = &Truncation{Note: fmt.Sprintf("showing the newest %d of %d lines; pass since or a larger limit", limit, len(lines)), Returned: limit, Total: len(lines)}
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
					out.Truncation = &Truncation{Note: "text cut to the last 64 KiB"}
				}
			}
			out.Text = string(text)
			return out, nil
		})
}

func (in createIn) request() CreateRequest {
	return CreateRequest{Language: in.Language, Name: in.Name, ExecutablePath: in.ExecutablePath, Host: in.Host,
		Port: int(in.Port), ProcessID: int(in.ProcessID), Timeout: ms(in.Timeout, 0), VerifyTimeout: ms(in.VerifyTimeout, 0),
		StopOnEntry: in.StopOnEntry.Ptr(), JustMyCode: in.JustMyCode.Ptr(), SourcePaths: in.SourcePaths,
		BreakOnExceptions: in.BreakOnExceptions, AdapterConfig: in.AdapterConfig}
}

func sessionAnswer(s *Session, res *StartResult) sessionOut {
	info := s.Info()
	out := sessionOut{SessionID: info.ID, Name: info.Name, Language: info.Language, State: info.State, Mode: info.Mode, LastStop: info.LastStop}
	if res != nil {
		out.Pending, out.Message = res.Pending, res.Message
		if res.State != "" {
			out.State = res.State
		}
	} else if info.State == StateCreated {
		out.Message = "created; call start_debugging with scriptPath to launch, or attach_to_process"
	}
	if l := info.LastStop; l != nil && l.Location != nil && l.Location.File != "" && out.State == StatePaused {
		out.Source, _ = SourceContext(l.Location.File, l.Location.Line, 3)
	}
	return out
}

func sessionIDs(m *Manager) []string {
	var ids []string
	for _, s := range m.List() {
		ids = append(ids, s.ID)
	}
	return ids
}

// dropSpecial hides dunder names and adapter pseudo-variables.
func dropSpecial(vs []Variable) []Variable {
	out := vs[:0]
	for _, v := range vs {
		n := v.Name
		if len(n) > 4 && n[:2] == "__" && n[len(n)-2:] == "__" || n == "special variables" || n == "function variables" || n == "class variables" {
			continue
		}
		out = append(out, v)
	}
	return out
}

// Languages reports every registered adapter. Adapters are probed in
// parallel: each probe may run a version command.
func (m *Manager) Languages(ctx context.Context) []adapters.Info {
	langs := m.cfg.Adapters.Languages()
	out := make([]adapters.Info, len(langs))
	var wg sync.WaitGroup
	for i, l := range langs {
		wg.Add(1)
		go func(i int, l string) {
			defer wg.Done()
			a, _ := m.cfg.Adapters.Lookup(l)
			info := m.findAdapter(ctx, a)
			info.Aliases = m.cfg.Adapters.Aliases(l)
			out[i] = info
		}(i, l)
	}
	wg.Wait()
	return out
}
