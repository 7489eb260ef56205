// Package adapters knows how to find, start and talk to each language's
// debug adapter. One file (or sub-package) per language; the [Registry]
// maps language names to [Adapter]s.
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

// Quirks are known deviations of an adapter that the session manager
// papers over, so every language behaves alike to the user.
type Quirks struct {
	// NoTerminatedEvent: the adapter closes the stream instead of sending
	// "terminated" (old rdbg).
	NoTerminatedEvent bool
	// EmptyBreakpointsDoNotClear: setBreakpoints with an empty list keeps
	// the old ones; the manager removes them some other way (old rdbg).
	EmptyBreakpointsDoNotClear bool
	// RepeatedPauseStops: attach produces several stopped(pause) events;
	// only the first is reported.
	RepeatedPauseStops bool
	// AttachPID is the attach argument name for a process id: "processId"
	// (default) or "pid" (lldb-dap).
	AttachPIDKey string
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
	// Quirks returns known deviations from the protocol.
	Quirks() Quirks
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
