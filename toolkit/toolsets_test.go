package toolkit

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
)

// served is a Toolbox's serve function keeping the tools it was handed.
type served struct {
	mu    sync.Mutex
	names []string
}

func (s *served) serve(t Tool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.names = append(s.names, t.Name)
}

func (s *served) list() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.names)
}

type nameOut struct {
	Name string `json:"name"`
}

// policyToolbox is a toolbox of p with a set wanted (on by default), one
// not wanted, and tools in each and in core: a read-only one, one that
// changes the debugger only, and one that alters the program.
func policyToolbox(t *testing.T, p Policy) (*Toolbox, *served) {
	t.Helper()
	s := &served{}
	tb := NewToolbox(s.serve, nil)
	tb.SetPolicy(p)
	tb.DeclareToolset(Toolset{Name: "wanted", Description: "needed", Wanted: func() bool { return true }})
	tb.DeclareToolset(Toolset{Name: "other", Description: "on demand"})
	echo := func(name string) func(context.Context, struct{}) (nameOut, error) {
		return func(context.Context, struct{}) (nameOut, error) { return nameOut{name}, nil }
	}
	AddTool(tb, "read", "reads", echo("read"), Hints{Title: "Read", ReadOnly: true})
	AddTool(tb, "step", "steps", echo("step"), Hints{Title: "Step"})
	AddTool(tb, "poke", "alters", echo("poke"), Hints{Title: "Poke", Destructive: true, Alters: true})
	AddTool(tb, "wanted_read", "reads", echo("wanted_read"), Hints{Title: "Wanted read", ReadOnly: true}, InToolset("wanted"))
	AddTool(tb, "other_read", "reads", echo("other_read"), Hints{Title: "Other read", ReadOnly: true}, InToolset("other"))
	AddTool(tb, "other_poke", "alters", echo("other_poke"), Hints{Title: "Other poke", Destructive: true, Alters: true}, InToolset("other"))
	return tb, s
}

// listed returns the names of the tools tb lists, in the order added.
func listed(tb *Toolbox) []string {
	var out []string
	for _, n := range tb.Names() {
		if tb.Listed(n) {
			out = append(out, n)
		}
	}
	return out
}

func call(t *testing.T, tb *Toolbox, name, args string) (Envelope[json.RawMessage], bool) {
	t.Helper()
	tool, ok := tb.Lookup(name)
	if !ok {
		t.Fatalf("no tool %s", name)
	}
	b, failed := tool.Call(context.Background(), json.RawMessage(args))
	var env Envelope[json.RawMessage]
	if err := json.Unmarshal(b, &env); err != nil {
		t.Fatalf("%s: %s: %v", name, b, err)
	}
	return env, failed
}

// The default lists core and the sets whose Wanted says so; a set not
// listed still answers calls, and EnableToolset lists it.
func TestToolsetsDefaultAndEnable(t *testing.T) {
	t.Parallel()
	tb, s := policyToolbox(t, Policy{})
	if got, want := listed(tb), []string{"read", "step", "poke", "wanted_read"}; !slices.Equal(got, want) {
		t.Fatalf("listed %v, want %v", got, want)
	}
	if tb.Listed("other_read") {
		t.Fatal("other_read is listed")
	}
	if env, failed := call(t, tb, "other_read", `{}`); failed || !strings.Contains(string(*env.Data), "other_read") {
		t.Fatalf("a call to an unlisted tool: %+v", env)
	}
	if n := len(s.list()); n != 6 {
		t.Fatalf("%d tools served, want every one", n)
	}
	added, err := tb.EnableToolset("other")
	if err != nil || !slices.Equal(added, []string{"other_read", "other_poke"}) || !tb.Listed("other_poke") {
		t.Fatalf("EnableToolset: %v %v", added, err)
	}
	if got := s.list()[6:]; !slices.Equal(got, added) {
		t.Errorf("served again %v, want the tools it lists now", got)
	}
	if again, err := tb.EnableToolset("other"); err != nil || len(again) != 0 {
		t.Fatalf("enabling twice added %v %v", again, err)
	}
	_, err = tb.EnableToolset("nosuch")
	var te *ToolError
	if !asToolError(err, &te) || te.Code != CodeInvalidArgument || !slices.Contains(te.AvailableOptions, "other") || !slices.Contains(te.AvailableOptions, AllToolsets) {
		t.Fatalf("an unknown toolset: %v", err)
	}
	var states []string
	for _, st := range tb.Toolsets() {
		states = append(states, st.Name+"="+map[bool]string{true: "on", false: "off"}[st.Enabled])
	}
	if want := []string{"core=on", "wanted=on", "other=on"}; !slices.Equal(states, want) {
		t.Errorf("Toolsets %v, want %v", states, want)
	}
}

// leadToolbox is a toolbox of p with a wanted set that leads with one
// of its two tools.
func leadToolbox(t *testing.T, p Policy) *Toolbox {
	t.Helper()
	tb := NewToolbox(func(Tool) {}, nil)
	tb.SetPolicy(p)
	tb.DeclareToolset(Toolset{Name: "led", Description: "needed first", Wanted: func() bool { return true }, Lead: []string{"led_first"}})
	for _, name := range []string{"led_first", "led_later"} {
		AddTool(tb, name, "reads", func(context.Context, struct{}) (nameOut, error) { return nameOut{name}, nil },
			Hints{Title: name, ReadOnly: true}, InToolset("led"))
	}
	return tb
}

