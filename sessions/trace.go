package sessions

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/dbg-dev/dbg/toolkit"
)

// A trace is a set of probes that never stop the program. Each probe is a
// breakpoint dbg owns (hidden from list_breakpoints) in one of two modes:
//
//   - stop mode: the adapter stops at the probe; dbg reads the
//     expressions in the top frame and continues at once, without the
//     stop ever showing. Every hit is counted while the program waits, so
//     no hit is lost, even when the program exits right after.
//   - log mode: a logpoint whose message carries the probe and the
//     values, marked so dbg takes it out of the output. Used only where
//     the adapter delivers a logpoint's output before the program goes
//     on (adapters.Traits.HeldLogpoints), so counts stay exact.
//
//   - record mode (launched programs of an adapter that declares
//     adapters.Traits.ProbeCondition: Python's): a breakpoint whose
//     condition writes the hit to the program's stdout pipe and is false
//     (see tracerecord.go).
//
// A probe starts in stop mode until it has its sampled stacks, then
// switches to log or record mode where the adapter allows it.

// TraceProbeSpec is one probe of a trace.
type TraceProbeSpec struct {
	File        string
	Line        int
	Function    string
	Expressions []string
	Condition   string
	MaxHits     int // 0: no limit
}

// TraceSpec is a trace to add.
type TraceSpec struct {
	Probes   []TraceProbeSpec
	Distinct int // distinct values kept per expression (default 20)
	Stacks   int // stacks sampled per probe (default 3)
	Buffer   int // hits kept per trace (default 1000)
}

// Trace limits.
const (
	defaultTraceDistinct = 20
	defaultTraceStacks   = 3
	defaultTraceBuffer   = 1000
	maxTraceBuffer       = 100000
	maxTraceProbes       = 50
	maxTraceExpressions  = 10
	maxTraceDistinct     = 1000
	maxTraceStacks       = 20
	traceStackDepth      = 10
)

// traceSet holds a session's traces. Guarded by the session's mu.
type traceSet struct {
	next   int
	traces map[string]*trace
	hitMu  sync.Mutex // serialises the handling of stop-mode hits
	// retired are the adapter ids of probes removed while the program
	// ran: a stop at one that was on its way is no user's stop.
	retired map[int]bool
	pend    map[string]string // per output category, a marked line not yet ended
}

type trace struct {
	id       string
	created  time.Time
	probes   []*traceProbe
	distinct int
	stacks   int
	bufCap   int
	buf      []TraceHit // the newest hits, at most bufCap
	dropped  int
}

type traceProbe struct {
	trace    *trace
	index    int // 1-based within the trace
	spec     TraceProbeSpec
	bp       *Breakpoint
	hits     int
	first    time.Time
	last     time.Time
	exprs    []ExprStats
	stacks   [][]TraceFrame
	done     bool // reached maxHits, or removed
	logMode  bool
	doneNote string
	ignored  int // hits reported after the probe was done
}

// TraceFrame is one frame of a sampled stack.
type TraceFrame struct {
	Function string `json:"function,omitempty"`
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
}

// ProbeReport is get_trace's table for one probe.
type ProbeReport struct {
	Probe       int            `json:"probe"`
	File        string         `json:"file,omitempty"`
	Line        int            `json:"line,omitempty"`
	Function    string         `json:"function,omitempty"`
	Condition   string         `json:"condition,omitempty"`
	MaxHits     int            `json:"maxHits,omitempty"`
	Verified    bool           `json:"verified"`
	Message     string         `json:"message,omitempty"`
	Mode        string         `json:"mode"` // stop (evaluate and continue), log (logpoint) or record (a condition that records)
	Hits        int            `json:"hits"`
	FirstHit    *time.Time     `json:"firstHit,omitempty"`
	LastHit     *time.Time     `json:"lastHit,omitempty"`
	Expressions []ExprStats    `json:"expressions"`
	Stacks      [][]TraceFrame `json:"stacks,omitempty"`
	Done        string         `json:"done,omitempty"` // why the probe stopped counting
}

// TraceReport is what get_trace answers.
type TraceReport struct {
	TraceID  string        `json:"traceId"`
	Created  time.Time     `json:"created"`
	Probes   []ProbeReport `json:"probes"`
	Buffered int           `json:"buffered"`
	Dropped  int           `json:"dropped"` // hits pushed out of the full buffer
	Recent   []TraceHit    `json:"recent,omitempty"`
}

func (b *breakpointSet) traceSet() *traceSet {
	if b.traces == nil {
		b.traces = &traceSet{traces: map[string]*trace{}}
	}
	return b.traces
}

