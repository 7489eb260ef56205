package testrun

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/dbg-dev/dbg/safefs"
	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/textcut"
	"github.com/dbg-dev/dbg/toolkit"
)

// Outcomes of debug_test.
const (
	OutcomeFailed  = "failed"
	OutcomePassed  = "passed"
	OutcomeStopped = "stopped" // at a breakpoint or the test's start
)

// defaultTestTimeout bounds a run when timeoutMs is not given.
const defaultTestTimeout = 2 * time.Minute

// BreakpointInput is a line breakpoint of debug_test.
type BreakpointInput struct {
	File      string      `json:"file" jsonschema:"absolute or relative to the project"`
	Line      toolkit.Int `json:"line"`
	Condition string      `json:"condition,omitempty"`
}

// DebugTestInput is the input of debug_test.
type DebugTestInput struct {
	ProjectInput
	Test        string            `json:"test" alias:"id" jsonschema:"an id list_tests gives"`
	Package     string            `json:"package,omitempty" jsonschema:"Go package (default: the root)"`
	StopAt      string            `json:"stopAt,omitempty" jsonschema:"default failure; start: the first line"`
	Breakpoints []BreakpointInput `json:"breakpoints,omitempty" jsonschema:"set before the run"`
	Env         map[string]string `json:"env,omitempty"`
	TimeoutMs   toolkit.Int       `json:"timeoutMs,omitempty" jsonschema:"default 120000"`
}

// DebugTestResult is the answer of debug_test.
type DebugTestResult struct {
	Outcome         string                `json:"outcome"`
	Test            string                `json:"test"`
	Package         string                `json:"package,omitempty"`
	Framework       string                `json:"framework"`
	Language        string                `json:"language"`
	SessionID       string                `json:"sessionId,omitempty"`
	Message         string                `json:"message,omitempty"`
	Expected        string                `json:"expected,omitempty"`
	Actual          string                `json:"actual,omitempty"`
	StopReason      string                `json:"stopReason,omitempty"`
	ThreadID        int                   `json:"threadId,omitempty"`
	Location        *sessions.Location    `json:"location,omitempty"`
	Source          []sessions.SourceLine `json:"source,omitempty"`
	Frames          []UserFrame           `json:"frames,omitempty"`
	Output          string                `json:"output"`
	OutputTruncated bool                  `json:"outputTruncated,omitempty"`
	DurationMs      float64               `json:"durationMs"`
	ExitCode        *int                  `json:"exitCode,omitempty"`
	Command         []string              `json:"command"`
	Recursion       *Recursion            `json:"recursion,omitempty"`
	Hint            string                `json:"hint,omitempty"`
}

func (x *Tests) debugTest(ctx context.Context, in DebugTestInput) (DebugTestResult, error) {
	in.Test = strings.TrimSpace(in.Test)
	if in.Test == "" {
		return DebugTestResult{}, toolkit.NewError(toolkit.CodeInvalidArgument, "test is required", "pass a test id; list_tests lists them")
	}
	stopAt, err := stopAtOf(in)
	if err != nil {
		return DebugTestResult{}, err
	}
	p, fw, err := x.resolve(ctx, in.ProjectInput, in.Test, in.Package)
	if err != nil {
		return DebugTestResult{}, err
	}
	p.Env = in.Env
	for i := range stopAt.Breakpoints {
		if f := stopAt.Breakpoints[i].File; !filepath.IsAbs(f) {
			stopAt.Breakpoints[i].File = filepath.Join(p.Dir, f)
		}
	}
	wait := defaultTestTimeout
	if in.TimeoutMs > 0 {
		wait = min(time.Duration(in.TimeoutMs)*time.Millisecond, sessions.MaxWait)
	}
	if fw.PlanAfterList || fw.Ended != nil {
		id := TestID{ID: in.Test, Package: in.Package}
		if fw.PlanAfterList {
			if id, err = x.find(ctx, p, fw, in.Test, in.Package); err != nil {
				return DebugTestResult{}, err
			}
		}
		plan, err := fw.Plan(ctx, p, id, stopAt)
		if err != nil {
			if fw.Ended != nil {
				if _, ferr := x.find(ctx, p, fw, in.Test, in.Package); ferr != nil {
					return DebugTestResult{}, ferr
				}
			}
			return DebugTestResult{}, toolkit.NewError(toolkit.CodeInvalidArgument, err.Error(), "").Wrap(err)
		}
		plan.Start.Wait = wait
		return x.runAgain(ctx, p, fw, id, plan, stopAt)
	}
	// The runner's discovery checks the id (and the build) while the test
	// starts under the debugger: a run of an id it does not find is
	// stopped and answered with the discovery's error.
	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	found := make(chan error, 1)
	go func() {
		_, err := x.find(ctx, p, fw, in.Test, in.Package)
		if err != nil {
			cancel()
		}
		found <- err
	}()
	id := TestID{ID: in.Test, Package: in.Package}
	plan, err := fw.Plan(ctx, p, id, stopAt)
	if err != nil {
		if ferr := <-found; ferr != nil {
			return DebugTestResult{}, ferr
		}
		return DebugTestResult{}, toolkit.NewError(toolkit.CodeInvalidArgument, err.Error(), "").Wrap(err)
	}
	plan.Start.Wait = wait
	return x.runPlan(lctx, p, fw, id, plan, stopAt, found)
}

