// Package adapters knows how to find, start and talk to each language's
// debug adapter. One file (or sub-package) per language; the [Registry]
// maps language names to [Adapter]s.
//
// Everything dbg knows about a language is declared here, by its
// adapter: the [Adapter] methods (how the adapter is found and started,
// the launch and attach arguments it takes, the stop reasons and
// exception filters it maps) and its [Traits], everything else (how the
// language's files and processes are recognised, whether it is native,
// which abilities its adapter has, what the tools around a session need
// of it). No package outside this one compares a language's name; each
// asks the declaration, and internal/layout's tests hold them to it.
// Adapters that run an outside program declare it as a [Tool], which
// finds, describes and installs it.
//
// # Adding a language: PHP through Xdebug
//
// PHP is debugged by Xdebug, a PHP extension that connects out to a
// debugger, and Xdebug's DAP adapter (vscode-php-debug: `node
// phpDebug.js`, speaking DAP on its stdio) is that debugger. A new
// language is five things, and nothing else changes:
//
// 1. Its adapter, adapters/php.go: a type with the [Adapter] methods,
// its outside program declared as a [Tool] (pinned, so `dbg adapters
// install php` installs it), and its declaration:
//
//	// PHP debugs PHP scripts with Xdebug's DAP adapter, which runs the
//	// script under php with Xdebug and listens for Xdebug's connection.
//	type PHP struct{}
//
//	func (PHP) Language() string { return "php" }
//
//	// Start runs `node phpDebug.js` with DAP on its stdio.
//	func (PHP) Start(ctx context.Context, t Target) (*Endpoint, error) {
//		js, err := phpDebugTool.Path()
//		...
//		p, err := dap.StartProcess(exec.Command(node, js), dap.ProcessOptions{Stdio: true})
//		return &Endpoint{Conn: p, Process: p}, err
//	}
//
//	// LaunchArgs: the adapter runs the program itself, on a free port.
//	func (PHP) LaunchArgs(_ context.Context, t Target) (map[string]any, error) {
//		return merge(map[string]any{"program": absPath(t.Program), "args": t.Args, "cwd": t.Cwd,
//			"env": t.Env, "port": 0, "stopOnEntry": t.StopOnEntry,
//			"runtimeArgs": []string{"-dxdebug.mode=debug", "-dxdebug.start_with_request=yes"}}, t.Extra), nil
//	}
//
//	// ExceptionFilters: Xdebug's error levels, "*" for every one.
//	func (PHP) ExceptionFilters(mode string) []string { return standardFilters(mode, "*", "Exception") }
//
//	func (PHP) Traits() Traits {
//		return Traits{Extensions: []string{".php"}, Commands: []string{"php*"}, LaunchTypes: []string{"php"}}
//	}
//
// AttachArgs says how a running program is reached: Xdebug connects to
// the adapter, so an attach is the adapter listening on adapterConfig's
// port, and attach by pid is refused with that reason. From the
// declaration alone, `dbg launch app.php` and `dbg attach --pid` know the
// language, traces run in stop mode (set HeldLogpoints once the adapter
// is shown to write a logpoint's output before the script goes on), and
// set_data_breakpoint refuses with the adapter's own words (set
// NoDataBreakpoints to say more).
//
// 2. One line in default.go: r.Register(PHP{}, "php8").
//
// 3. One row in the conformance table (cmd/dbg/conformance_langs_test.go):
// the fixtures, their marked lines, the values a stop shows, how to start
// a target to attach to, and in cannot the scenarios PHP answers with a
// clean refusal (restart_frame, goto_line, watch).
//
// 4. Its fixtures, testdata/php/: the loop, the exception, the spinning
// target the row names, each line the tests stop at marked by a comment.
//
// 5. Its deps script, scripts/deps/php.sh: php with Xdebug and the
// adapter, pinned (scripts/install-test-deps.sh runs every deps script).
//
// Beyond the five, only what is new to dbg: a test framework
// (testrun/phpunit.go, one entry in testrun's frameworks) for
// debug_test, or a launchKinds row (ide/launchjson.go) for
// debug_run_configuration to read launch.json's php entries.
// docs/adding-a-language.md walks through the same steps.
package adapters

import (
	"context"
	"io"
	"sync"

	"github.com/dbg-dev/dbg/dap"
)

// Mode is how a session reaches its debuggee.
type Mode string

const (
	Launch Mode = "launch"
	Attach Mode = "attach"
	// Core: a post-mortem session of a core file ([Traits.Core] says
	// which request opens it).
	Core Mode = "core"
)

