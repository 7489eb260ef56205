package toolkit

import (
	"context"
	"encoding/json"
	"fmt"
)

// Hints say what a tool does. Clients read them as the tool's MCP
// annotations (auto-approving read-only tools, warning before destructive
// ones); the server reads them to enforce its profile (see [Profile]),
// to ask before destructive calls and to audit the calls that change
// something. Each tool declares its own where it is added:
//
//	toolkit.AddTool(tb, "git_push", "Push the branch.", push,
//		toolkit.Hints{Title: "Git push", Destructive: true, OpenWorld: true, Alters: true})
type Hints struct {
	// Title is a short human-readable name.
	Title string
	// ReadOnly: the tool changes nothing, neither the program, nor the
	// debugger's state, nor a file or a repository.
	ReadOnly bool
	// Destructive: a call may destroy something (a process, a value, a
	// branch's state) rather than only add to it. [DestructiveWhen] says
	// which calls are.
	Destructive bool
	// Idempotent: a second identical call has no further effect.
	Idempotent bool
	// OpenWorld: the tool talks to the world outside the machine (a Git
	// remote).
	OpenWorld bool
	// Alters: the tool changes the program's data or code, or the
	// repository, beyond what a debugger observing it does (set a
	// variable, replace code, invoke a method, restart a configuration,
	// fetch or push). --profile observe leaves such tools out.
	Alters bool
}

func (h Hints) apply(s *toolSpec) { s.hints, s.declared = h, true }

// undeclared are the hints of a tool added without any: what MCP assumes
// of such a tool (it may destroy, it may reach out), and what the
// server then assumes too (not read-only, altering).
var undeclared = Hints{Destructive: true, OpenWorld: true, Alters: true}

// check panics on hints that contradict each other: a bug in the tool's
// declaration.
func (h Hints) check(name string) {
	if h.ReadOnly && (h.Destructive || h.Alters) {
		panic(fmt.Sprintf("tool %s: read-only hints cannot be destructive or alter the program", name))
	}
}

// A ToolOption is declared with a tool in [AddTool]: its [Hints], its
// toolset ([InToolset]), which of its calls are destructive
// ([DestructiveWhen]) and whether its answers link resources
// ([LinkResources]).
type ToolOption interface{ apply(*toolSpec) }

// toolSpec is what a tool's options declare.
type toolSpec struct {
	hints       Hints
	declared    bool // hints were given
	toolset     string
	destructive func(ctx context.Context, args json.RawMessage) bool
	links       bool
	listReveal  bool // see ListReveal
	enums       map[string][]any
	// decode decodes a call's arguments into a new input of the tool
	// (see callArgs.decode), set by AddTool.
	decode func(a *callArgs) error
}

type optionFunc func(*toolSpec)

func (f optionFunc) apply(s *toolSpec) { f(s) }

// InToolset puts the tool in the named toolset (default [CoreToolset]).
// The toolset is declared first, with [Toolbox.DeclareToolset].
func InToolset(name string) ToolOption {
	return optionFunc(func(s *toolSpec) { s.toolset = name })
}

// DestructiveWhen says which calls of a tool whose hints say Destructive
// are: f reads the call's arguments (close_debug_session is destructive
// on a launched program only). Without it every call is.
func DestructiveWhen(f func(ctx context.Context, args json.RawMessage) bool) ToolOption {
	return optionFunc(func(s *toolSpec) { s.destructive = f })
}

// LinkResources makes the tool's successful answers carry a link to
// every resource whose template names a field of the answer's data (see
// [ResourceTemplate.LinkField]).
func LinkResources() ToolOption {
	return optionFunc(func(s *toolSpec) { s.links = true })
}

// ListReveal lists the reveal argument in the tool's schema: a tool
// whose purpose is to read a program's values (variables, an evaluated
// expression, an invoked method's result). Every tool whose answer holds
// values takes reveal; the others leave it out of tools/list, where
// every byte is paid by the agent, and their answers' redacted values
// are read again with one of these.
func ListReveal() ToolOption {
	return optionFunc(func(s *toolSpec) { s.listReveal = true })
}

// Enum limits a top-level argument of the tool's input to values, in
// its schema (the decoder does not check them: the tool does).
func Enum(arg string, values ...any) ToolOption {
	return optionFunc(func(s *toolSpec) {
		if s.enums == nil {
			s.enums = map[string][]any{}
		}
		s.enums[arg] = values
	})
}

// destructiveCall reports whether this call of the tool is destructive.
func (s *toolSpec) destructiveCall(ctx context.Context, args json.RawMessage) bool {
	if !s.hints.Destructive {
		return false
	}
	return s.destructive == nil || s.destructive(ctx, args)
}
