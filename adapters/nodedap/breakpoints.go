package nodedap

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	godap "github.com/google/go-dap"

	"github.com/dbg-dev/dbg/adapters/bpcond"
	"github.com/dbg-dev/dbg/dap"
)

// bp is one DAP breakpoint and the CDP breakpoints that implement it.
type bp struct {
	spec         bpSpec // as requested
	id           int
	source       string // absolute path; "" for function breakpoints
	line         int    // requested line, 1-based
	fn           string // function breakpoints: the name
	condition    string // the CDP condition (condition and logpoint combined)
	hitCond      bpcond.Hit
	verified     bool
	actualLine   int
	message      string
	cdp          []string
	locs         []location
	hits         int
	pending      bool // waits for a script whose source map has source
	byPath       bool // set on the file's own URL, at the source's lines
	resolvedPath string
}

// breakpoints is the adapter's breakpoint table. It is guarded by
// Handler.mu.
type breakpoints struct {
	nextID   int
	bySource map[string][]*bp
	fns      []*bp
	byCDP    map[string]*bp
}

func newBreakpoints() breakpoints {
	return breakpoints{bySource: map[string][]*bp{}, byCDP: map[string]*bp{}}
}

// dapBreakpoint is the DAP Breakpoint of b.
func (b *bp) dapBreakpoint() godap.Breakpoint {
	out := godap.Breakpoint{Id: b.id, Verified: b.verified, Line: b.line, Message: b.message}
	if b.actualLine > 0 {
		out.Line = b.actualLine
	}
	if b.resolvedPath != "" {
		out.Source = &godap.Source{Name: filepath.Base(b.resolvedPath), Path: b.resolvedPath}
	}
	return out
}

// hitBy counts a hit on the breakpoints V8 reports and returns the DAP ids
// of those whose hit condition passes, and whether one of them is a
// function breakpoint. Call with Handler.mu held.
func (t *breakpoints) hitBy(cdpIDs []string) (ids []int, known, fn bool) {
	for _, id := range cdpIDs {
		b := t.byCDP[id]
		if b == nil {
			continue
		}
		known = true
		b.hits++
		if b.hitCond.Match(b.hits) {
			ids = append(ids, b.id)
			if b.fn != "" {
				fn = true
			}
		}
	}
	return ids, known, fn
}

// at returns the ids of breakpoints resolved at the line of loc.
func (t *breakpoints) at(loc location) []int {
	var ids []int
	for _, b := range t.byCDP {
		for _, l := range b.locs {
			if l.ScriptID == loc.ScriptID && l.LineNumber == loc.LineNumber {
				ids = append(ids, b.id)
				break
			}
		}
	}
	return ids
}

// buildCondition combines a condition and a logpoint message into one CDP
// condition. A logpoint logs "{expr}"-interpolated text and never pauses.
func buildCondition(cond, logMessage string) string {
	if logMessage == "" {
		return cond
	}
	log := "(console.log(" + interpolate(logMessage) + "), false)"
	if strings.TrimSpace(cond) == "" {
		return log
	}
	return "(" + cond + ") && " + log
}

// interpolate turns "x is {x}" into a JavaScript string expression:
// each literal part quoted, each {expression} converted with String().
func interpolate(msg string) string {
	var parts []string
	for _, p := range bpcond.SplitLog(msg) {
		if p.Expr {
			parts = append(parts, "String(("+p.Text+"))")
			continue
		}
		b, _ := json.Marshal(p.Text)
		parts = append(parts, string(b))
	}
	if len(parts) == 0 {
		return `""`
	}
	return strings.Join(parts, " + ")
}

func (h *Handler) setBreakpoints(ctx context.Context, req *godap.SetBreakpointsRequest) (*godap.SetBreakpointsResponse, error) {
	a := &req.Arguments
	if err := dap.SourceBreakpoints(a); err != nil {
		return nil, err
	}
	c, err := h.client()
	if err != nil {
		return nil, err
	}
	path, _ := filepath.Abs(a.Source.Path)
	specs := make([]bpSpec, len(a.Breakpoints))
	h.mu.Lock()
	for i, sb := range a.Breakpoints {
		h.bps.nextID++
		specs[i] = bpSpec{id: h.bps.nextID, line: sb.Line, condition: sb.Condition, hitCondition: sb.HitCondition, logMessage: sb.LogMessage}
	}
	h.mu.Unlock()
	out := h.answer(h.replaceLine(ctx, c, path, specs))
	for _, w := range h.workerHandlers() {
		if wc, err := w.client(); err == nil {
			w.replaceLine(ctx, wc, path, specs)
		}
	}
	return &godap.SetBreakpointsResponse{Body: godap.SetBreakpointsResponseBody{Breakpoints: out}}, nil
}

