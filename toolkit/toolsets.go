package toolkit

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// Toolsets: groups of tools a server lists, so that the default list
// stays small (docs/contract.md, "What an agent can afford and trust").
// Every tool belongs to one; [CoreToolset] is always listed, the others
// when [Policy.Toolsets] names them, when their Wanted says the project
// needs them (Policy.Toolsets nil; a set with [Toolset.Lead] tools then
// lists those only), or once enable_toolset turns them on. Tool names
// never change, and a tool outside the listed sets still answers a call:
// only the list is smaller.
const (
	// CoreToolset holds every tool added without [InToolset]. It is
	// always listed.
	CoreToolset = "core"
	// AllToolsets names every toolset, in --toolsets and enable_toolset.
	AllToolsets = "all"
)

// Toolset is a group of tools a capability declares.
type Toolset struct {
	Name        string
	Description string // one line, shown by get_debug_tools_status and enable_toolset
	// Wanted reports whether the server's project needs the set, which
	// it then lists by default. nil: only when asked for. It is called
	// once, when the set is declared, and must be cheap (a few stats).
	Wanted func() bool
	// Lead names the tools an agent needs first, which are all a set
	// lists when Wanted lists it; asking for the set (--toolsets,
	// enable_toolset) lists every one. nil: Wanted lists every tool.
	Lead []string
}

// toolset is a declared Toolset and what the server does with it.
type toolset struct {
	Toolset
	enabled bool     // every tool is listed
	lead    bool     // only the Lead tools are (the project wants the set)
	tools   []string // in the order they were added
}

// lists reports whether the set lists the named tool of its own.
func (s *toolset) lists(name string) bool {
	return s.enabled || (s.lead && slices.Contains(s.Lead, name))
}

// ToolsetState is one toolset as get_debug_tools_status reports it.
// Enabled says every tool of the set is listed; Lead names the tools
// listed of a set that is not (the ones a project needs first).
type ToolsetState struct {
	Name        string   `json:"name"`
	Enabled     bool     `json:"enabled"`
	Tools       int      `json:"tools"`
	Lead        []string `json:"lead,omitempty"`
	Description string   `json:"description"`
}

// DeclareToolset declares a toolset, before any tool is added to it, and
// decides whether it is listed (see [Policy.Toolsets]). Declaring a name
// twice keeps the first declaration.
func (tb *Toolbox) DeclareToolset(ts Toolset) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	tb.declareLocked(ts)
}

func (tb *Toolbox) declareLocked(ts Toolset) *toolset {
	if s := tb.sets[ts.Name]; s != nil {
		return s
	}
	s := &toolset{Toolset: ts}
	switch {
	case ts.Name == CoreToolset:
		s.enabled = true
	case tb.policy.Toolsets == nil:
		wanted := ts.Wanted != nil && ts.Wanted()
		s.enabled, s.lead = wanted && len(ts.Lead) == 0, wanted && len(ts.Lead) > 0
	default:
		s.enabled = slices.Contains(tb.policy.Toolsets, ts.Name) || slices.Contains(tb.policy.Toolsets, AllToolsets)
	}
	if tb.sets == nil {
		tb.sets = map[string]*toolset{}
	}
	tb.sets[ts.Name] = s
	tb.setOrder = append(tb.setOrder, ts.Name)
	return s
}

// Toolsets lists the declared toolsets in the order they were declared.
func (tb *Toolbox) Toolsets() []ToolsetState {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	out := make([]ToolsetState, 0, len(tb.setOrder))
	for _, name := range tb.setOrder {
		s := tb.sets[name]
		n := 0
		var lead []string
		for _, t := range s.tools {
			if e := tb.tools[t]; !e.refused {
				n++
				if !s.enabled && e.listed {
					lead = append(lead, t)
				}
			}
		}
		out = append(out, ToolsetState{Name: name, Enabled: s.enabled, Tools: n, Lead: lead, Description: s.Description})
	}
	return out
}

// EnableToolset lists the tools of the named toolset ([AllToolsets]: of
// every toolset), serving each again so that the server tells its
// clients the list changed, and returns the names it added to the list.
// Tools the profile refuses stay out.
func (tb *Toolbox) EnableToolset(name string) ([]string, error) {
	tb.mu.Lock()
	var sets []*toolset
	if name == AllToolsets {
		for _, n := range tb.setOrder {
			sets = append(sets, tb.sets[n])
		}
	} else if s := tb.sets[name]; s != nil {
		sets = []*toolset{s}
	} else {
		names := append(slices.Clone(tb.setOrder), AllToolsets)
		tb.mu.Unlock()
		return nil, NewError(CodeInvalidArgument, fmt.Sprintf("no toolset %q", Clip(name)), "pass one of availableOptions").WithOptions(names...)
	}
	var add []Tool
	tb.notes = nil
	for _, s := range sets {
		s.enabled, s.lead = true, false
		for _, n := range s.tools {
			if e := tb.tools[n]; !e.refused && !e.listed {
				e.listed = true
				add = append(add, e.tool)
			}
		}
	}
	tb.mu.Unlock()
	names := make([]string, 0, len(add))
	for _, t := range add {
		tb.serve(t)
		names = append(names, t.Name)
	}
	return names, nil
}

// Lookup returns the named tool, listed or not: a tool outside the
// listed toolsets answers calls all the same, and one the profile
// refuses answers UNSUPPORTED.
func (tb *Toolbox) Lookup(name string) (Tool, bool) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	e := tb.tools[name]
	if e == nil {
		return Tool{}, false
	}
	return e.tool, true
}

// Listed reports whether the named tool is in the server's tool list.
func (tb *Toolbox) Listed(name string) bool {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	e := tb.tools[name]
	return e != nil && e.listed
}

type enableIn struct {
	Name string `json:"name" jsonschema:"toolset name, or all"`
}

type enableOut struct {
	Toolset string   `json:"toolset"`
	Added   []string `json:"added"`
}

// AddToolsetTool adds enable_toolset, which lists a toolset's tools at
// run time (clients are sent notifications/tools/list_changed), and the
// "toolsets" section of get_debug_tools_status. Add it after every
// capability, so that it knows every toolset.
func AddToolsetTool(tb *Toolbox) {
	AddTool(tb, "enable_toolset", "List a toolset's tools (status names the sets).",
		func(ctx context.Context, in enableIn) (enableOut, error) {
			added, err := tb.EnableToolset(strings.TrimSpace(in.Name))
			if err != nil {
				return enableOut{}, err
			}
			return enableOut{Toolset: in.Name, Added: added}, nil
		}, Hints{Title: "Enable toolset", ReadOnly: true, Idempotent: true})
	tb.Status().Register("toolsets", toolsetStatus{tb})
}

type toolsetStatus struct{ tb *Toolbox }

type toolsetSection struct {
	Toolsets []ToolsetState `json:"toolsets"`
	Profile  Profile        `json:"profile"`
	Hint     string         `json:"hint"`
}

func (s toolsetStatus) Status(context.Context, StatusQuery) StatusPart {
	return StatusPart{Section: "toolsets", Data: toolsetSection{
		Toolsets: s.tb.Toolsets(), Profile: s.tb.Policy().Profile,
		Hint: "enable_toolset {name} lists a set's tools (or start the server with --toolsets NAME,... or all); lead names the tools a set the project needs lists before; a tool not listed answers calls all the same"}}
}