func stopAtOf(in DebugTestInput) (StopAt, error) {
	st := StopAt{Mode: in.StopAt}
	switch in.StopAt {
	case "", StopFailure, "breakpoints":
		st.Mode = StopFailure
	case StopStart:
	default:
		return st, toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("stopAt %q is not one of failure, start, breakpoints", in.StopAt),
			"pass failure, start, or breakpoints with the breakpoints list")
	}
	for _, b := range in.Breakpoints {
		if b.File == "" || b.Line <= 0 {
			return st, toolkit.NewError(toolkit.CodeInvalidArgument, "each breakpoint needs file and a positive line", "pass {file, line}")
		}
		st.Breakpoints = append(st.Breakpoints, sessions.BreakpointSpec{File: b.File, Line: int(b.Line), Condition: b.Condition})
	}
	if in.StopAt == "breakpoints" && len(st.Breakpoints) == 0 {
		return st, toolkit.NewError(toolkit.CodeInvalidArgument, "stopAt breakpoints needs breakpoints", "pass breakpoints: [{file, line}]")
	}
	return st, nil
}

// find checks the id against the runner's discovery: a project that does
// not build answers the compiler's message, an unknown id the closest ids.
//
// Where the id names the part of the project that holds it (a pytest,
// Jest or Vitest id's file), that part is looked at first, as the run itself
// collects only it; the whole project is looked at when the id is not
// there (or the file does not exist), for the closest ids.
func (x *Tests) find(ctx context.Context, p *Project, fw *Framework, test, pkg string) (TestID, error) {
	var near []TestID // ids of the id's own part, offered when the project's listing fails
	if part := idPart(fw, test); part != "" && exists(p.Dir, part) {
		ids, err := fw.List(ctx, p, part)
		var be *BuildError
		if errors.As(err, &be) && !be.Usage {
			return TestID{}, be.toolError()
		}
		if err == nil {
			if t, ok := lookup(fw, ids, test); ok {
				return t, nil
			}
			near = ids
		}
	}
	ids, err := fw.List(ctx, p, listPackage(fw, pkg))
	var be *BuildError
	if errors.As(err, &be) && (len(near) == 0 || be.Usage) {
		return TestID{}, be.toolError()
	} else if te, ok := err.(*toolkit.ToolError); ok {
		return TestID{}, te
	} else if err != nil && be == nil {
		return TestID{}, toolkit.NewError(toolkit.CodeAdapterFailed, err.Error(), "check that the runner is installed").Wrap(err)
	}
	if t, ok := lookup(fw, ids, test); ok {
		return t, nil
	}
	where := ""
	if pkg != "" {
		where = " in package " + pkg
	}
	all := mergeIDs(near, ids)
	return TestID{}, asUnsupported(p.Dir, all, notFound(test, all, where))
}

// mergeIDs is a followed by the ids of b it lacks.
func mergeIDs(a, b []TestID) []TestID {
	seen := map[string]bool{}
	var out []TestID
	for _, t := range append(append([]TestID{}, a...), b...) {
		if !seen[t.ID] {
			seen[t.ID] = true
			out = append(out, t)
		}
	}
	return out
}

// lookup finds test among the discovered ids.
func lookup(fw *Framework, ids []TestID, test string) (TestID, bool) {
	for _, t := range ids {
		if t.ID == test {
			return t, true
		}
	}
	// A Go subtest whose name is made at run time is not listed: its
	// parent is, and a run that never starts it says so after the run.
	if top, _, sub := strings.Cut(test, "/"); sub && fw.Subtests != nil {
		for _, t := range ids {
			if t.ID == top && !t.subtestsComplete {
				t.ID = test
				return t, true
			}
		}
	}
	return TestID{}, false
}

