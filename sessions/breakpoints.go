package sessions

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	godap "github.com/google/go-dap"

	"github.com/dbg-dev/dbg/adapters/bpcond"
	"github.com/dbg-dev/dbg/toolkit"
)

// Breakpoint is a breakpoint as dbg tracks it. IDs are dbg's own and stay
// stable across adapter restarts; the adapter's ids are mapped to them.
type Breakpoint struct {
	ID           int    `json:"id"`
	File         string `json:"file,omitempty"`
	Line         int    `json:"line,omitempty"`
	Function     string `json:"function,omitempty"`
	Condition    string `json:"condition,omitempty"`
	HitCondition string `json:"hitCondition,omitempty"`
	LogMessage   string `json:"logMessage,omitempty"`
	Verified     bool   `json:"verified"`
	ActualLine   int    `json:"actualLine,omitempty"` // where the adapter put it, when moved
	Message      string `json:"message,omitempty"`    // why it is not verified
	LineText     string `json:"lineText,omitempty"`   // the source text of the line
	// A data breakpoint (set_data_breakpoint) has these instead of a place.
	Kind       string `json:"kind,omitempty"` // "data" for a data breakpoint
	Expression string `json:"expression,omitempty"`
	AccessType string `json:"accessType,omitempty"`

	adapterID int
	probe     *traceProbe // set on a trace probe's breakpoint, which is not listed
	temporary bool        // run_to_line's, which is not listed either
}

// breakpointSet holds a session's breakpoints. It is guarded by the
// session's mu.
type breakpointSet struct {
	next   int
	byFile map[string][]*Breakpoint
	funcs  []*Breakpoint
	traces *traceSet // see trace.go
	data   dataSet   // see databreakpoints.go
}

func newBreakpointSet() *breakpointSet { return &breakpointSet{byFile: map[string][]*Breakpoint{}} }

func (b *breakpointSet) all() []Breakpoint {
	var out []Breakpoint
	files := make([]string, 0, len(b.byFile))
	for f := range b.byFile {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		for _, bp := range b.byFile[f] {
			if bp.probe == nil && !bp.temporary {
				out = append(out, *bp)
			}
		}
	}
	for _, bp := range b.funcs {
		if bp.probe == nil && !bp.temporary {
			out = append(out, *bp)
		}
	}
	return out
}

// byAdapterID returns the line or function breakpoint the adapter
// numbers id.
func (b *breakpointSet) byAdapterID(id int) *Breakpoint {
	return b.first(func(bp *Breakpoint) bool { return bp.adapterID == id })
}

// byID returns the line or function breakpoint id.
func (b *breakpointSet) byID(id int) *Breakpoint {
	return b.first(func(bp *Breakpoint) bool { return bp.ID == id })
}

// first returns a line or function breakpoint that match accepts.
func (b *breakpointSet) first(match func(*Breakpoint) bool) *Breakpoint {
	for _, list := range b.byFile {
		for _, bp := range list {
			if match(bp) {
				return bp
			}
		}
	}
	for _, bp := range b.funcs {
		if match(bp) {
			return bp
		}
	}
	return nil
}

// onlyTemporaryAt reports whether the breakpoints at file:line are
// run_to_line's alone.
func (b *breakpointSet) onlyTemporaryAt(file string, line int) bool {
	temp := false
	for f, list := range b.byFile {
		if file == "" || (f != file && !sameFile(f, file)) {
			continue
		}
		for _, bp := range list {
			if bp.Line != line && bp.ActualLine != line {
				continue
			}
			if !bp.temporary {
				return false
			}
			temp = true
		}
	}
	return temp
}

// find returns the breakpoint already at spec's place: the same file and
// line (asked for, or where the adapter moved it), or the same function.
func (b *breakpointSet) find(spec BreakpointSpec) *Breakpoint {
	if spec.File == "" {
		for _, bp := range b.funcs {
			if bp.Function == spec.Function && bp.probe == nil {
				return bp
			}
		}
		return nil
	}
	for f, list := range b.byFile {
		if f != spec.File && !sameFile(f, spec.File) {
			continue
		}
		for _, bp := range list {
			if (bp.Line == spec.Line || bp.ActualLine == spec.Line) && bp.probe == nil {
				return bp
			}
		}
	}
	return nil
}

// BreakpointSpec is a breakpoint to add.
type BreakpointSpec struct {
	File         string
	Line         int
	Function     string
	Condition    string
	HitCondition string
	LogMessage   string
}

