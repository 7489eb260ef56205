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
	SessionID string `json:"sessionId"`
}

func (r SessionRef) session() string { return r.SessionID }

type sessionArg = SessionRef

type threadArg struct {
	SessionRef
	ThreadID toolkit.Int `json:"threadId,omitempty" alias:"id"`
	WaitMs   toolkit.Int `json:"waitMs,omitempty" jsonschema:"default 3000"`
	changedArg
}

// changedArg is the option of every tool that answers a stop.
type changedArg struct {
	Changed toolkit.Bool `json:"changed,omitempty"`
}

type createIn struct {
	Language          string                 `json:"language" jsonschema:"go, python, javascript, typescript, java, c, cpp, rust, ruby, dotnet, dart, cobol, mock"`
	Name              string                 `json:"name,omitempty"`
	ExecutablePath    string                 `json:"executablePath,omitempty" jsonschema:"runtime (default: detected)"`
	Host              string                 `json:"host,omitempty" jsonschema:"default 127.0.0.1"`
	Port              toolkit.Int            `json:"port,omitempty" jsonschema:"attach to this port"`
	ProcessID         toolkit.Int            `json:"processId,omitempty" jsonschema:"attach to this pid"`
	Timeout           toolkit.Int            `json:"timeout,omitempty" jsonschema:"connect timeout, ms"`
	VerifyTimeout     toolkit.Int            `json:"verifyTimeout,omitempty" jsonschema:"ms for a first thread"`
	StopOnEntry       toolkit.Bool           `json:"stopOnEntry,omitempty" jsonschema:"pause on attach (default true)"`
	JustMyCode        toolkit.Bool           `json:"justMyCode,omitempty" jsonschema:"skip library code"`
	SourcePaths       []string               `json:"sourcePaths,omitempty" jsonschema:"path pairs remote=local"`
	BreakOnExceptions string                 `json:"breakOnExceptions,omitempty" jsonschema:"attach: default none"`
	AdapterConfig     map[string]any         `json:"adapterConfig,omitempty" jsonschema:"merged into the attach request"`
	Via               *sessions.Via          `json:"via,omitempty" jsonschema:"the target's machine"`
	PathMappings      []adapters.PathMapping `json:"pathMappings,omitempty" jsonschema:"proposed when omitted"`
}

// createSessionIn is create_debug_session's input: an attach's, and what
// only a new session takes.
type createSessionIn struct {
	createIn
	ChildProcesses toolkit.Bool `json:"childProcesses,omitempty" jsonschema:"follow children (default true)"`
	CoreFile       string       `json:"coreFile,omitempty" jsonschema:"a core file (postmortem)"`
	Program        string       `json:"program,omitempty" jsonschema:"with coreFile: the crashed binary"`
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
	ScriptPath          string            `json:"scriptPath" jsonschema:"source file, package folder, binary, jar or class"`
	Args                []string          `json:"args,omitempty"`
	Cwd                 string            `json:"cwd,omitempty" jsonschema:"default: the program's folder"`
	Env                 map[string]string `json:"env,omitempty"`
	DAPLaunchArgs       map[string]any    `json:"dapLaunchArgs,omitempty" jsonschema:"extra launch arguments"`
	AdapterLaunchConfig map[string]any    `json:"adapterLaunchConfig,omitempty" jsonschema:"merged into the launch request"`
	BreakOnExceptions   string            `json:"breakOnExceptions,omitempty" jsonschema:"default uncaught"`
	StopOnEntry         toolkit.Bool      `json:"stopOnEntry,omitempty" jsonschema:"stop at the first line"`
	WaitMs              toolkit.Int       `json:"waitMs,omitempty"`
	changedArg
}

type attachIn struct {
	createIn
	SessionRef
}

type detachIn struct {
	SessionRef
	TerminateProcess toolkit.Bool `json:"terminateProcess,omitempty"`
}

type okOut struct {
	SessionID string `json:"sessionId,omitempty"`
	Message   string `json:"message"`
}

type listIn struct {
	All toolkit.Bool `json:"all,omitempty" jsonschema:"everyone's sessions, with their owner"`
}

type listOut struct {
	Sessions []listedSession  `json:"sessions"`
	Count    int              `json:"count"`
	Groups   []sessions.Group `json:"groups,omitempty"` // sessions started together (a compound)
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
	File         string      `json:"file,omitempty"`
	Line         toolkit.Int `json:"line,omitempty"`
	Condition    string      `json:"condition,omitempty"`
	HitCondition string      `json:"hitCondition,omitempty" jsonschema:"N, >=N, >N, <N, <=N or %N"`
	LogMessage   string      `json:"logMessage,omitempty" jsonschema:"log it ({expr} interpolated), do not stop"`
	Function     string      `json:"function,omitempty" jsonschema:"instead of file and line"`
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
	BreakpointID toolkit.Int `json:"breakpointId" alias:"id"`
}

type clearBPIn struct {
	SessionRef
	File string `json:"file,omitempty"`
}

type exceptionsIn struct {
	SessionRef
	BreakOnExceptions string   `json:"breakOnExceptions,omitempty"`
	Filters           []string `json:"filters,omitempty"`
}

type exceptionsOut struct {
	Filters []string `json:"filters"`
}

type runToLineIn struct {
	SessionRef
	File     string      `json:"file"`
	Line     toolkit.Int `json:"line"`
	ThreadID toolkit.Int `json:"threadId,omitempty"`
	WaitMs   toolkit.Int `json:"waitMs,omitempty" jsonschema:"ms to wait (default 10000)"`
	changedArg
}

