package sessiontools

import (
	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
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
	ThreadID toolkit.Int `json:"threadId,omitempty" jsonschema:"thread to act on (default: the stopped thread)"`
	WaitMs   toolkit.Int `json:"waitMs,omitempty" jsonschema:"how long to wait for the new location before answering pending:true (default 3000)"`
	changedArg
}

// changedArg is the option of every tool that answers a stop.
type changedArg struct {
	Changed toolkit.Bool `json:"changed,omitempty" jsonschema:"say which of the top frame's locals changed since its previous stop (default true); false skips reading them"`
}

type createIn struct {
	Language          string                 `json:"language" jsonschema:"programming language: mock, go, python, javascript, typescript, java, c, cpp, rust, ruby, cobol, dotnet, dart"`
	Name              string                 `json:"name,omitempty" jsonschema:"optional session name"`
	ExecutablePath    string                 `json:"executablePath,omitempty" jsonschema:"path to the language runtime (python, node, java), auto-detected when omitted"`
	Host              string                 `json:"host,omitempty" jsonschema:"attach mode only: host to attach to (default 127.0.0.1); does not trigger attach by itself"`
	Port              toolkit.Int            `json:"port,omitempty" jsonschema:"debug port to attach to (triggers attach mode)"`
	ProcessID         toolkit.Int            `json:"processId,omitempty" jsonschema:"process id to attach to (triggers attach mode)"`
	Timeout           toolkit.Int            `json:"timeout,omitempty" jsonschema:"attach mode only: connection timeout in ms, forwarded to the adapter"`
	VerifyTimeout     toolkit.Int            `json:"verifyTimeout,omitempty" jsonschema:"attach mode only: ms to wait for at least one thread after attaching (default 20000, max 600000)"`
	StopOnEntry       toolkit.Bool           `json:"stopOnEntry,omitempty" jsonschema:"attach mode only: pause the target after attaching (default true); false attaches to a live service without stopping it"`
	JustMyCode        toolkit.Bool           `json:"justMyCode,omitempty" jsonschema:"only debug user code (skip library code)"`
	SourcePaths       []string               `json:"sourcePaths,omitempty" jsonschema:"source paths for code mapping (remote=local pairs where the adapter maps paths)"`
	BreakOnExceptions string                 `json:"breakOnExceptions,omitempty" jsonschema:"attach mode: uncaught, all or none (default none)"`
	AdapterConfig     map[string]any         `json:"adapterConfig,omitempty" jsonschema:"adapter-specific attach configuration merged into the attach request"`
	Via               *sessions.Via          `json:"via,omitempty" jsonschema:"attach on another machine: processId (or port) is the target's; dbg starts its debug server there and tunnels to it"`
	PathMappings      []adapters.PathMapping `json:"pathMappings,omitempty" jsonschema:"the target's folders (remoteRoot) and their local copies (localRoot); proposed when omitted"`
}

type sessionOut struct {
	SessionID string                `json:"sessionId"`
	Name      string                `json:"name"`
	Language  string                `json:"language"`
	State     sessions.State        `json:"state"`
	Mode      string                `json:"mode,omitempty"`
	Pending   bool                  `json:"pending,omitempty"`
	LastStop  *sessions.StopInfo    `json:"lastStop,omitempty"`
	Message   string                `json:"message,omitempty"`
	Source    []sessions.SourceLine `json:"source,omitempty"`
	// Changed is null on a first stop (see sessions.Changes).
	Changed     *sessions.Changes `json:"changed,omitempty"`
	ChangedNote string            `json:"changedNote,omitempty"`
	// Interpreter is the runtime the session runs on and why (Python).
	Interpreter *adapters.Interpreter `json:"interpreter,omitempty"`
	// Resources names the session's MCP resources.
	Resources *sessionResources `json:"resources,omitempty"`
	// Remote is the way an attach through a via took; Warnings what an
	// attach warns of.
	Remote   *sessions.RemoteInfo `json:"remote,omitempty"`
	Warnings []string             `json:"warnings,omitempty"`
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
	StopOnEntry         toolkit.Bool      `json:"stopOnEntry,omitempty" jsonschema:"stop at the program's first line"`
	WaitMs              toolkit.Int       `json:"waitMs,omitempty" jsonschema:"how long to wait for the first stop before answering pending:true"`
	changedArg
}

