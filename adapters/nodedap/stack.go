package nodedap

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	godap "github.com/google/go-dap"
)

// pauseState is what the program looks like while it is paused. A new one
// replaces it at every pause; frame ids and variable references of an older
// pause are then unknown.
type pauseState struct {
	frames    []callFrame
	base      int // DAP frame id of frames[0]
	exception *remoteObject
	entry     bool // the launch's break on start, not reported to the client
	// V8's scope objects are snapshots taken at the pause. Once a
	// setVariable or an evaluation may have changed a variable, written
	// holds what setVariable wrote and mutated asks scopeVariables to
	// read the others afresh.
	written map[writtenKey]*remoteObject
	mutated bool
}

// writtenKey names a variable of one scope of one call frame.
type writtenKey struct {
	callFrameID string
	scope       int
	name        string
}

// frame returns the call frame of a DAP frame id.
func (p *pauseState) frame(id int) (*callFrame, error) {
	if p == nil {
		return nil, errors.New("the program is not paused")
	}
	i := id - p.base
	if i < 0 || i >= len(p.frames) {
		return nil, fmt.Errorf("frame %d is not a frame of the current stop", id)
	}
	return &p.frames[i], nil
}

// onPaused handles Debugger.paused (on the CDP event goroutine).
func (h *Handler) onPaused(ev *pausedEvent) {
	h.mu.Lock()
	c := h.cdp
	first := !h.sawPause && ev.Reason != "instrumentation"
	if ev.Reason != "instrumentation" {
		h.sawPause = true
	}
	asked := h.pausing || h.stepping
	h.mu.Unlock()
	// node names the pause of --inspect-brk "Break on start" (older
	// versions: "other").
	start := ev.Reason == "Break on start" || (first && ev.Reason == "other" && len(ev.HitBreakpoints) == 0 && !asked)
	if ev.Reason == "instrumentation" || (start && h.parent != nil) {
		// A worker inherits --inspect-brk; its breakpoints are already set.
		// Pending breakpoints were placed when the script was parsed.
		go h.resumeQuietly(c)
		return
	}
	h.mu.Lock()
	h.frameSeq++
	p := &pauseState{frames: ev.CallFrames, base: h.frameSeq}
	h.frameSeq += len(ev.CallFrames)
	h.refs = map[int]*varRef{}
	if !h.startDone {
		// The launch's break on start.
		h.startDone = true
		p.entry = true
		h.pause = p
		close(h.started)
		h.mu.Unlock()
		return
	}
	if start {
		// Attached to a program started with --inspect-brk: like a
		// launch's entry, it waits for configurationDone.
		h.pausing = false
		if !h.configured {
			p.entry = true
			h.pause = p
			h.mu.Unlock()
			return
		}
		if !h.stopOnEntry {
			h.mu.Unlock()
			go h.resumeQuietly(c)
			return
		}
		h.pause = p
		h.mu.Unlock()
		h.event("stopped", map[string]any{"reason": "entry", "threadId": h.thread, "allThreadsStopped": true})
		return
	}
	if h.onlyGuardsLocked(ev.HitBreakpoints) && !h.stepping && !h.pausing {
		// A module stopped by its guard: its breakpoints are placed now.
		h.mu.Unlock()
		go h.resumeQuietly(c)
		return
	}
	hitIDs, known, fn := h.bps.hitBy(ev.HitBreakpoints)
	stepping, pausing := h.stepping, h.pausing
	if known && len(hitIDs) == 0 && !stepping && !pausing && ev.Reason != "exception" && ev.Reason != "promiseRejection" {
		// Every breakpoint here is waiting for its hit count.
		h.mu.Unlock()
		go h.resumeQuietly(c)
		return
	}
	if pausing && !stepping && len(hitIDs) == 0 && ev.Reason != "exception" && h.allInternalLocked(ev.CallFrames) {
		// A pause that landed in node's own code: step on into the
		// program's code, as skipFiles asks.
		h.mu.Unlock()
		go h.stepQuietly(c, "Debugger.stepInto")
		return
	}
	if !stepping && h.skippedExceptionLocked(ev) {
		h.mu.Unlock()
		go h.resumeQuietly(c)
		return
	}
	h.stepping, h.pausing = false, false
	// A pause stops one isolate: the main thread's workers run on.
	body := map[string]any{"threadId": h.thread, "allThreadsStopped": h.parent == nil && len(h.workers) == 0}
	switch {
	case ev.Reason == "exception" || ev.Reason == "promiseRejection" || ev.Reason == "assert" || ev.Reason == "OOM":
		var ex remoteObject
		if json.Unmarshal(ev.Data, &ex) == nil {
			p.exception = &ex
			body["text"] = exceptionText(&ex)
		}
		body["reason"] = "exception"
		body["description"] = "Paused on exception"
	case len(hitIDs) > 0:
		body["reason"] = "breakpoint"
		if fn {
			body["reason"] = "function breakpoint"
		}
		body["hitBreakpointIds"] = hitIDs
	case stepping:
		body["reason"] = "step"
	case pausing || ev.Reason == "debugCommand":
		body["reason"] = "pause"
	default:
		body["reason"] = "breakpoint"
		body["description"] = "Paused on debugger statement"
	}
	h.pause = p
	h.mu.Unlock()
	h.event("stopped", body)
}

func (h *Handler) resumeQuietly(c cdpConn) { h.stepQuietly(c, "Debugger.resume") }

func (h *Handler) stepQuietly(c cdpConn, method string) {
	if c == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = h.run(ctx, c, method)
}