// Target is what a session debugs. Adapters turn it into their own launch
// or attach arguments. Fields that do not apply to a mode are ignored.
type Target struct {
	Mode Mode

	// Launch.
	Program     string            // scriptPath: a source file, binary, package dir, class...
	Args        []string          // program arguments
	Cwd         string            // working directory ("" = the program's directory)
	Env         map[string]string // extra environment
	StopOnEntry bool
	// Through, when set, is a script of the caller's, in the language,
	// with the runtime's options before it, that the runtime runs in
	// place of its own start of the program; the script gets the
	// command line the runtime would have run (a test runner's start
	// that connects the debugger once the runner itself is loaded).
	// Adapters whose Traits say RunsThrough honour it.
	Through []string

	// Attach.
	PID  int
	Host string
	Port int
	// StopOnAttach: the session wants the target stopped once attached
	// (create_debug_session's stopOnEntry, true by default). The manager
	// pauses it unless the adapter reported a stop itself.
	StopOnAttach bool

	// Core: the core file; Program is the program that crashed.
	CoreFile string

	// Remote, when set, is the program on another machine a via reaches
	// (its PID is the target's); Host and Port then name the forwarded end
	// of a debugger port the program serves itself, when it does.
	Remote *RemoteEnd

	// Both.
	ExecutablePath string // the language runtime to use (python, node, java...)
	// NoChildren: the session does not follow the program's child
	// processes (create_debug_session's childProcesses: false).
	NoChildren   bool
	JustMyCode   *bool          // nil = adapter default
	SourcePaths  []string       // source roots for mapping
	PathMappings []PathMapping  // remote folders and their local copies
	Extra        map[string]any // dapLaunchArgs / adapterConfig, merged last
}

// Info describes an adapter as found on this machine.
type Info struct {
	Language       string   `json:"language"`
	Adapter        string   `json:"adapter"`
	Found          bool     `json:"found"`
	Path           string   `json:"path,omitempty"`
	Version        string   `json:"version,omitempty"`
	Builtin        bool     `json:"builtin,omitempty"`
	Launch         bool     `json:"launch"`
	AttachPID      bool     `json:"attachByPid"`
	AttachPort     bool     `json:"attachByPort"`
	InstallCommand string   `json:"installCommand,omitempty"`
	Aliases        []string `json:"aliases,omitempty"`
	Note           string   `json:"note,omitempty"`

	// AttachPIDVia names, once this machine was tried (see
	// [MachineChecker]), what attach by pid goes through here ("gdb",
	// "lldb-16", "sys.remote_exec"); AttachPIDReason says why it does
	// not work here, when AttachPID is false for that reason.
	AttachPIDVia    string `json:"attachByPidVia,omitempty"`
	AttachPIDReason string `json:"attachByPidReason,omitempty"`
}

// Endpoint is a started adapter: the DAP stream plus what must be stopped
// when the session ends.
type Endpoint struct {
	// Conn is the DAP stream (child stdio, TCP socket, or an in-process pipe).
	Conn io.ReadWriteCloser
	// Process is the adapter process, nil for in-process built-ins.
	Process *dap.Process
	// Cleanup, when set, runs after Conn is closed and Process stopped
	// (built-ins stop their debuggee here; temp files are removed).
	Cleanup func()
	// Child, when set, opens another DAP stream to the same adapter, for
	// the child sessions its startDebugging reverse requests ask for
	// (vscode-js-debug, debugpy): cfg is the request's configuration
	// (debugpy names there the address its adapter serves clients on).
	// Nil means the adapter has none.
	Child func(ctx context.Context, cfg map[string]any) (io.ReadWriteCloser, error)
	// Interpreter, when set, is the language runtime the session runs on
	// and why it was picked; the create and start answers report it.
	Interpreter *Interpreter

	closeOnce sync.Once
}

// Close closes the stream, stops the process group, and runs Cleanup.
// It is safe to call more than once, from several goroutines: the first
// call does the work, the others wait for it.
func (e *Endpoint) Close(ctx context.Context) {
	if e == nil {
		return
	}
	e.closeOnce.Do(func() {
		if e.Conn != nil {
			_ = e.Conn.Close()
		}
		if e.Process != nil {
			e.Process.Stop(ctx)
		}
		if e.Cleanup != nil {
			e.Cleanup()
		}
	})
}

// Adapter is one language's debug adapter.
//
// Implementations are safe for concurrent use: one Adapter value serves
// every session of its language. Methods that run external commands take a
// context and honour its deadline.
type Adapter interface {
	// Language is the canonical language name ("go", "python", ...).
	Language() string
	// Find locates the adapter executable and reports its version.
	Find(ctx context.Context) Info
	// Start starts the adapter for target and returns its DAP stream.
	Start(ctx context.Context, t Target) (*Endpoint, error)
	// LaunchArgs builds the "launch" request arguments. It may build the
	// program first (C sources, COBOL); a build failure is an error whose
	// text includes the compiler output.
	LaunchArgs(ctx context.Context, t Target) (map[string]any, error)
	// AttachArgs builds the "attach" request arguments.
	AttachArgs(ctx context.Context, t Target) (map[string]any, error)
	// StopReason maps the adapter's stop reason to DAP's standard ones
	// ("breakpoint", "step", "exception", "pause", "entry", ...).
	StopReason(reason string) string
	// ExceptionFilters returns the exception breakpoint filter ids for a
	// mode: "all", "uncaught" or "none".
	ExceptionFilters(mode string) []string
	// Traits declares everything else dbg knows about the language:
	// how its programs are recognised, what the adapter can do, and what
	// the tools around it need (see [Traits]). It is cheap: callers ask
	// it where they need it rather than keep it.
	Traits() Traits
}

// Installer is implemented by adapters that dbg can install
// (`dbg adapters install LANG`). Each command is an argv, run in order,
// with pinned versions.
type Installer interface {
	InstallCommands() [][]string
}