type attachIn struct {
	createIn
	SessionRef
}

type detachIn struct {
	SessionRef
	TerminateProcess toolkit.Bool `json:"terminateProcess,omitempty" jsonschema:"also terminate the target (default false: it keeps running)"`
}

type okOut struct {
	SessionID string `json:"sessionId,omitempty"`
	Message   string `json:"message"`
}

type listOut struct {
	Sessions []listedSession `json:"sessions"`
	Count    int             `json:"count"`
}

// listedSession is a session's summary with the URIs of its resources.
type listedSession struct {
	sessions.SessionInfo
	Resources sessionResources `json:"resources"`
}

type languagesOut struct {
	Languages []adapters.Info `json:"languages"`
}

type breakpointIn struct {
	SessionRef
	File         string      `json:"file,omitempty" jsonschema:"source file (absolute or relative to the server's working directory)"`
	Line         toolkit.Int `json:"line,omitempty" jsonschema:"1-based line"`
	Condition    string      `json:"condition,omitempty" jsonschema:"stop only when this expression is true"`
	HitCondition string      `json:"hitCondition,omitempty" jsonschema:"stop on these hits, e.g. 3 or >=3"`
	LogMessage   string      `json:"logMessage,omitempty" jsonschema:"log this message ({expr} interpolated) instead of stopping"`
	Function     string      `json:"function,omitempty" jsonschema:"function name, for a function breakpoint instead of file/line"`
}

type breakpointOut struct {
	sessions.Breakpoint
	SessionID string `json:"sessionId"`
}

type breakpointsOut struct {
	Breakpoints []sessions.Breakpoint `json:"breakpoints"`
}

type removeBPIn struct {
	SessionRef
	BreakpointID toolkit.Int `json:"breakpointId" jsonschema:"id from set_breakpoint or list_breakpoints"`
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
	File     string      `json:"file" jsonschema:"source file"`
	Line     toolkit.Int `json:"line" jsonschema:"1-based line to run to"`
	ThreadID toolkit.Int `json:"threadId,omitempty" jsonschema:"thread (default: the stopped thread)"`
	WaitMs   toolkit.Int `json:"waitMs,omitempty" jsonschema:"how long to wait for the stop (default 10000)"`
	changedArg
}

type waitIn struct {
	SessionRef
	TimeoutMs toolkit.Int `json:"timeoutMs,omitempty" jsonschema:"how long to wait (default 30000, max 600000)"`
	changedArg
}

type threadsOut struct {
	Threads []sessions.Thread `json:"threads"`
}

type stackIn struct {
	SessionRef
	ThreadID         toolkit.Int  `json:"threadId,omitempty" jsonschema:"thread (default: the stopped thread)"`
	StartFrame       toolkit.Int  `json:"startFrame,omitempty" jsonschema:"first frame to return"`
	Levels           toolkit.Int  `json:"levels,omitempty" jsonschema:"how many frames (default 50)"`
	IncludeInternals toolkit.Bool `json:"includeInternals,omitempty" jsonschema:"keep frames without source (runtime internals)"`
}

type stackOut struct {
	StackFrames []sessions.Frame `json:"stackFrames"`
	TotalFrames int              `json:"totalFrames,omitempty"`
}

type scopesIn struct {
	SessionRef
	FrameID toolkit.Int `json:"frameId,omitempty" jsonschema:"frame id from get_stack_trace (default: the top frame)"`
}

type scopesOut struct {
	Scopes []sessions.Scope `json:"scopes"`
}