// answer is the DAP answer of breakpoints just set.
func (h *Handler) answer(list []*bp) []godap.Breakpoint {
	out := make([]godap.Breakpoint, 0, len(list))
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, b := range list {
		out = append(out, b.dapBreakpoint())
	}
	return out
}

// bpSpec is one requested breakpoint with its DAP id.
type bpSpec struct {
	id                                  int
	line                                int
	fn                                  string
	condition, hitCondition, logMessage string
}

func (sp bpSpec) breakpoint(source string) *bp {
	return &bp{spec: sp, id: sp.id, source: source, line: sp.line, fn: sp.fn, condition: buildCondition(sp.condition, sp.logMessage)}
}

// replaceLine replaces the line breakpoints of one file.
// placeSpecs builds the breakpoints of specs in source ("" for function
// breakpoints) and places those whose hit condition parses.
func placeSpecs(specs []bpSpec, source string, place func(*bp)) []*bp {
	list := make([]*bp, 0, len(specs))
	for _, sp := range specs {
		b := sp.breakpoint(source)
		if hc, err := bpcond.ParseHit(sp.hitCondition); err != nil {
			b.message = err.Error()
		} else {
			b.hitCond = hc
			place(b)
		}
		list = append(list, b)
	}
	return list
}

func (h *Handler) replaceLine(ctx context.Context, c cdpConn, path string, specs []bpSpec) []*bp {
	h.mu.Lock()
	old := h.bps.bySource[path]
	delete(h.bps.bySource, path)
	h.forget(old)
	h.mu.Unlock()
	h.removeCDP(ctx, c, old)

	list := placeSpecs(specs, path, func(b *bp) { h.placeLine(ctx, c, b) })
	h.mu.Lock()
	h.bps.bySource[path] = list
	h.mu.Unlock()
	return list
}

// forget drops bs from the CDP index. Call with mu held.
func (h *Handler) forget(bs []*bp) {
	for _, b := range bs {
		for _, id := range b.cdp {
			delete(h.bps.byCDP, id)
		}
	}
}

func (h *Handler) removeCDP(ctx context.Context, c cdpConn, bs []*bp) {
	for _, b := range bs {
		for _, id := range b.cdp {
			_ = c.Call(ctx, "Debugger.removeBreakpoint", map[string]any{"breakpointId": id}, nil)
		}
	}
}

// placeLine sets the CDP breakpoints of a line breakpoint: on every loaded
// script whose source map covers the file, else on the file's own URL.
// A file only a source map can reach that is not loaded yet stays pending.
func (h *Handler) placeLine(ctx context.Context, c cdpConn, b *bp) {
	targets := h.mappedTargets(b.source, b.line-1)
	if len(targets) > 0 {
		for _, t := range targets {
			h.setByURL(ctx, c, b, map[string]any{"url": t.url, "lineNumber": t.line, "columnNumber": t.col})
		}
		return
	}
	h.mu.Lock()
	sourceMaps := h.sourceMaps
	h.mu.Unlock()
	if sourceMaps && isCompiledSource(b.source) {
		h.mu.Lock()
		b.pending = true
		b.message = "waiting for the compiled JavaScript of this file to load"
		h.mu.Unlock()
		h.guard(ctx, c, b.source)
		return
	}
	b.byPath = true
	h.setByURL(ctx, c, b, map[string]any{"urlRegex": urlRegex(b.source), "lineNumber": b.line - 1})
}

