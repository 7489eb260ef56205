// Package adapters knows how to find, start and talk to each language's
// debug adapter. One file (or sub-package) per language; the [Registry]
// maps language names to [Adapter]s.
//
// Everything the session manager must know about one adapter is in the
// [Adapter] contract: the arguments it builds, the stop reasons and
// exception filters it maps, and the [Traits] it declares (which
// adapterConfig keys name an attach target, which programs are names
// rather than files). Adapters that run an outside program declare it as
// a [Tool], which finds, describes and installs it.
package adapters

import (
	"context"
	"io"
	"sort"
	"strings"
	"sync"

	"github.com/dbg-dev/dbg/dap"
)

// Mode is how a session reaches its debuggee.
type Mode string

const (
	Launch Mode = "launch"
	Attach Mode = "attach"
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

	// Attach.
	PID  int
	Host string
	Port int

	// Both.
	ExecutablePath string         // the language runtime to use (python, node, java...)
	JustMyCode     *bool          // nil = adapter default
	SourcePaths    []string       // source roots for mapping
	Extra          map[string]any // dapLaunchArgs / adapterConfig, merged last
}

// Traits is what an adapter declares about its inputs, so that the session
// manager treats every adapter alike and knows none by name. The zero
// value says: attach targets are named by processId or port only, and a
// launch program is a path.
//
// Traits is not where adapter fixes go. An adapter fixes its own
// deviations, in one place each: the arguments of the launch and attach
// requests in [Adapter.LaunchArgs] and [Adapter.AttachArgs] (lldb-dap
// attaches by "pid", netcoredbg by "processId"), and deviations of the
// protocol in a proxy in front of the stream [Adapter.Start] returns (old
// rdbg's repeated pause stops and missing terminated event, lldb's
// dropped pauses). The manager applies no fix of its own.
type Traits struct {
	// AttachKeys are the adapterConfig keys, beyond processId and port,
	// that name an attach target (Dart's vmServiceUri, the inspector's
	// websocketAddress): a create request carrying one attaches at once.
	AttachKeys []string
	// NamedProgram reports whether a launch program (scriptPath) is a
	// name the adapter resolves rather than a file: a Python module
	// ("-m pkg"), a Java main class. The manager checks that any other
	// program exists and makes it absolute. Nil: every program is a path.
	NamedProgram func(program string) bool
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
	// Chatter are the console lines the adapter prints of itself at every
	// start ("Type 'dlv help' for list of commands."), which say nothing
	// of the program: the session leaves them out of its output.
	Chatter []string
}

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
	// (vscode-js-debug). Nil means the adapter has none.
	Child func(ctx context.Context) (io.ReadWriteCloser, error)
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
	// Traits declares what the session manager must know about the
	// adapter's inputs.
	Traits() Traits
}

// Registry maps language names and aliases to adapters. It is safe for
// concurrent use.
type Registry struct {
	mu      sync.RWMutex
	byName  map[string]Adapter
	aliases map[string]string
}

// NewRegistry returns a registry holding as.
func NewRegistry(as ...Adapter) *Registry {
	r := &Registry{byName: map[string]Adapter{}, aliases: map[string]string{}}
	for _, a := range as {
		r.Register(a)
	}
	return r
}

// Register adds a (replacing one of the same language) and its aliases.
func (r *Registry) Register(a Adapter, aliases ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.byName[a.Language()] = a
	for _, al := range aliases {
		r.aliases[strings.ToLower(al)] = a.Language()
	}
}

// Lookup finds the adapter of a language or alias (case-insensitive).
func (r *Registry) Lookup(lang string) (Adapter, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	l := strings.ToLower(strings.TrimSpace(lang))
	if canon, ok := r.aliases[l]; ok {
		l = canon
	}
	a, ok := r.byName[l]
	return a, ok
}

// Languages returns the canonical names, sorted.
func (r *Registry) Languages() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]string, 0, len(r.byName))
	for k := range r.byName {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Aliases returns the aliases of a canonical language name, sorted.
func (r *Registry) Aliases(lang string) []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var out []string
	for al, canon := range r.aliases {
		if canon == lang {
			out = append(out, al)
		}
	}
	sort.Strings(out)
	return out
}

// Installer is implemented by adapters that dbg can install
// (`dbg adapters install LANG`). Each command is an argv, run in order,
// with pinned versions.
type Installer interface {
	InstallCommands() [][]string
}
