package sessions

import (
	"context"
	"strings"
	"testing"
	"time"
)

// newMock creates a mock session that has not started.
func newMock(t *testing.T) *Session {
	t.Helper()
	s, _, err := newTestManager(t).Create(context.Background(), CreateRequest{Language: "mock"})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// launchToEnd launches prog and waits for its end.
func launchToEnd(t *testing.T, s *Session, prog string) {
	t.Helper()
	ctx := context.Background()
	res, err := s.Launch(ctx, StartRequest{ScriptPath: prog, Wait: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if res.State != StateTerminated {
		if w, err := s.WaitForStop(ctx, 10*time.Second); err != nil || w.State != StateTerminated {
			t.Fatalf("the traced program did not run to its end: %+v %v", w, err)
		}
	}
}

// traceOver adds a trace to a new mock session before it starts, runs
// count.mock to its end and returns the report.
func traceOver(t *testing.T, probe TraceProbeSpec) TraceReport {
	t.Helper()
	ctx := context.Background()
	s := newMock(t)
	prog := testdata(t, "mock/count.mock")
	probe.File = prog
	probe.Line = lineOf(t, prog, "let total = total + i")
	tr, err := s.AddTrace(ctx, TraceSpec{Probes: []TraceProbeSpec{probe}, Distinct: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Breakpoints()) != 0 {
		t.Errorf("a probe is listed as a breakpoint: %+v", s.Breakpoints())
	}
	launchToEnd(t, s, prog)
	r, err := s.GetTrace(tr.TraceID, 10)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Every pass is counted, with the loop variable's range and the distinct
// cap, and the first hits' stacks.
func TestTraceCountsEveryPass(t *testing.T) {
	t.Parallel()
	r := traceOver(t, TraceProbeSpec{Expressions: []string{"i", "nosuch"}})
	p := r.Probes[0]
	if p.Hits != 5 || p.Mode != "stop" {
		t.Fatalf("hits %d (mode %s), want 5", p.Hits, p.Mode)
	}
	i := p.Expressions[0]
	if i.First != "1" || i.Last != "5" || i.Min != "1" || i.Max != "5" || len(i.Distinct) != 3 || !i.DistinctCapped || i.Others != 2 {
		t.Errorf("i: %+v", i)
	}
	if bad := p.Expressions[1]; bad.Errors != 5 || bad.LastError == "" || len(bad.Distinct) != 0 {
		t.Errorf("an expression that cannot be read: %+v", bad)
	}
	if len(p.Stacks) != defaultTraceStacks || p.Stacks[0][0].Line != p.Line {
		t.Errorf("stacks %+v, want %d at line %d", p.Stacks, defaultTraceStacks, p.Line)
	}
	if len(r.Recent) != 5 || r.Recent[4].Values[0] != "5" || r.Dropped != 0 {
		t.Errorf("recent %+v dropped %d", r.Recent, r.Dropped)
	}
}

// maxHits ends a probe; a condition counts only the hits it holds at.
func TestTraceMaxHitsAndCondition(t *testing.T) {
	t.Parallel()
	p := traceOver(t, TraceProbeSpec{Expressions: []string{"i"}, MaxHits: 2}).Probes[0]
	if p.Hits != 2 || p.Done == "" || p.Expressions[0].Last != "2" {
		t.Errorf("maxHits 2: %+v", p)
	}
	p = traceOver(t, TraceProbeSpec{Expressions: []string{"i"}, Condition: "i > 3"}).Probes[0]
	if p.Hits != 2 || p.Expressions[0].First != "4" {
		t.Errorf("condition i > 3: %+v", p)
	}
}

func TestTraceRefusesBadProbes(t *testing.T) {
	t.Parallel()
	s := newMock(t)
	prog := testdata(t, "mock/count.mock")
	for _, spec := range []TraceSpec{
		{},
		{Probes: []TraceProbeSpec{{File: prog}}},
		{Probes: []TraceProbeSpec{{File: prog, Line: 3, Expressions: []string{"{i}"}}}},
		{Probes: []TraceProbeSpec{{File: prog, Line: 3, MaxHits: -1}}},
		{Probes: []TraceProbeSpec{{File: prog, Line: 3}}, Distinct: 5000},
		{Probes: []TraceProbeSpec{{File: prog, Line: 999}}},
	} {
		if _, err := s.AddTrace(context.Background(), spec); err == nil {
			t.Errorf("AddTrace(%+v) succeeded", spec)
		}
	}
	if _, err := s.GetTrace("t9", 0); err == nil {
		t.Error("GetTrace of no trace succeeded")
	}
}

// Output events: a logpoint's line never splices into a line the program
// is still writing, and a probe's line (even split over two events, or
// behind delve's prefix) goes to its trace, not to the output.
func TestOutputKeepsLogpointsApart(t *testing.T) {
	t.Parallel()
	s := newMock(t)
	prog := testdata(t, "mock/count.mock")
	tr, err := s.AddTrace(context.Background(), TraceSpec{Probes: []TraceProbeSpec{{File: prog, Line: 3, Expressions: []string{"x"}}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range []string{"trace-done", logMarker + "lp 325 3\n", "p\n",
		traceMarker + tr.TraceID + ".1" + traceSep + "4", "2\n", "> [Go 1]: " + traceMarker + tr.TraceID + ".1" + traceSep + "7\n", "last\n"} {
		s.writeOutput("stdout", ev)
	}
	if got := s.output.Text("stdout"); got != "trace-donep\nlast\n" {
		t.Errorf("stdout %q, want the program's lines whole", got)
	}
	if got := s.output.Text("console"); got != "lp 325 3\n" {
		t.Errorf("console %q, want the logpoint's line", got)
	}
	r, _ := s.GetTrace(tr.TraceID, 0)
	if p := r.Probes[0]; p.Hits != 2 || p.Expressions[0].First != "42" || p.Expressions[0].Last != "7" {
		t.Errorf("probe %+v, want the hits 42 and 7", p)
	}
}

// A function probe counts every call, reading its arguments.
func TestTraceFunctionProbe(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newMock(t)
	tr, err := s.AddTrace(ctx, TraceSpec{Probes: []TraceProbeSpec{{Function: "add", Expressions: []string{"b"}}}})
	if err != nil {
		t.Fatal(err)
	}
	launchToEnd(t, s, testdata(t, "mock/loop.mock"))
	r, _ := s.GetTrace(tr.TraceID, 0)
	if p := r.Probes[0]; p.Hits != 3 || p.Expressions[0].Min != "1" || p.Expressions[0].Max != "3" {
		t.Errorf("probe %+v, want 3 calls with b from 1 to 3", p)
	}
}

// A recorded value the program could not read counts as an error, and a
// probe's recording condition is asked for with the probe's key
// (trace.probe), its expressions and its own condition.
func TestRecordedErrorsAndRecordingCondition(t *testing.T) {
	t.Parallel()
	s := newMock(t)
	prog := testdata(t, "mock/count.mock")
	tr, err := s.AddTrace(context.Background(), TraceSpec{Probes: []TraceProbeSpec{{File: prog, Line: 3, Expressions: []string{"i", "nosuch"}, Condition: "i > 1"}}})
	if err != nil {
		t.Fatal(err)
	}
	s.writeOutput("stdout", traceMarker+tr.TraceID+".1"+traceSep+"'x'"+traceSep+traceErrorMark+"NameError: nosuch\n")
	r, _ := s.GetTrace(tr.TraceID, 0)
	if e := r.Probes[0].Expressions; e[0].First != "x" || e[1].Errors != 1 || e[1].LastError != "NameError: nosuch" {
		t.Errorf("expressions %+v", e)
	}
	s.mu.Lock()
	cond := s.bps.traces.traces[tr.TraceID].probes[0].recordingCondition(func(key string, exprs []string, cond string) string {
		return key + "|" + strings.Join(exprs, ",") + "|" + cond
	})
	s.mu.Unlock()
	if want := tr.TraceID + ".1|i,nosuch|i > 1"; cond != want {
		t.Errorf("condition %q, want %q", cond, want)
	}
}

// A data breakpoint on the mock is listed, stops before the write with
// old → new at the writing line, and goes with clear_breakpoints.
func TestDataBreakpointListedAndCleared(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newMock(t)
	prog := testdata(t, "mock/count.mock")
	if _, err := s.SetBreakpoint(ctx, BreakpointSpec{File: prog, Line: 4}); err != nil {
		t.Fatal(err)
	}
	if res, err := s.Launch(ctx, StartRequest{ScriptPath: prog}); err != nil || res.State != StatePaused {
		t.Fatalf("launch: %+v %v", res, err)
	}
	if _, err := s.SetDataBreakpoint(ctx, DataBreakpointSpec{Expression: "total", AccessType: "read"}); err == nil {
		t.Error("a read watch on the mock succeeded")
	}
	bp, err := s.SetDataBreakpoint(ctx, DataBreakpointSpec{Expression: "total"})
	if err != nil || !bp.Verified || bp.Kind != "data" {
		t.Fatalf("SetDataBreakpoint: %+v %v", bp, err)
	}
	if _, err := s.ClearBreakpoints(ctx, prog); err != nil {
		t.Fatal(err)
	}
	if l := s.Breakpoints(); len(l) != 1 || l[0].ID != bp.ID {
		t.Fatalf("breakpoints %+v, want the data breakpoint only", l)
	}
	res, err := s.Continue(ctx, 0, 10*time.Second)
	if err != nil || res.LastStop == nil || res.LastStop.Reason != DataStopReason || res.LastStop.Data == nil {
		t.Fatalf("continue: %+v %v", res, err)
	}
	if d := res.LastStop.Data; d.Old == nil || d.New == nil || *d.Old != "0" || *d.New != "1" || d.Frame == nil || d.Frame.Line != 4 {
		t.Errorf("data %+v (old %v new %v)", d, d.Old, d.New)
	}
	if n, err := s.ClearBreakpoints(ctx, ""); err != nil || n != 1 || len(s.Breakpoints()) != 0 {
		t.Errorf("clear: %d %v, left %+v", n, err, s.Breakpoints())
	}
}
