package sessiontools

import (
	"context"

	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
)

// The observation tools (docs/contract.md, "Beyond the peers"): data breakpoints and traces.

type probeIn struct {
	File        string      `json:"file,omitempty" jsonschema:"source file of the probe (with line)"`
	Line        toolkit.Int `json:"line,omitempty" jsonschema:"1-based line of the probe"`
	Function    string      `json:"function,omitempty" jsonschema:"function to probe instead of file/line"`
	Expressions []string    `json:"expressions,omitempty" jsonschema:"expressions read at each hit, in the program's language"`
	Condition   string      `json:"condition,omitempty" jsonschema:"count only the hits where this is true"`
	MaxHits     toolkit.Int `json:"maxHits,omitempty" jsonschema:"stop counting (and remove the probe) after this many hits; 0: no limit"`
}

type addTraceIn struct {
	SessionRef
	Probes   []probeIn   `json:"probes" jsonschema:"the probes: {file, line} or {function}, each with expressions"`
	Distinct toolkit.Int `json:"distinct,omitempty" jsonschema:"distinct values kept per expression, with counts (default 20, max 1000)"`
	Stacks   toolkit.Int `json:"stacks,omitempty" jsonschema:"stacks sampled per probe, from its first hits (default 3, max 20; -1: none)"`
	Buffer   toolkit.Int `json:"buffer,omitempty" jsonschema:"hits kept per trace for recent; older ones are counted as dropped (default 1000)"`
}

type traceIn struct {
	SessionRef
	TraceID string      `json:"traceId" alias:"id" jsonschema:"the id add_trace answered"`
	Recent  toolkit.Int `json:"recent,omitempty" jsonschema:"also return up to this many of the newest hits with their values"`
}

type traceOut struct {
	sessions.TraceReport
	SessionID string `json:"sessionId"`
}

func registerObserveTools(tb *toolkit.Toolbox, m *sessions.Manager) {
	sessionTool(tb, m, "add_trace", "Add probes that never stop the program: each hit is counted and its expressions read; get_trace sums them up.",
		func(ctx context.Context, s *sessions.Session, in addTraceIn) (traceOut, error) {
			spec := sessions.TraceSpec{Distinct: int(in.Distinct), Stacks: int(in.Stacks), Buffer: int(in.Buffer)}
			for _, p := range in.Probes {
				if err := checkSource(m, s, "file", p.File); err != nil {
					return traceOut{}, err
				}
				spec.Probes = append(spec.Probes, sessions.TraceProbeSpec{File: p.File, Line: int(p.Line), Function: p.Function,
					Expressions: p.Expressions, Condition: p.Condition, MaxHits: int(p.MaxHits)})
			}
			r, err := s.AddTrace(ctx, spec)
			return traceOut{TraceReport: r, SessionID: s.ID()}, err
		}, toolkit.Hints{Title: "Add trace"}, toolkit.InToolset(ObserveToolset))
	sessionTool(tb, m, "get_trace", "A trace's report: per probe hits and times, per expression first/last/min/max and distinct values, sampled stacks.",
		func(ctx context.Context, s *sessions.Session, in traceIn) (traceOut, error) {
			r, err := s.GetTrace(in.TraceID, int(in.Recent))
			return traceOut{TraceReport: r, SessionID: s.ID()}, err
		}, toolkit.Hints{Title: "Read trace", ReadOnly: true}, toolkit.InToolset(ObserveToolset))
	sessionTool(tb, m, "remove_trace", "Remove a trace's probes; answers its final report.",
		func(ctx context.Context, s *sessions.Session, in traceIn) (traceOut, error) {
			r, err := s.RemoveTrace(ctx, in.TraceID)
			if err != nil && r.TraceID == "" {
				return traceOut{}, err
			}
			return traceOut{TraceReport: r, SessionID: s.ID()}, err
		}, toolkit.Hints{Title: "Remove trace", Idempotent: true}, toolkit.InToolset(ObserveToolset))
	sessionTool(tb, m, "set_data_breakpoint", "Stop when a variable or field is written (or read); the stop says old and new value and the writing frame.",
		func(ctx context.Context, s *sessions.Session, in dataBreakpointIn) (breakpointOut, error) {
			bp, err := s.SetDataBreakpoint(ctx, sessions.DataBreakpointSpec{Expression: in.Expression, Name: in.Name,
				FrameID: int(in.FrameID), VariablesReference: int(in.VariablesReference), AccessType: in.AccessType,
				Condition: in.Condition, HitCondition: in.HitCondition})
			if err != nil {
				return breakpointOut{}, err
			}
			return breakpointOut{Breakpoint: bp, SessionID: s.ID(), compact: named(tb, in, s)}, nil
		}, toolkit.Hints{Title: "Data breakpoint"}, toolkit.InToolset(ObserveToolset), toolkit.Enum("accessType", "write", "read", "readWrite"))
}

type dataBreakpointIn struct {
	SessionRef
	Expression         string      `json:"expression,omitempty" jsonschema:"the variable or field to watch (a global, obj.field, Class.field)"`
	Name               string      `json:"name,omitempty" jsonschema:"a variable's name, in variablesReference's container (from get_variables) or else in the frame, instead of expression"`
	FrameID            toolkit.Int `json:"frameId,omitempty" jsonschema:"frame the expression is read in (default: the top frame)"`
	VariablesReference toolkit.Int `json:"variablesReference,omitempty" jsonschema:"container of name (from get_variables)"`
	AccessType         string      `json:"accessType,omitempty" jsonschema:"write (default), read or readWrite"`
	Condition          string      `json:"condition,omitempty" jsonschema:"stop only when this is true"`
	HitCondition       string      `json:"hitCondition,omitempty" jsonschema:"N, >= N, > N, < N, <= N or % N, as for set_breakpoint"`
}