// idPart is the part of the project that holds test when its id says
// (the file of a FileIDs framework's id), or "".
func idPart(fw *Framework, test string) string {
	if !fw.FileIDs {
		return ""
	}
	file, _, _ := strings.Cut(test, "::")
	return file
}

// listPackage is the package discovery looks at for a test.
func listPackage(fw *Framework, pkg string) string {
	if pkg == "" {
		return fw.DefaultPackage
	}
	return pkg
}

// runAgain runs the plan, and when its failure ended the run without a
// stop the framework can plan one for (Rerun), runs the test again to
// stop there.
func (x *Tests) runAgain(ctx context.Context, p *Project, fw *Framework, id TestID, plan *Plan, stopAt StopAt) (DebugTestResult, error) {
	res, err := x.runPlan(ctx, p, fw, id, plan, stopAt, nil)
	if err != nil || res.Outcome != OutcomeFailed || res.SessionID != "" || fw.Rerun == nil {
		return res, err
	}
	rr := fw.Rerun(p, plan)
	if rr == nil {
		return res, nil
	}
	res.Message, res.Recursion = rr.Message, rr.Recursion
	if len(rr.Breakpoints) == 0 {
		return res, nil
	}
	again, err := fw.Plan(ctx, p, id, stopAt)
	if err != nil {
		return res, nil
	}
	again.Start.Wait, again.Rerun = plan.Start.Wait, rr
	again.Breakpoints = append(again.Breakpoints, rr.Breakpoints...)
	res2, err := x.runPlan(ctx, p, fw, id, again, stopAt, nil)
	if err != nil || res2.SessionID == "" {
		return res, nil // the first run's answer, with what it found out
	}
	res2.DurationMs += res.DurationMs
	return res2, nil
}

// runPlan runs the test's session and answers where it stopped or how it
// ended.
//
// found, when not nil, delivers the discovery's verdict on the id; the
// answer waits for it, and a refusal ends the run.
func (x *Tests) runPlan(ctx context.Context, p *Project, fw *Framework, id TestID, plan *Plan, stopAt StopAt, found <-chan error) (DebugTestResult, error) {
	res := DebugTestResult{Test: id.ID, Package: id.Package, Framework: fw.Name, Language: fw.Language, Command: plan.Command}
	start := time.Now()
	s, _, err := x.m.Create(ctx, plan.Create)
	if err != nil {
		return res, err
	}
	keep := false
	defer func() {
		if !keep {
			_ = x.m.CloseSession(context.WithoutCancel(ctx), s.ID())
		}
	}()
	for _, f := range plan.Functions {
		// First hit only: a subtest's failure also fails its parents.
		if _, err := s.SetBreakpoint(ctx, sessions.BreakpointSpec{Function: f, HitCondition: "1"}); err != nil {
			return res, err
		}
	}
	for _, b := range append(plan.Breakpoints, stopAt.Breakpoints...) {
		if _, err := s.SetBreakpoint(ctx, b); err != nil {
			return res, err
		}
	}
	if fw.Accept != nil {
		plan.Start.SkipStop = func(ctx context.Context, s *sessions.Session, _ *sessions.StopInfo) bool {
			r := &failureReader{s: s, fw: fw, p: p}
			return r.read(ctx) == nil && !fw.Accept(r)
		}
	}
	toolkit.Progress(ctx, "running %s (%s) under the debugger…", id.ID, fw.Name)
	sr, err := s.Launch(ctx, plan.Start)
	if found != nil {
		if ferr := <-found; ferr != nil {
			return res, ferr
		}
	}
	res.DurationMs = float64(time.Since(start).Microseconds()) / 1000
	if err != nil {
		return res, err
	}
	switch sr.State {
	case sessions.StatePaused:
		keep = true
		if fw.Paused != nil {
			fw.Paused(p, s)
		}
		return x.stopAnswer(ctx, s, p, fw, plan, res)
	case sessions.StateTerminated, sessions.StateError:
		return x.endAnswer(ctx, s, p, fw, id, sr, res)
	}
	return res, toolkit.NewError(toolkit.CodeTimeout, fmt.Sprintf("the test neither failed nor ended within %s", plan.Start.Wait),
		"pass a larger timeoutMs, or stopAt start to step through it").Retry()
}