// setBreakpoint adds a breakpoint. Before the session starts it is kept
// and sent at launch; after, it is sent at once and the answer says
// whether the adapter verified it and where it really is. Setting one
// where one already is (a retried call) gives back that breakpoint, with
// its id, updated with the new condition, hit condition and log message.
func (s *Session) setBreakpoint(ctx context.Context, spec BreakpointSpec) (Breakpoint, error) {
	if _, err := bpcond.ParseHit(spec.HitCondition); err != nil {
		// One meaning in every language: refuse what an adapter would
		// read its own way.
		return Breakpoint{}, toolkit.NewError(toolkit.CodeInvalidArgument, err.Error(),
			"use N (the Nth hit only), >= N (from the Nth on), > N, < N, <= N or % N (every Nth)").Wrap(err)
	}
	lineText := ""
	if spec.Function == "" {
		abs, text, err := checkBreakpointPlace(spec.File, spec.Line)
		if err != nil {
			return Breakpoint{}, err
		}
		spec.File, lineText = abs, text
	}
	s.mu.Lock()
	bp := s.bps.find(spec)
	if bp != nil {
		// A retry, or a change of the same breakpoint: one breakpoint per
		// place, updated to what this call asks for.
		bp.Condition, bp.HitCondition, bp.LogMessage = spec.Condition, spec.HitCondition, spec.LogMessage
		bp.temporary = false // run_to_line's breakpoint, now the caller's
		if lineText != "" {
			bp.LineText = lineText
		}
	} else {
		s.bps.next++
		bp = &Breakpoint{ID: s.bps.next, File: spec.File, Line: spec.Line, Function: spec.Function,
			Condition: spec.Condition, HitCondition: spec.HitCondition, LogMessage: spec.LogMessage, LineText: lineText}
		if bp.File != "" {
			s.bps.byFile[bp.File] = append(s.bps.byFile[bp.File], bp)
		} else {
			s.bps.funcs = append(s.bps.funcs, bp)
		}
	}
	live := s.conn != nil && s.state != StateTerminated && s.state != StateInitializing
	if !live {
		bp.Message = "pending: sent to the adapter when the session starts"
	}
	running := live && s.state == StateRunning
	s.mu.Unlock()
	if running && s.adapter.Traits().PausedBreakpoints {
		defer s.pauseAround(ctx)()
	}
	if live {
		var err error
		if bp.File != "" {
			err = s.syncFile(ctx, bp.File)
		} else {
			err = s.syncFunctions(ctx)
		}
		if err != nil {
			return Breakpoint{}, err
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return *bp, nil
}

// checkBreakpointPlace checks a file:line and returns the file's absolute
// path and the line's text.
func checkBreakpointPlace(file string, line int) (string, string, error) {
	if file == "" || line <= 0 {
		return "", "", toolkit.NewError(toolkit.CodeInvalidArgument, "file and a positive line are required (or function for a function breakpoint)", "pass file (absolute or relative to the working directory) and line (1-based)")
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return "", "", toolkit.NewError(toolkit.CodeInvalidArgument, err.Error(), "pass an absolute file path")
	}
	st, err := os.Stat(abs)
	if err != nil || !st.Mode().IsRegular() {
		return "", "", toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("file %s does not exist or is not a regular file", toolkit.Clip(abs)), "pass the path of an existing source file")
	}
	lines := readLines(abs)
	if n := len(lines); n > 0 && line > n {
		return "", "", toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("line %d is past the end of %s (%d lines)", line, filepath.Base(abs), n), "pick a line between 1 and "+fmt.Sprint(n))
	}
	text := ""
	if line <= len(lines) {
		text = strings.TrimSpace(lines[line-1])
	}
	return abs, text, nil
}

// pauseAround pauses a running program for an adapter that changes
// breakpoints safely only while it is stopped, and returns what resumes
// it. A stop that was not the pause (a breakpoint reached meanwhile) is
// left for the client to see.
//
// A pause that has not stopped within its grace may still stop later: the
// returned function then waits for it a little longer, so that a program
// dbg did not start is never left paused by a change it did not ask for.
func (s *Session) pauseAround(ctx context.Context) func() {
	resume := func(r *ExecResult) {
		if r != nil && r.State == StatePaused && r.LastStop != nil && r.LastStop.Reason == "pause" {
			_, _ = s.Continue(ctx, 0, 0)
		}
	}
	r, err := s.Pause(ctx, 0, pauseGrace)
	switch {
	case err != nil:
		return func() {}
	case r.State == StateRunning:
		return func() {
			late, err := s.WaitForStop(ctx, pauseGrace)
			if err == nil {
				resume(late)
			}
		}
	}
	return func() { resume(r) }
}