func (h *Handler) setByURL(ctx context.Context, c cdpConn, b *bp, params map[string]any) {
	if b.condition != "" {
		params["condition"] = b.condition
	}
	var res setBreakpointResult
	if err := c.Call(ctx, "Debugger.setBreakpointByUrl", params, &res); err != nil {
		h.mu.Lock()
		b.message = err.Error()
		h.mu.Unlock()
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	b.cdp = append(b.cdp, res.BreakpointID)
	h.bps.byCDP[res.BreakpointID] = b
	for _, l := range res.Locations {
		h.resolvedLocked(b, l)
	}
	if !b.verified && b.message == "" {
		b.message = "the script is not loaded yet"
	}
}

// resolvedLocked records where V8 put b. Call with mu held.
func (h *Handler) resolvedLocked(b *bp, l location) {
	b.locs = append(b.locs, l)
	b.verified, b.pending, b.message = true, false, ""
	path, line := h.originalLocked(l)
	if path != "" {
		if b.source == "" || path == b.source {
			b.actualLine = line + 1
		}
		if b.source == "" {
			b.resolvedPath = path
		}
	}
}

func (h *Handler) onBreakpointResolved(id string, l location) {
	h.mu.Lock()
	b := h.bps.byCDP[id]
	if b == nil {
		h.mu.Unlock()
		return
	}
	was := b.verified
	h.resolvedLocked(b, l)
	body := b.dapBreakpoint()
	h.mu.Unlock()
	if !was {
		h.event("breakpoint", godap.BreakpointEventBody{Reason: "changed", Breakpoint: body})
	}
}

// resolvePending places pending breakpoints whose source sm maps, on the
// script at url. It runs on the CDP event goroutine.
func (h *Handler) resolvePending(sm *sourceMap, url string) {
	c, todo := h.breakpointsOf(sm.sources, func(b *bp) bool { return b.pending })
	if c == nil || len(todo) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, b := range todo {
		if gl, gc, _, ok := sm.generated(b.source, b.line-1); ok {
			h.placeMapped(ctx, c, b, url, gl, gc)
		}
	}
}

// isCompiledSource reports whether path is a language that runs only
// through a compiler (TypeScript, CoffeeScript...), so its breakpoints need
// a source map.
func isCompiledSource(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".js", ".cjs", ".mjs", ".jsx":
		return false
	}
	return true
}

// urlRegex matches the URL node gives the script at path.
// node loads a module at its real path, so a path through a symbolic link
// matches the real one too.
func urlRegex(path string) string {
	paths := []string{path}
	if real, err := filepath.EvalSymlinks(path); err == nil && real != path {
		paths = append(paths, real)
	}
	var alts []string
	for _, p := range paths {
		alts = append(alts, "^"+regexp.QuoteMeta(fileURL(p))+"$", "^"+regexp.QuoteMeta(p)+"$")
	}
	return strings.Join(alts, "|")
}

func (h *Handler) setFunctionBreakpoints(ctx context.Context, req *godap.SetFunctionBreakpointsRequest) (*godap.SetFunctionBreakpointsResponse, error) {
	a := &req.Arguments
	c, err := h.client()
	if err != nil {
		return nil, err
	}
	specs := make([]bpSpec, len(a.Breakpoints))
	h.mu.Lock()
	for i, fb := range a.Breakpoints {
		h.bps.nextID++
		specs[i] = bpSpec{id: h.bps.nextID, fn: fb.Name, condition: fb.Condition, hitCondition: fb.HitCondition}
	}
	h.mu.Unlock()
	out := h.answer(h.replaceFunctions(ctx, c, specs))
	for _, w := range h.workerHandlers() {
		if wc, err := w.client(); err == nil {
			w.replaceFunctions(ctx, wc, specs)
		}
	}
	return &godap.SetFunctionBreakpointsResponse{Body: godap.SetFunctionBreakpointsResponseBody{Breakpoints: out}}, nil
}

// replaceFunctions replaces the function breakpoints.
func (h *Handler) replaceFunctions(ctx context.Context, c cdpConn, specs []bpSpec) []*bp {
	h.mu.Lock()
	old := h.bps.fns
	h.bps.fns = nil
	h.forget(old)
	h.mu.Unlock()
	h.removeCDP(ctx, c, old)

	list := placeSpecs(specs, "", func(b *bp) { h.placeFunction(ctx, c, b) })
	h.mu.Lock()
	h.bps.fns = list
	h.mu.Unlock()
	return list
}

// placeFunction finds where a function is defined in the loaded user
// scripts and breaks at the start of its body.
func (h *Handler) placeFunction(ctx context.Context, c cdpConn, b *bp) {
	name := b.fn
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	if !identRE.MatchString(name) {
		b.message = fmt.Sprintf("%q is not a function name", b.fn)
		return
	}
	for _, s := range h.userScripts() {
		src, err := h.scriptSource(ctx, c, s)
		if err != nil {
			continue
		}
		line, col, ok := findFunction(src, name)
		if !ok {
			continue
		}
		h.setByURL(ctx, c, b, map[string]any{"url": s.url, "lineNumber": line, "columnNumber": col})
		if b.verified {
			return
		}
	}
	if !b.verified {
		b.message = fmt.Sprintf("function %s is not defined in any loaded script", b.fn)
	}
}