// allInternalLocked reports whether every frame is node's own code. Call
// with mu held.
func (h *Handler) allInternalLocked(frames []callFrame) bool {
	for _, f := range frames {
		s := h.scripts[f.Location.ScriptID]
		if s == nil || !s.internal() {
			return false
		}
	}
	return true
}

// exceptionText is the message of a thrown value: "RangeError: too large"
// for an Error, the value itself otherwise.
func exceptionText(ex *remoteObject) string {
	if ex.Type == "object" && ex.Subtype == "error" {
		return firstLine(ex.Description)
	}
	if ex.Type == "string" {
		var s string
		if json.Unmarshal(ex.Value, &s) == nil {
			return s
		}
	}
	return formatValue(ex)
}

func (h *Handler) stackTrace(_ context.Context, req *godap.StackTraceRequest) (*godap.StackTraceResponse, error) {
	a := &req.Arguments
	if a.ThreadId != 0 && a.ThreadId != h.thread {
		return nil, fmt.Errorf("no thread %d", a.ThreadId)
	}
	h.mu.Lock()
	p := h.pause
	h.mu.Unlock()
	if p == nil {
		return nil, errors.New("the program is not paused")
	}
	var frames []godap.StackFrame
	h.mu.Lock()
	hideInternal := false
	for _, pat := range h.skip {
		hideInternal = hideInternal || pat == "^node:"
	}
	h.mu.Unlock()
	for i := range p.frames {
		f := &p.frames[i]
		url := h.scriptURL(f.Location.ScriptID)
		if hideInternal && strings.HasPrefix(url, "node:") {
			continue // node's own frames (skipFiles <node_internals>)
		}
		path, line, col, _ := h.originalPos(f.Location)
		name := f.FunctionName
		if name == "" {
			name = "(anonymous)"
		}
		fr := godap.StackFrame{Id: p.base + i, Name: name, Line: line + 1, Column: col + 1}
		switch {
		case path != "":
			fr.Source = &godap.Source{Name: filepath.Base(path), Path: path}
		default:
			// Code without a file (eval, new Function): its text comes
			// from the source request.
			name := url
			if name == "" {
				name = "<eval " + f.Location.ScriptID + ">"
			}
			fr.Source = &godap.Source{Name: name, SourceReference: h.sourceRef(f.Location.ScriptID)}
		}
		frames = append(frames, fr)
	}
	total := len(frames)
	if a.StartFrame > 0 {
		if a.StartFrame >= len(frames) {
			frames = nil
		} else {
			frames = frames[a.StartFrame:]
		}
	}
	if a.Levels > 0 && len(frames) > a.Levels {
		frames = frames[:a.Levels]
	}
	if frames == nil {
		frames = []godap.StackFrame{}
	}
	return &godap.StackTraceResponse{Body: godap.StackTraceResponseBody{StackFrames: frames, TotalFrames: total}}, nil
}

func (h *Handler) scopes(_ context.Context, req *godap.ScopesRequest) (*godap.ScopesResponse, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	f, err := h.pause.frame(req.Arguments.FrameId)
	if err != nil {
		return nil, err
	}
	var out []godap.Scope
	chain := f.ScopeChain
	// The innermost block scopes and the function's own scope are one
	// "Local" scope, as a reader of the code expects.
	local := &varRef{callFrameID: f.CallFrameID, this: &f.This}
	i := 0
	for ; i < len(chain); i++ {
		t := chain[i].Type
		if t != "block" && t != "catch" && t != "with" && t != "local" {
			break
		}
		local.parts = append(local.parts, scopePart{objectID: chain[i].Object.ObjectID, number: i})
		if t == "local" {
			i++
			break
		}
	}
	if len(local.parts) > 0 {
		out = append(out, godap.Scope{Name: "Local", PresentationHint: "locals", VariablesReference: h.newRefLocked(local)})
	}
	for ; i < len(chain); i++ {
		s := chain[i]
		ref := &varRef{callFrameID: f.CallFrameID, parts: []scopePart{{objectID: s.Object.ObjectID, number: i}}}
		out = append(out, godap.Scope{Name: scopeName(s), VariablesReference: h.newRefLocked(ref), Expensive: s.Type == "global"})
	}
	return &godap.ScopesResponse{Body: godap.ScopesResponseBody{Scopes: out}}, nil
}

func scopeName(s scopeInfo) string {
	var n string
	switch s.Type {
	case "closure":
		n = "Closure"
	case "global":
		return "Global"
	case "script":
		return "Script"
	case "module":
		return "Module"
	case "block":
		n = "Block"
	case "catch":
		n = "Catch"
	case "with":
		n = "With"
	case "eval":
		n = "Eval"
	case "local":
		n = "Local"
	default:
		n = strings.ToUpper(s.Type[:1]) + s.Type[1:]
	}
	if s.Name != "" {
		n += " (" + s.Name + ")"
	}
	return n
}

func (h *Handler) exceptionInfo(context.Context, *godap.ExceptionInfoRequest) (*godap.ExceptionInfoResponse, error) {
	h.mu.Lock()
	p, filter := h.pause, h.exceptionFilter
	h.mu.Unlock()
	if p == nil || p.exception == nil {
		return nil, errors.New("the program is not stopped on an exception")
	}
	ex := p.exception
	mode := godap.ExceptionBreakMode("unhandled")
	if filter == "all" {
		mode = "always"
	}
	id := ex.ClassName
	if id == "" {
		id = ex.Type
	}
	msg := exceptionText(ex)
	return &godap.ExceptionInfoResponse{Body: godap.ExceptionInfoResponseBody{ExceptionId: id, Description: msg, BreakMode: mode,
		Details: &godap.ExceptionDetails{Message: msg, TypeName: id, StackTrace: ex.Description}}}, nil
}