// removeBreakpoint removes one breakpoint by id.
func (s *Session) removeBreakpoint(ctx context.Context, id int) error {
	s.mu.Lock()
	file, found, isFunc := "", false, false
	for f, list := range s.bps.byFile {
		for i, bp := range list {
			if bp.ID == id && bp.probe == nil {
				s.bps.byFile[f] = append(list[:i:i], list[i+1:]...)
				file, found = f, true
				break
			}
		}
	}
	for i, bp := range s.bps.funcs {
		if bp.ID == id && bp.probe == nil {
			s.bps.funcs = append(s.bps.funcs[:i:i], s.bps.funcs[i+1:]...)
			found, isFunc = true, true
			break
		}
	}
	live := s.conn != nil && s.state != StateTerminated
	var ids []string
	for _, bp := range s.bps.all() {
		ids = append(ids, fmt.Sprint(bp.ID))
	}
	s.mu.Unlock()
	if !found {
		if ok, err := s.removeDataBreakpoint(ctx, id); ok {
			return err
		}
		return toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("no breakpoint %d", id), "use an id from list_breakpoints").WithOptions(ids...)
	}
	if !live {
		return nil
	}
	if isFunc {
		return s.syncFunctions(ctx)
	}
	return s.syncFile(ctx, file)
}

// clearBreakpoints removes every breakpoint (of one file when file != "").
func (s *Session) clearBreakpoints(ctx context.Context, file string) (int, error) {
	s.mu.Lock()
	var files []string
	n := 0
	for f, list := range s.bps.byFile {
		if file == "" || sameFile(f, file) {
			var kept int
			s.bps.byFile[f], kept = probesOnly(list)
			n += len(list) - kept
			files = append(files, f)
		}
	}
	funcs := file == "" && len(s.bps.funcs) > 0
	if file == "" {
		all := len(s.bps.funcs)
		var kept int
		s.bps.funcs, kept = probesOnly(s.bps.funcs)
		n += all - kept
	}
	data := file == "" && len(s.bps.data.items) > 0
	if data {
		n += len(s.bps.data.items)
		s.bps.data = dataSet{}
	}
	live := s.conn != nil && s.state != StateTerminated
	s.mu.Unlock()
	if !live {
		return n, nil
	}
	if data {
		if err := s.syncData(ctx); err != nil {
			return n, err
		}
	}
	for _, f := range files {
		if err := s.syncFile(ctx, f); err != nil {
			return n, err
		}
	}
	if funcs {
		return n, s.syncFunctions(ctx)
	}
	return n, nil
}

// probesOnly keeps the trace probes of list (clearing breakpoints leaves
// traces alone) and returns how many.
func probesOnly(list []*Breakpoint) ([]*Breakpoint, int) {
	var out []*Breakpoint
	for _, bp := range list {
		if bp.probe != nil {
			out = append(out, bp)
		}
	}
	return out, len(out)
}

// Breakpoints lists the session's breakpoints, data breakpoints last.
func (s *Session) Breakpoints() []Breakpoint {
	if p := s.sharedParent(); p != nil {
		return p.Breakpoints()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return append(s.bps.all(), s.bps.data.list()...)
}

// syncFile sends a file's breakpoints and records the adapter's answer.
func (s *Session) syncFile(ctx context.Context, file string) error {
	// setBreakpoints replaces the file's whole set: snapshot and send as
	// one step, or a concurrent call's older snapshot could land last.
	defer s.syncLock("file:" + file)()
	s.mu.Lock()
	list := append([]*Breakpoint(nil), s.bps.byFile[file]...)
	s.mu.Unlock()
	src := []godap.SourceBreakpoint{}
	for _, bp := range list {
		src = append(src, godap.SourceBreakpoint{Line: bp.Line, Condition: bp.Condition, HitCondition: bp.HitCondition, LogMessage: wireLogMessage(bp)})
	}
	var body godap.SetBreakpointsResponseBody
	args := godap.SetBreakpointsArguments{Source: godap.Source{Path: file, Name: filepath.Base(file)}, Breakpoints: src}
	if err := s.request(ctx, "setBreakpoints", args, &body); err != nil {
		return err
	}
	s.applyAdapterBreakpoints(list, body.Breakpoints)
	return nil
}

func (s *Session) syncFunctions(ctx context.Context) error {
	defer s.syncLock("functions")()
	s.mu.Lock()
	list := append([]*Breakpoint(nil), s.bps.funcs...)
	supported := s.caps.SupportsFunctionBreakpoints
	s.mu.Unlock()
	if !supported {
		if len(list) == 0 {
			return nil
		}
		return toolkit.NewError(toolkit.CodeInvalidArgument, "this adapter does not support function breakpoints", "set a line breakpoint at the function's first line instead")
	}
	fbs := []godap.FunctionBreakpoint{}
	for _, bp := range list {
		fbs = append(fbs, godap.FunctionBreakpoint{Name: bp.Function, Condition: bp.Condition, HitCondition: bp.HitCondition})
	}
	var body godap.SetFunctionBreakpointsResponseBody
	if err := s.request(ctx, "setFunctionBreakpoints", godap.SetFunctionBreakpointsArguments{Breakpoints: fbs}, &body); err != nil {
		return err
	}
	s.applyAdapterBreakpoints(list, body.Breakpoints)
	return nil
}

// applyAdapterBreakpoints records the adapter's answer to a set request,
// one breakpoint of abs for each of list, in order.
func (s *Session) applyAdapterBreakpoints(list []*Breakpoint, abs []godap.Breakpoint) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, bp := range list {
		if i < len(abs) {
			applyAdapterBreakpoint(bp, abs[i])
		}
	}
}