// allIn is the input of continue_execution and pause_execution.
type allIn struct {
	threadArg
	All toolkit.Bool `json:"all,omitempty" jsonschema:"every session"`
}

// allOut is one session's answer, or with all each session's.
type allOut struct {
	*sessions.ExecResult
	Sessions []sessions.ExecResult `json:"sessions,omitempty"`
}

type waitIn struct {
	SessionRef
	SessionIDs []string     `json:"sessionIds,omitempty" jsonschema:"the first stop answers"`
	All        toolkit.Bool `json:"all,omitempty" jsonschema:"wait on every session"`
	TimeoutMs  toolkit.Int  `json:"timeoutMs,omitempty" jsonschema:"default 30000"`
	changedArg
}

type threadsOut struct {
	Threads []sessions.Thread `json:"threads"`
}

type stackIn struct {
	SessionRef
	ThreadID         toolkit.Int  `json:"threadId,omitempty" alias:"id"`
	StartFrame       toolkit.Int  `json:"startFrame,omitempty"`
	Levels           toolkit.Int  `json:"levels,omitempty" jsonschema:"default 50"`
	IncludeInternals toolkit.Bool `json:"includeInternals,omitempty" jsonschema:"keep frames without source"`
}

type stackOut struct {
	StackFrames []sessions.Frame `json:"stackFrames"`
	TotalFrames int              `json:"totalFrames,omitempty"`
}

type scopesIn struct {
	SessionRef
	FrameID toolkit.Int `json:"frameId,omitempty" alias:"id"`
}

type scopesOut struct {
	Scopes []sessions.Scope `json:"scopes"`
}

type variablesIn struct {
	SessionRef
	Scope              toolkit.Int  `json:"scope,omitempty" jsonschema:"variablesReference"`
	VariablesReference toolkit.Int  `json:"variablesReference,omitempty"`
	Start              toolkit.Int  `json:"start,omitempty"`
	Limit              toolkit.Int  `json:"limit,omitempty" jsonschema:"default 100"`
	IncludeSpecial     toolkit.Bool `json:"includeSpecial,omitempty" jsonschema:"keep debugpy's member groups"`
}

type variablesOut struct {
	Variables  []sessions.Variable  `json:"variables"`
	Truncation *sessions.Truncation `json:"truncation,omitempty"`
}

type localsIn struct {
	SessionRef
	FrameID        toolkit.Int  `json:"frameId,omitempty" alias:"id"`
	Names          []string     `json:"names,omitempty"`
	IncludeSpecial toolkit.Bool `json:"includeSpecial,omitempty" jsonschema:"keep dunder names and return values"`
}

type localsOut struct {
	Variables  []sessions.Variable  `json:"variables"`
	Scope      string               `json:"scope"`
	Location   *sessions.Location   `json:"location,omitempty"`
	Truncation *sessions.Truncation `json:"truncation,omitempty"`
}

type evaluateIn struct {
	SessionRef
	Expression string      `json:"expression"`
	FrameID    toolkit.Int `json:"frameId,omitempty" alias:"id"`
	Context    string      `json:"context,omitempty"`
	// SideEffects false refuses calls and assignments (docs/contract.md, "Beyond the peers").
	SideEffects toolkit.Bool `json:"sideEffects,omitempty" jsonschema:"false refuses calls and assignments"`
}

type setVariableIn struct {
	SessionRef
	Name               string      `json:"name"`
	Value              string      `json:"value"`
	VariablesReference toolkit.Int `json:"variablesReference,omitempty"`
	Scope              toolkit.Int `json:"scope,omitempty"`
	FrameID            toolkit.Int `json:"frameId,omitempty" alias:"id"`
}

type sourceIn struct {
	SessionID    string      `json:"sessionId,omitempty"`
	File         string      `json:"file,omitempty" jsonschema:"default: the stop"`
	Line         toolkit.Int `json:"line,omitempty" jsonschema:"default: the stop"`
	LinesContext toolkit.Int `json:"linesContext,omitempty" jsonschema:"default 5"`
}

type sourceOut struct {
	File       string                `json:"file"`
	Line       int                   `json:"line"`
	TotalLines int                   `json:"totalLines"`
	Lines      []sessions.SourceLine `json:"lines"`
}

type outputIn struct {
	SessionRef
	Since    toolkit.Int  `json:"since,omitempty"`
	Limit    toolkit.Int  `json:"limit,omitempty" jsonschema:"default 200"`
	Category string       `json:"category,omitempty" jsonschema:"stdout, stderr or console"`
	Lines    toolkit.Bool `json:"lines,omitempty" jsonschema:"as lines with seq, time, category"`
}

// outputOut holds the output once: as text, or as lines when asked.
type outputOut struct {
	Lines      []toolkit.OutputLine `json:"lines,omitempty"`
	Text       string               `json:"text,omitempty"`
	NextSince  int64                `json:"nextSince"`
	Dropped    int64                `json:"dropped,omitempty"`
	Truncation *sessions.Truncation `json:"truncation,omitempty"`
}

// groupsOf keeps the groups with a session of l: a client is shown the
// groups of the sessions it sees.
func groupsOf(groups []sessions.Group, l []sessions.SessionInfo) []sessions.Group {
	listed := map[string]bool{}
	for _, s := range l {
		listed[s.ID] = true
	}
	kept := groups[:0]
	for _, g := range groups {
		for _, id := range g.Sessions {
			if listed[id] {
				kept = append(kept, g)
				break
			}
		}
	}
	return kept
}