type variablesIn struct {
	SessionRef
	Scope              toolkit.Int `json:"scope,omitempty" jsonschema:"variablesReference of a scope or of a variable with children"`
	VariablesReference toolkit.Int `json:"variablesReference,omitempty" jsonschema:"same as scope"`
	Start              toolkit.Int `json:"start,omitempty" jsonschema:"first child (paging)"`
	Limit              toolkit.Int `json:"limit,omitempty" jsonschema:"max variables (default 100, max 1000)"`
}

type variablesOut struct {
	Variables  []sessions.Variable  `json:"variables"`
	Truncation *sessions.Truncation `json:"truncation,omitempty"`
}

type localsIn struct {
	SessionRef
	FrameID        toolkit.Int  `json:"frameId,omitempty" jsonschema:"frame (default: the top frame)"`
	Names          []string     `json:"names,omitempty" jsonschema:"only these variables"`
	IncludeSpecial toolkit.Bool `json:"includeSpecial,omitempty" jsonschema:"keep special variables (dunder names, return values)"`
}

type localsOut struct {
	Variables  []sessions.Variable  `json:"variables"`
	Scope      string               `json:"scope"`
	Location   *sessions.Location   `json:"location,omitempty"`
	Truncation *sessions.Truncation `json:"truncation,omitempty"`
}

type evaluateIn struct {
	SessionRef
	Expression string      `json:"expression" jsonschema:"expression in the program's language"`
	FrameID    toolkit.Int `json:"frameId,omitempty" jsonschema:"frame (default: the top frame)"`
	Context    string      `json:"context,omitempty" jsonschema:"repl (default), watch or hover"`
	// SideEffects false refuses calls and assignments (docs/contract.md, "Beyond the peers").
	SideEffects toolkit.Bool `json:"sideEffects,omitempty" jsonschema:"false: refuse what would change the program, such as calls and assignments (default true, or false under dbg mcp --no-side-effects)"`
}

type setVariableIn struct {
	SessionRef
	Name               string      `json:"name" jsonschema:"variable name"`
	Value              string      `json:"value" jsonschema:"new value, in the program's syntax"`
	VariablesReference toolkit.Int `json:"variablesReference,omitempty" jsonschema:"scope holding the variable (default: found in the frame's scopes)"`
	Scope              toolkit.Int `json:"scope,omitempty" jsonschema:"same as variablesReference"`
	FrameID            toolkit.Int `json:"frameId,omitempty" jsonschema:"frame (default: the top frame)"`
}

type sourceIn struct {
	SessionID    string      `json:"sessionId,omitempty" jsonschema:"the session id (optional)"`
	File         string      `json:"file,omitempty" jsonschema:"source file (default: where the session stopped)"`
	Line         toolkit.Int `json:"line,omitempty" jsonschema:"center line (default: the stop line)"`
	LinesContext toolkit.Int `json:"linesContext,omitempty" jsonschema:"lines before and after (default 5)"`
}

type sourceOut struct {
	File       string                `json:"file"`
	Line       int                   `json:"line"`
	TotalLines int                   `json:"totalLines"`
	Lines      []sessions.SourceLine `json:"lines"`
}

type outputIn struct {
	SessionRef
	Since    toolkit.Int `json:"since,omitempty" jsonschema:"only lines after this seq (from a previous nextSince)"`
	Limit    toolkit.Int `json:"limit,omitempty" jsonschema:"max lines (default 200, newest kept)"`
	Category string      `json:"category,omitempty" jsonschema:"stdout, stderr or console (default: all)"`
}

type outputOut struct {
	Lines      []toolkit.OutputLine `json:"lines"`
	Text       string               `json:"text"`
	NextSince  int64                `json:"nextSince"`
	Dropped    int64                `json:"dropped,omitempty"`
	Truncation *sessions.Truncation `json:"truncation,omitempty"`
}
