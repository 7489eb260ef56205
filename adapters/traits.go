package adapters

import (
	"context"
	"io"

	"github.com/dbg-dev/dbg/dap"
)

// Traits is everything dbg knows about a language beyond the [Adapter]
// methods, declared by its adapter, so that the session manager, the
// commands and the capabilities treat every language alike and know none
// by name: they ask the declaration ([Adapter.Traits], or a [Registry]
// lookup such as [Registry.ForFile]) and never compare a language's
// name. The zero value declares nothing: attach targets are named by
// processId or port only, a launch program is a path, no file or
// process is recognised as the language's, and every optional ability
// is absent.
//
// Traits is not where adapter fixes go. An adapter fixes its own
// deviations, in one place each: the arguments of the launch and attach
// requests in [Adapter.LaunchArgs] and [Adapter.AttachArgs] (lldb-dap
// attaches by "pid", netcoredbg by "processId"), and deviations of the
// protocol in a proxy in front of the stream [Adapter.Start] returns (old
// rdbg's repeated pause stops and missing terminated event, lldb's
// dropped pauses). The manager applies no fix of its own.
//
// A new fact about languages is a new field here, documented with what
// its zero value means, and set by the adapters it is true of. A Traits
// value is made by each call of [Adapter.Traits] and not changed after;
// its functions are safe for concurrent use.
type Traits struct {
	// Inputs.

	// AttachKeys are the adapterConfig keys, beyond processId and port,
	// that name an attach target (Dart's vmServiceUri, the inspector's
	// websocketAddress): a create request carrying one attaches at once.
	AttachKeys []string
	// NamedProgram reports whether a launch program (scriptPath) is a
	// name the adapter resolves rather than a file: a Python module
	// ("-m pkg"), a Java main class. The manager checks that any other
	// program exists and makes it absolute. Nil: every program is a path.
	NamedProgram func(program string) bool
	// MaxProgramBytes is the largest launch program the adapter takes,
	// for an adapter that reads the program whole (the mock); larger
	// ones, and devices and pipes, are refused before the launch. 0: no
	// limit beyond the adapter's own.
	MaxProgramBytes int64

	// Recognising the language's programs.

	// Extensions are the file extensions of the language's programs,
	// lower case with the dot (".py"): `dbg launch FILE` tells a
	// program's language by them ([Registry.ForFile]).
	Extensions []string
	// ProjectFiles are the files that make a directory a program of the
	// language (Go's go.mod, Cargo's Cargo.toml), for `dbg launch DIR`.
	ProjectFiles []string
	// Commands recognise a running program of the language by its
	// command ([Registry.DetectLanguage], for `dbg attach --pid`): a name
	// is matched against the executable's base name, exactly ("node") or,
	// ending in "*", by prefix ("python*" matches python3.12); a name
	// starting with "*." is matched against the end of the command line's
	// first argument ("*.py": a script run by a launcher named otherwise).
	Commands []string
	// Binary, when set, recognises a running compiled program of the
	// language by its executable (Go's build information, Rust's runtime
	// symbols), when no Commands name matched. Binaries are asked in
	// decreasing BinaryRank, so the most telling marks come first and a
	// catch-all (C: any ELF file) comes last.
	Binary     func(e *Executable) bool
	BinaryRank int
	// Native: the language compiles to machine code that dbg debugs
	// through its DWARF (C, C++, Rust, COBOL). A running program of it
	// without debug info shows no source, so `dbg attach` does not offer
	// it and refuses it unless --language is given.
	Native bool

	// What dbg does with it.

	// PausedBreakpoints: the adapter cannot safely change breakpoints
	// while its program runs (lldb may report a thread that reaches a
	// breakpoint being inserted as a SIGTRAP, not as the breakpoint), so
	// the manager pauses the program around the change and resumes it.
	PausedBreakpoints bool
	// SideEffectFree checks that an expression in the adapter's language
	// neither calls nor assigns, for evaluate_expression with
	// sideEffects:false on an adapter that cannot refuse them itself; the
	// error says what was found. Nil: dbg has no such check for the
	// language.
	SideEffectFree func(expr string) error
	// HeldLogpoints: the adapter delivers a logpoint's output before the
	// program goes on (delve and the built-in Java and Node adapters write
	// it while the thread is held; Node's console.log is synchronous on a
	// pipe), so a trace probe may become a logpoint without losing hits.
	// False: probes stay breakpoints dbg continues from (debugpy queues
	// logpoint output and drops what is queued when the program exits).
	HeldLogpoints bool
	// ProbeCondition, when set, is the breakpoint condition, in the
	// language, that records a trace probe's hit and is false: guarded by
	// cond when it is not "", it writes one probe record ([ProbeMarker]) for key,
	// with the value of each of exprs, to the program's stdout in one
	// write. Only programs the adapter launched use it: their stdout is
	// the pipe dbg reads, and an attached program's is not dbg's to write
	// to.
	ProbeCondition func(key string, exprs []string, cond string) string
	// NoDataBreakpoints says why the adapter has no data breakpoints,
	// for the refusal of set_data_breakpoint ("the Node inspector
	// protocol (CDP) has no watchpoints on variables"). "": the refusal
	// says only that the adapter does not announce them.
	NoDataBreakpoints string
	// SetNote is what a set_variable answer says of every value set, when
	// the program may not see it everywhere ("code holding a copy in a
	// register keeps the old value"). "": a value set is the value the
	// program reads.
	SetNote string
	// Chatter are the console lines the adapter prints of itself at every
	// start ("Type 'dlv help' for list of commands."), which say nothing
	// of the program: the session leaves them out of its output. None:
	// every line is the session's.
	Chatter []string

	// Around the adapter.

	// Builtin, when set, is the adapter as dbg serves it standalone, over
	// one stream, to any DAP client: `dbg dap NAME`.
	Builtin *Builtin
	// InstallInto, when set, gives the install commands that put the
	// adapter into a runtime the user names, rather than the one on PATH
	// (`dbg adapters install python --python PY`: debugpy into PY).
	InstallInto func(runtime string) [][]string
	// Interpreter, when set, picks the runtime a launch of a target runs
	// on (the project's virtual environment, then PATH), so that a tool
	// running the language beside a session (a test runner's discovery)
	// runs on the same one.
	Interpreter func(ctx context.Context, t Target) Interpreter
	// LaunchTypes are the VS Code launch.json "type"s of the language's
	// debug adapter ("debugpy", "python"): debug_run_configuration debugs
	// an entry of one of them with this adapter.
	LaunchTypes []string
	// RunsThrough: a launch's Target.Through runs in place of the
	// runtime's own start of the program (debugpy: the interpreter's
	// command line before the launcher's). False: Through is ignored.
	RunsThrough bool
	// Beyond one process.

	// Children says whether the adapter follows the processes a program
	// starts as child sessions of its session, and how, or why not. The
	// zero value follows none, for no stated reason.
	Children ChildProcesses
	// Core, when set, opens a core file: the request ([Launch] or
	// [Attach]) and its arguments that debug t.CoreFile with t.Program as
	// the crashed program. Nil: the language has no post-mortem
	// sessions, and NoCore says why and what works instead.
	Core func(ctx context.Context, t Target) (Mode, map[string]any, error)
	// NoCore is the refusal of a core file: why the adapter cannot read
	// one, and the tool that can ("py-spy dump", "jhsdb").
	NoCore string
	// SignalExit, when set, reads an exit code the adapter reports as the
	// signal the program died of (delve: -N for signal N), or 0 when the
	// code is no signal's. Nil: only a code that matches a signal the
	// last stop named is read as one.
	SignalExit func(code int) int

	// Remote, when set, declares how the language's programs are debugged
	// on another machine through a via (create_debug_session's via): the
	// debug server started there, or the port the program serves one on.
	// Nil: a via attach by pid is refused.
	Remote *Remote
	// CommandAgent is the placeholder a launch's adapterConfig.command
	// (a build tool's command line, for a test run) carries where the
	// program the command forks takes the debug agent option; the adapter
	// replaces it with the option that connects that program to it
	// (Java: "${jdwpAgent}", the -agentlib:jdwp option). "": the adapter
	// launches no command's child.
	CommandAgent string
}