func applyAdapterBreakpoint(bp *Breakpoint, ab godap.Breakpoint) {
	bp.adapterID = ab.Id
	bp.Verified = ab.Verified
	bp.Message = ab.Message
	if ab.Line > 0 && ab.Line != bp.Line {
		bp.ActualLine = ab.Line
		if bp.File != "" {
			bp.LineText = sourceLine(bp.File, ab.Line)
		}
	} else {
		bp.ActualLine = 0
	}
	if !bp.Verified && bp.Message == "" {
		bp.Message = "not verified by the adapter yet (the code may not be loaded, or the line has no code)"
	}
}

// syncAll sends every breakpoint and the exception filters (at launch).
func (s *Session) syncAll(ctx context.Context) error {
	s.mu.Lock()
	files := make([]string, 0, len(s.bps.byFile))
	for f := range s.bps.byFile {
		files = append(files, f)
	}
	hasFuncs := len(s.bps.funcs) > 0
	s.bps.data = dataSet{} // addresses and objects of the last run mean nothing in a new one
	s.mu.Unlock()
	// The requests are independent: send them all at once, so start-up
	// pays one adapter round trip for them, not one each.
	jobs := []func() error{func() error { return s.syncExceptions(ctx) }}
	for _, f := range files {
		jobs = append(jobs, func() error { return s.syncFile(ctx, f) })
	}
	if hasFuncs {
		jobs = append(jobs, func() error { return s.syncFunctions(ctx) })
	}
	errs := make(chan error, len(jobs))
	for _, job := range jobs {
		go func() { errs <- job() }()
	}
	var first error
	for range jobs {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	return first
}

// syncLock serialises the syncs of one kind (one file, the function
// breakpoints, the exception filters) and returns the unlock.
func (s *Session) syncLock(key string) func() {
	s.mu.Lock()
	if s.syncMus == nil {
		s.syncMus = map[string]*sync.Mutex{}
	}
	mu := s.syncMus[key]
	if mu == nil {
		mu = &sync.Mutex{}
		s.syncMus[key] = mu
	}
	s.mu.Unlock()
	mu.Lock()
	return mu.Unlock
}

// SetExceptionBreakpoints sets the exception mode: "all", "uncaught" or
// "none", or explicit adapter filter ids.
func (s *Session) SetExceptionBreakpoints(ctx context.Context, mode string, filters []string) ([]string, error) {
	if filters == nil {
		switch mode {
		case "all", "uncaught", "none", "":
		default:
			return nil, toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("breakOnExceptions %q is not one of all, uncaught, none", mode), "pass all, uncaught or none, or explicit filters")
		}
	}
	s.mu.Lock()
	s.excMode = mode
	if filters != nil {
		s.excMode = "filters:" + strings.Join(filters, ",")
	}
	live := s.conn != nil && s.state != StateTerminated
	s.mu.Unlock()
	if !live {
		return s.exceptionFilters(), nil
	}
	return s.exceptionFilters(), s.syncExceptions(ctx)
}

func (s *Session) exceptionFilters() []string {
	s.mu.Lock()
	mode := s.excMode
	s.mu.Unlock()
	if rest, ok := strings.CutPrefix(mode, "filters:"); ok {
		if rest == "" {
			return []string{}
		}
		return strings.Split(rest, ",")
	}
	if mode == "" {
		mode = "none"
	}
	f := s.adapter.ExceptionFilters(mode)
	if f == nil {
		f = []string{}
	}
	return f
}

func (s *Session) syncExceptions(ctx context.Context) error {
	defer s.syncLock("exceptions")()
	s.mu.Lock()
	offered := len(s.caps.ExceptionBreakpointFilters) > 0
	s.mu.Unlock()
	if !offered {
		return nil
	}
	return s.request(ctx, "setExceptionBreakpoints", godap.SetExceptionBreakpointsArguments{Filters: s.exceptionFilters()}, nil)
}

func sameFile(a, b string) bool {
	aa, _ := filepath.Abs(a)
	bb, _ := filepath.Abs(b)
	return aa == bb
}