// AddTrace adds a trace. Before the session starts its probes are kept
// and sent at launch, like breakpoints.
func (s *Session) AddTrace(ctx context.Context, spec TraceSpec) (TraceReport, error) {
	if err := s.snapshotError("be traced: nothing runs"); err != nil {
		return TraceReport{}, err
	}
	if err := checkTraceSpec(&spec); err != nil {
		return TraceReport{}, err
	}
	probes := make([]*traceProbe, len(spec.Probes))
	for i, ps := range spec.Probes {
		bp, err := s.probeBreakpoint(ps)
		if err != nil {
			return TraceReport{}, err
		}
		probes[i] = &traceProbe{index: i + 1, spec: ps, bp: bp, exprs: make([]ExprStats, len(ps.Expressions))}
		for j, e := range ps.Expressions {
			probes[i].exprs[j].Expression = e
		}
	}
	s.mu.Lock()
	ts := s.bps.traceSet()
	for _, p := range probes {
		if p.bp.File != "" {
			for _, other := range s.bps.byFile[p.bp.File] {
				if other.Line == p.bp.Line {
					s.mu.Unlock()
					return TraceReport{}, toolkit.NewError(toolkit.CodeInvalidArgument,
						fmt.Sprintf("%s:%d already holds a breakpoint or probe (id %d)", p.bp.File, p.bp.Line, other.ID),
						"remove it first (remove_breakpoint or remove_trace), or trace another line")
				}
			}
		}
	}
	ts.next++
	t := &trace{id: fmt.Sprintf("t%d", ts.next), created: s.m.cfg.Now(), distinct: spec.Distinct, stacks: spec.Stacks, bufCap: spec.Buffer}
	files := map[string]bool{}
	funcs := false
	for _, p := range probes {
		p.trace = t
		p.bp.probe = p
		s.bps.next++
		p.bp.ID = s.bps.next
		if p.bp.File != "" {
			s.bps.byFile[p.bp.File] = append(s.bps.byFile[p.bp.File], p.bp)
			files[p.bp.File] = true
		} else {
			s.bps.funcs = append(s.bps.funcs, p.bp)
			funcs = true
		}
		if t.stacks == 0 {
			s.toRecordModeLocked(p)
		}
	}
	t.probes = probes
	ts.traces[t.id] = t
	live := s.conn != nil && s.state != StateTerminated && s.state != StateInitializing
	running := live && s.state == StateRunning
	s.mu.Unlock()
	if live {
		if running && s.adapter.Traits().PausedBreakpoints {
			defer s.pauseAround(ctx)()
		}
		if err := s.syncProbes(ctx, files, funcs); err != nil {
			_, _ = s.RemoveTrace(context.WithoutCancel(ctx), t.id)
			return TraceReport{}, err
		}
	}
	return s.GetTrace(t.id, 0)
}

// probeBreakpoint checks a probe's place and returns its breakpoint (not
// yet in the set).
func (s *Session) probeBreakpoint(ps TraceProbeSpec) (*Breakpoint, error) {
	if ps.Function != "" {
		return &Breakpoint{Function: ps.Function, Condition: ps.Condition}, nil
	}
	abs, lineText, err := checkBreakpointPlace(ps.File, ps.Line)
	if err != nil {
		return nil, err
	}
	return &Breakpoint{File: abs, Line: ps.Line, Condition: ps.Condition, LineText: lineText}, nil
}

func checkTraceSpec(spec *TraceSpec) error {
	bad := func(msg, hint string) error { return toolkit.NewError(toolkit.CodeInvalidArgument, msg, hint) }
	if len(spec.Probes) == 0 {
		return bad("probes is required", "pass at least one probe: {file, line} or {function}, with expressions")
	}
	if len(spec.Probes) > maxTraceProbes {
		return bad(fmt.Sprintf("%d probes; at most %d", len(spec.Probes), maxTraceProbes), "split the trace")
	}
	for i, p := range spec.Probes {
		if p.Function == "" && (p.File == "" || p.Line <= 0) {
			return bad(fmt.Sprintf("probe %d needs file and a positive line, or function", i+1), "pass file (absolute or relative) and line (1-based), or function")
		}
		if len(p.Expressions) > maxTraceExpressions {
			return bad(fmt.Sprintf("probe %d has %d expressions; at most %d", i+1, len(p.Expressions), maxTraceExpressions), "trace fewer expressions per probe")
		}
		for _, e := range p.Expressions {
			if strings.TrimSpace(e) == "" || strings.ContainsAny(e, "{}\n\x1e\x1f") {
				return bad(fmt.Sprintf("probe %d: expression %q is empty or holds {, }, a newline or a control character", i+1, toolkit.Clip(e)), "pass plain expressions in the program's language")
			}
		}
		if p.MaxHits < 0 {
			return bad(fmt.Sprintf("probe %d: maxHits %d is negative", i+1, p.MaxHits), "pass 0 (no limit) or a positive count")
		}
	}
	clamp := func(v *int, def, hi int, name string) error {
		switch {
		case *v == 0:
			*v = def
		case *v < 0 || *v > hi:
			return bad(fmt.Sprintf("%s %d is out of range", name, *v), fmt.Sprintf("pass 1 to %d", hi))
		}
		return nil
	}
	if err := clamp(&spec.Distinct, defaultTraceDistinct, maxTraceDistinct, "distinct"); err != nil {
		return err
	}
	if err := clamp(&spec.Buffer, defaultTraceBuffer, maxTraceBuffer, "buffer"); err != nil {
		return err
	}
	if spec.Stacks < 0 {
		spec.Stacks = 0 // no stacks
		return nil
	}
	return clamp(&spec.Stacks, defaultTraceStacks, maxTraceStacks, "stacks")
}