// ChildProcesses is how an adapter follows the processes its program
// starts (a subprocess, a fork, an exec).
type ChildProcesses struct {
	// Follows: each child the adapter reports becomes a session of its
	// own whose parent is the program's session. The adapter reports a
	// child with a startDebugging reverse request, answered on a new
	// connection ([Endpoint.Child]), or, when Shared, with a "process"
	// event on the parent's own connection.
	Follows bool
	// Shared: the children are more targets of the parent's connection
	// (delve's follow-exec): they stop and resume together, and the
	// adapter answers for the target that last stopped.
	Shared bool
	// Reason says what is followed when Follows, and otherwise why not
	// and what to do instead; get_debug_tools_status reports it.
	Reason string
	// Selected and Select, for Shared, ask which target the adapter
	// answers for (its pid) and make pid that target, through eval: an
	// evaluation in the adapter's REPL on the parent's connection.
	Selected func(ctx context.Context, eval Eval) (int, error)
	Select   func(ctx context.Context, eval Eval, pid int) error
}

// Eval evaluates expr in an adapter's REPL and returns the result.
type Eval func(ctx context.Context, expr string) (string, error)

// Builtin is an adapter that dbg holds in its own code, served
// standalone by `dbg dap NAME`.
type Builtin struct {
	// Name is the name `dbg dap` takes ("node").
	Name string
	// Serve speaks DAP on rw until the client disconnects or ctx ends;
	// log, when not nil, records the traffic.
	Serve func(ctx context.Context, rw io.ReadWriteCloser, log *dap.TrafficLog) error
}

// A probe record is the line a [Traits.ProbeCondition] writes:
// ProbeMarker, the probe's key, then each value after ProbeSep, and a
// newline. A value the program could not read is ProbeError followed by
// the error. The session manager takes these lines out of the output.
const (
	ProbeMarker = "\x1edbgtrace "
	ProbeSep    = "\x1f"
	ProbeError  = "\x15"
)

// NamesTarget reports whether an attach configuration (adapterConfig)
// names a target of a: a processId or port (every adapter; the session
// manager reads them as the target's pid and port), or one of a's
// AttachKeys, with a value that is neither null nor "".
func NamesTarget(a Adapter, cfg map[string]any) bool {
	for _, k := range append([]string{"processId", "port"}, a.Traits().AttachKeys...) {
		if v, ok := cfg[k]; ok && v != nil && v != "" {
			return true
		}
	}
	return false
}

// IsPath reports whether a's launch program names a file or directory
// (and not a module or class the adapter resolves by name).
func IsPath(a Adapter, program string) bool {
	named := a.Traits().NamedProgram
	return named == nil || !named(program)
}