// endAnswer is the answer of a run that ended without stopping.
func (x *Tests) endAnswer(ctx context.Context, s *sessions.Session, p *Project, fw *Framework, id TestID, sr *sessions.StartResult, res DebugTestResult) (DebugTestResult, error) {
	out := s.Output().Text("")
	res.Output, res.OutputTruncated = textcut.Tail(out, maxOutputBytes)
	res.ExitCode = sr.ExitCode
	if fw.Ended != nil && sr.ExitCode != nil {
		missing, build := fw.Ended(out, *sr.ExitCode)
		if build != nil {
			return res, build.toolError()
		}
		if missing {
			if _, err := x.find(ctx, p, fw, id.ID, id.Package); err != nil {
				return res, err
			}
		}
	}
	if fw.Subtests != nil && strings.Contains(id.ID, "/") {
		if ran, tests := fw.Subtests(id.ID, out); !ran {
			return res, notFound(id.ID, tests, "")
		}
	}
	if sr.ExitCode != nil && *sr.ExitCode == 0 {
		res.Outcome = OutcomePassed
		return res, nil
	}
	// Failed without a stop in the user's code (a fixture or set-up
	// error outside it, a crash): the runner's report says why.
	res.Outcome = OutcomeFailed
	res.Message = textcut.LastLines(out, 20)
	res.Hint = "the test failed without stopping in your code; read output, or debug_test with stopAt start"
	if sr.State == sessions.StateError {
		res.Message = sr.Message
	}
	return res, nil
}

// stopAnswer reads the stop: the failure's message, the user's frames
// with their locals, the location with source, the output so far.
func (x *Tests) stopAnswer(ctx context.Context, s *sessions.Session, p *Project, fw *Framework, plan *Plan, res DebugTestResult) (DebugTestResult, error) {
	r := &failureReader{s: s, fw: fw, p: p}
	if err := r.read(ctx); err != nil {
		return res, err
	}
	failure := r.stop.Reason == "exception" || (len(r.frames) > 0 && failFrame(plan.Functions, r.frames[0].Name))
	var f Failure
	if plan.Rerun != nil && !failure {
		// The second run stopped where the first failed.
		failure = true
		res.Outcome = OutcomeFailed
		f = Failure{Message: plan.Rerun.Message}
		res.Recursion = plan.Rerun.Recursion
	} else if failure {
		res.Outcome = OutcomeFailed
		f = fw.Message(ctx, r)
		if fw.Settle != nil {
			if err := fw.Settle(ctx, r); err == nil {
				_ = r.read(ctx)
			}
		}
	} else {
		res.Outcome = OutcomeStopped
	}
	res.SessionID = s.ID()
	res.Message, res.Expected, res.Actual = f.Message, f.Expected, f.Actual
	res.StopReason, res.ThreadID = r.stop.Reason, r.stop.ThreadID
	user := r.userFrames()
	if len(user) > 0 {
		top := user[0]
		s.PickFrame(top.ID) // the calls naming no frame act where the answer points
		res.Location = &sessions.Location{File: top.File, Line: top.Line, Column: top.Column,
			Function: frameName(top.Name), Text: top.Text}
		res.Source, _ = sessions.SourceContext(top.File, top.Line, 3)
	} else {
		res.Location = r.stop.Location
	}
	res.Frames = r.withLocals(ctx, user)
	res.Output, res.OutputTruncated = textcut.Tail(s.Output().Text(""), maxOutputBytes)
	switch {
	case plan.Rerun != nil && plan.Rerun.Hint != "":
		res.Hint = plan.Rerun.Hint
	case failure:
		res.Hint = "stopped at the failure: evaluate_expression or get_local_variables with a frameId of frames, step, or restart_debugging to run the test again"
	default:
		res.Hint = "stopped before the failure: step, set breakpoints, or continue_execution to run to the failure"
	}
	return res, nil
}

// read reads the stop and its stack.
func (r *failureReader) read(ctx context.Context) error {
	info := r.s.Info()
	if info.LastStop == nil {
		return toolkit.NewError(toolkit.CodeInternal, "the session is paused without a stop", "")
	}
	r.stop = info.LastStop
	frames, _, err := r.s.StackTrace(ctx, r.stop.ThreadID, 0, stackDepth)
	if err != nil {
		return err
	}
	r.frames = frames
	return nil
}

// failFrame reports whether a frame's function is one of the failure
// functions (LLDB qualifies rust_panic as __rustc::rust_panic).
func failFrame(funcs []string, name string) bool {
	for _, f := range funcs {
		if name == f || strings.HasSuffix(name, "::"+f) {
			return true
		}
	}
	return false
}

// reportFile makes an empty private file for runner's JSON report and
// returns its path; the caller removes it.
func reportFile(runner string) (string, error) {
	f, err := safefs.TempFile("dbg-" + runner + "-*.json")
	if err != nil {
		return "", fmt.Errorf("%s report: %w", runner, err)
	}
	f.Close()
	return f.Name(), nil
}