// syncProbes sends the breakpoints of the given files (and the function
// breakpoints).
func (s *Session) syncProbes(ctx context.Context, files map[string]bool, funcs bool) error {
	for f := range files {
		if err := s.syncFile(ctx, f); err != nil {
			return err
		}
	}
	if funcs {
		return s.syncFunctions(ctx)
	}
	return nil
}

// GetTrace reports a trace; recent > 0 adds up to that many of the newest
// buffered hits.
func (s *Session) GetTrace(id string, recent int) (TraceReport, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.traceLocked(id)
	if err != nil {
		return TraceReport{}, err
	}
	r := TraceReport{TraceID: t.id, Created: t.created, Buffered: len(t.buf), Dropped: t.dropped}
	for _, p := range t.probes {
		r.Probes = append(r.Probes, p.report())
	}
	if recent > 0 {
		n := min(recent, len(t.buf))
		r.Recent = append([]TraceHit(nil), t.buf[len(t.buf)-n:]...)
	}
	return r, nil
}

func (p *traceProbe) report() ProbeReport {
	r := ProbeReport{Probe: p.index, File: p.bp.File, Line: p.bp.Line, Function: p.bp.Function, Condition: p.spec.Condition,
		MaxHits: p.spec.MaxHits, Verified: p.bp.Verified, Message: p.bp.Message, Mode: "stop", Hits: p.hits,
		Stacks: p.stacks, Done: p.doneNote, Expressions: make([]ExprStats, len(p.exprs))}
	if p.bp.ActualLine > 0 {
		r.Line = p.bp.ActualLine
	}
	switch {
	case p.logMode && p.bp.LogMessage != "":
		r.Mode = "log"
	case p.logMode:
		r.Mode = "record" // the condition records each hit (tracepython.go)
	}
	if p.hits > 0 {
		f, l := p.first, p.last
		r.FirstHit, r.LastHit = &f, &l
	}
	for i := range p.exprs {
		r.Expressions[i] = p.exprs[i].snapshot()
	}
	return r
}

func (s *Session) traceLocked(id string) (*trace, error) {
	ts := s.bps.traceSet()
	if t := ts.traces[id]; t != nil {
		return t, nil
	}
	ids := make([]string, 0, len(ts.traces))
	for k := range ts.traces {
		ids = append(ids, k)
	}
	sort.Strings(ids)
	if id == "" {
		return nil, toolkit.NewError(toolkit.CodeInvalidArgument, "traceId is required", "pass the id add_trace answered").WithOptions(ids...)
	}
	return nil, toolkit.NewError(toolkit.CodeInvalidArgument, "no trace "+toolkit.Clip(id), "use an id add_trace answered").WithOptions(ids...)
}

// RemoveTrace removes a trace's probes and returns its last report.
func (s *Session) RemoveTrace(ctx context.Context, id string) (TraceReport, error) {
	report, err := s.GetTrace(id, 0)
	if err != nil {
		return report, err
	}
	s.mu.Lock()
	t := s.bps.traces.traces[id]
	if t == nil { // removed by a concurrent call
		s.mu.Unlock()
		return report, nil
	}
	delete(s.bps.traces.traces, id)
	files, funcs := map[string]bool{}, false
	for _, p := range t.probes {
		p.done = true
		if p.bp.File != "" {
			files[p.bp.File] = true
		} else {
			funcs = true
		}
	}
	s.dropProbesLocked(t.probes)
	live := s.conn != nil && s.state != StateTerminated && s.state != StateInitializing
	running := live && s.state == StateRunning
	s.mu.Unlock()
	if !live {
		return report, nil
	}
	if running && s.adapter.Traits().PausedBreakpoints {
		defer s.pauseAround(ctx)()
	}
	return report, s.syncProbes(ctx, files, funcs)
}

// dropProbesLocked takes the probes' breakpoints out of the set.
func (s *Session) dropProbesLocked(probes []*traceProbe) {
	gone := map[*Breakpoint]bool{}
	ts := s.bps.traceSet()
	if ts.retired == nil {
		ts.retired = map[int]bool{}
	}
	for _, p := range probes {
		gone[p.bp] = true
		if p.bp.adapterID != 0 {
			ts.retired[p.bp.adapterID] = true
		}
	}
	keep := func(list []*Breakpoint) []*Breakpoint {
		out := list[:0:0]
		for _, bp := range list {
			if !gone[bp] {
				out = append(out, bp)
			}
		}
		return out
	}
	for f, list := range s.bps.byFile {
		s.bps.byFile[f] = keep(list)
	}
	s.bps.funcs = keep(s.bps.funcs)
}