var identRE = regexp.MustCompile(`^[A-Za-z_$][\w$]*$`)

// findFunction finds the definition of a function, method or function-valued
// variable named name in JavaScript source and returns the 0-based position
// just inside its body.
func findFunction(src, name string) (line, col int, ok bool) {
	q := regexp.QuoteMeta(name)
	pats := []string{
		`function\s*\*?\s*` + q + `\s*\(`,
		`(?:^|[^\w$.])` + q + `\s*[:=]\s*(?:async\s+)?(?:function\b[^{]*|\([^)]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)`,
		`(?m)^\s*(?:static\s+)?(?:async\s+)?\*?\s*` + q + `\s*\([^)]*\)\s*\{`,
	}
	best := -1
	for _, p := range pats {
		loc := regexp.MustCompile(p).FindStringIndex(src)
		if loc != nil && (best < 0 || loc[0] < best) {
			best = loc[1]
		}
	}
	if best < 0 {
		return 0, 0, false
	}
	// Step inside the body: just after its "{" or "=>".
	rest := src[best:]
	if i := strings.IndexAny(rest, "{"); i >= 0 && !strings.Contains(rest[:i], ";") {
		best += i + 1
	}
	before := src[:best]
	line = strings.Count(before, "\n")
	col = best - (strings.LastIndexByte(before, '\n') + 1)
	return line, col, true
}

func (h *Handler) setExceptionBreakpoints(ctx context.Context, req *godap.SetExceptionBreakpointsRequest) (*godap.SetExceptionBreakpointsResponse, error) {
	c, err := h.client()
	if err != nil {
		return nil, err
	}
	state := "none"
	var out []godap.Breakpoint
	for _, f := range req.Arguments.Filters {
		switch f {
		case "all":
			state = "all"
		case "uncaught":
			if state == "none" {
				state = "uncaught"
			}
		default:
			out = append(out, godap.Breakpoint{Message: "unknown exception filter " + f})
			continue
		}
		out = append(out, godap.Breakpoint{Verified: true})
	}
	h.mu.Lock()
	mainToo := !h.workerExceptions
	h.mu.Unlock()
	if mainToo {
		if err := c.Call(ctx, "Debugger.setPauseOnExceptions", map[string]any{"state": state}, nil); err != nil {
			return nil, err
		}
	}
	h.mu.Lock()
	h.exceptionFilter = state
	h.mu.Unlock()
	for _, w := range h.workerHandlers() {
		if wc, err := w.client(); err == nil {
			_ = wc.Call(ctx, "Debugger.setPauseOnExceptions", map[string]any{"state": state}, nil)
			w.mu.Lock()
			w.exceptionFilter = state
			w.mu.Unlock()
		}
	}
	return &godap.SetExceptionBreakpointsResponse{Body: godap.SetExceptionBreakpointsResponseBody{Breakpoints: out}}, nil
}

// guard sets an entry breakpoint on the first statement of the scripts a
// source may load as: the file itself (run through tsx or ts-node) and its
// compiled JavaScript. ES modules do not stop for the instrumentation
// breakpoint; the guard holds such a module at its first statement until
// its pending breakpoints are placed (when its scriptParsed event, which
// comes first, has been handled), then the program goes on unseen.
func (h *Handler) guard(ctx context.Context, c cdpConn, source string) {
	paths := []string{source}
	if js, _ := compiledJS(source); js != "" {
		paths = append(paths, js)
	}
	for _, p := range paths {
		h.mu.Lock()
		done := h.guarded[p]
		h.guarded[p] = true
		h.mu.Unlock()
		if done {
			continue
		}
		var res setBreakpointResult
		if err := c.Call(ctx, "Debugger.setBreakpointByUrl", map[string]any{"urlRegex": urlRegex(p), "lineNumber": 0, "columnNumber": 0}, &res); err != nil {
			continue
		}
		h.mu.Lock()
		h.guards[res.BreakpointID] = true
		h.mu.Unlock()
	}
}

// onlyGuards reports whether every breakpoint V8 says was hit is a guard.
// Call with mu held.
func (h *Handler) onlyGuardsLocked(ids []string) bool {
	if len(ids) == 0 {
		return false
	}
	for _, id := range ids {
		if !h.guards[id] {
			return false
		}
	}
	return true
}