// A set that Wanted lists lists its Lead tools only, and says so; asked
// for, by the policy or by EnableToolset, it lists every tool.
func TestToolsetsLead(t *testing.T) {
	t.Parallel()
	tb := leadToolbox(t, Policy{})
	if got := listed(tb); !slices.Equal(got, []string{"led_first"}) {
		t.Fatalf("listed %v, want the lead tool only", got)
	}
	if env, failed := call(t, tb, "led_later", `{}`); failed || !strings.Contains(string(*env.Data), "led_later") {
		t.Fatalf("a call to a tool the lead leaves out: %+v", env)
	}
	st := tb.Toolsets()[1]
	if st.Name != "led" || st.Enabled || st.Tools != 2 || !slices.Equal(st.Lead, []string{"led_first"}) {
		t.Fatalf("the led set's state: %+v", st)
	}
	if added, err := tb.EnableToolset("led"); err != nil || !slices.Equal(added, []string{"led_later"}) {
		t.Fatalf("EnableToolset: %v %v", added, err)
	}
	if st := tb.Toolsets()[1]; !st.Enabled || st.Lead != nil {
		t.Errorf("the led set's state once enabled: %+v", st)
	}
	for _, p := range []Policy{{Toolsets: []string{"led"}}, {Toolsets: []string{AllToolsets}}} {
		if got := listed(leadToolbox(t, p)); !slices.Equal(got, []string{"led_first", "led_later"}) {
			t.Errorf("--toolsets %v: listed %v, want every tool", p.Toolsets, got)
		}
	}
	if got := listed(leadToolbox(t, Policy{Toolsets: []string{}})); len(got) != 0 {
		t.Errorf("--toolsets core: listed %v", got)
	}
}

func asToolError(err error, te **ToolError) bool {
	e, ok := err.(*ToolError)
	*te = e
	return ok
}

// Policy.Toolsets lists core and the named sets only, whatever Wanted
// says; all lists every set.
func TestToolsetsNamed(t *testing.T) {
	t.Parallel()
	tb, _ := policyToolbox(t, Policy{Toolsets: []string{"other"}})
	if got, want := listed(tb), []string{"read", "step", "poke", "other_read", "other_poke"}; !slices.Equal(got, want) {
		t.Errorf("--toolsets other: listed %v, want %v", got, want)
	}
	tb, _ = policyToolbox(t, Policy{Toolsets: []string{AllToolsets}})
	if got := listed(tb); len(got) != 6 {
		t.Errorf("--toolsets all: listed %v", got)
	}
}

// A profile leaves out the tools it refuses, even from an enabled set,
// and a call to one answers UNSUPPORTED naming the profile.
func TestProfilesRefuse(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		p       Profile
		listed  []string
		refused []string
	}{
		{ProfileFull, []string{"read", "step", "poke", "wanted_read", "other_read", "other_poke"}, nil},
		{ProfileObserve, []string{"read", "step", "wanted_read", "other_read"}, []string{"poke", "other_poke"}},
		{ProfileReadOnly, []string{"read", "wanted_read", "other_read"}, []string{"step", "poke", "other_poke"}},
	} {
		t.Run(string(c.p), func(t *testing.T) {
			tb, _ := policyToolbox(t, Policy{Toolsets: []string{AllToolsets}, Profile: c.p})
			if got := listed(tb); !slices.Equal(got, c.listed) {
				t.Errorf("listed %v, want %v", got, c.listed)
			}
			for _, name := range c.refused {
				env, failed := call(t, tb, name, `{}`)
				if !failed || env.Error == nil || env.Error.Code != CodeUnsupported || !strings.Contains(env.Error.Message, "--profile "+string(c.p)) {
					t.Errorf("%s under %s: %+v", name, c.p, env.Error)
				}
			}
			if added, _ := tb.EnableToolset(AllToolsets); len(added) != 0 {
				t.Errorf("enable all added %v, which the profile refuses", added)
			}
			for _, name := range c.listed {
				if _, failed := call(t, tb, name, `{}`); failed {
					t.Errorf("%s failed under %s", name, c.p)
				}
			}
		})
	}
}

func TestParseProfile(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "full", "observe", "read-only"} {
		if _, err := ParseProfile(s); err != nil {
			t.Errorf("%q: %v", s, err)
		}
	}
	if _, err := ParseProfile("readonly"); err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Errorf("readonly: %v", err)
	}
}

// Hints that contradict each other are a bug of the declaration.
func TestHintsContradiction(t *testing.T) {
	t.Parallel()
	tb := NewToolbox(func(Tool) {}, nil)
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "read-only") {
			t.Errorf("recovered %v", r)
		}
	}()
	AddTool(tb, "bad", "", func(context.Context, struct{}) (nameOut, error) { return nameOut{}, nil }, Hints{Title: "Bad", ReadOnly: true, Destructive: true})
}

// A tool declared without hints is served with MCP's defaults: it may
// destroy and reach out, so every profile but full refuses it.
func TestUndeclaredHints(t *testing.T) {
	t.Parallel()
	var got Tool
	tb := NewToolbox(func(t Tool) { got = t }, nil)
	AddTool(tb, "plain", "", func(context.Context, struct{}) (nameOut, error) { return nameOut{}, nil })
	if got.HintsDeclared || !got.Hints.Destructive || !got.Hints.OpenWorld || got.Hints.ReadOnly {
		t.Errorf("undeclared hints: %+v", got)
	}
}
