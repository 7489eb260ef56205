package ruby

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"time"

	"github.com/dbg-dev/dbg/adapters/bpcond"
	"github.com/dbg-dev/dbg/dap"
)

// rubyBP is a breakpoint as the session set it.
type rubyBP struct {
	cond, hit, log string
	hits           int // times the condition held
}

// event filters rdbg's events: stops at breakpoints the session has
// removed are resumed silently, stops with a condition, hit condition or
// log message are decided by the layer, and repeated pauses are reported
// once. A stop the layer's own pause makes before a detach goes to that
// detach alone.
func (x *Proxy) event(m *dap.Message) dap.Verdict {
	if m.Event != "stopped" {
		return dap.Pass
	}
	var st stopBody
	_ = m.DecodeBody(&st)
	x.stoppedOnce.Do(func() { close(x.stoppedCh) })
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.purge != nil {
		select {
		case x.purge <- st.ThreadID:
		default:
		}
		return dap.Hold
	}
	v := x.filterStop(m, st)
	if v == dap.Pass {
		x.stopped = st.ThreadID
	}
	return v
}

// stopBody is what the layer reads of a stopped event.
type stopBody struct {
	Reason      string `json:"reason"`
	Description string `json:"description"`
	ThreadID    int    `json:"threadId"`
}

// filterStop decides a stop of rdbg's, with mu held.
func (x *Proxy) filterStop(m *dap.Message, st stopBody) dap.Verdict {
	if x.connectStop {
		// rdbg pauses every program a client connects to. Whether the
		// session wants it paused is its call: it sends a pause (after
		// attach, unless stopOnEntry is false). Resume unless it has.
		x.connectStop = false
		if !x.keepConnectStop {
			x.continueThread(st.ThreadID)
			return dap.Hold
		}
		x.pauseSent = true
		return dap.Pass
	}
	stepping := x.stepping
	x.stepping = false
	if stepping && st.Reason == "breakpoint" && st.Description == "temporary bp" {
		// rdbg ends some steps on a temporary breakpoint of its own.
		var body map[string]any
		if err := m.DecodeBody(&body); err == nil {
			body["reason"] = "step"
			delete(body, "description")
			delete(body, "text")
			m.Body = mustJSON(body)
		}
		return dap.Pass
	}
	switch st.Reason {
	case "exception":
		// rdbg never removes an exception filter once set: decide here
		// whether the session's current filters want this stop.
		switch {
		case x.excWant["any"]:
		case x.excWant["RuntimeError"]:
			x.link.Go(func() { x.checkException(m, st.ThreadID, st.Description) })
			return dap.Hold
		default:
			x.continueThread(st.ThreadID)
			return dap.Hold
		}
		x.lastException = st.Description
	case "pause":
		if x.pauseSent {
			return dap.Hold
		}
		x.pauseSent = true
	case "breakpoint":
		if loc := rubyBPRE.FindStringSubmatch(st.Description); loc != nil {
			line, _ := strconv.Atoi(loc[2])
			want, ok := x.bps[filepath.Clean(loc[1])]
			if !ok {
				return dap.Pass
			}
			bp := want[line]
			if bp == nil {
				x.continueThread(st.ThreadID)
				return dap.Hold
			}
			if bp.cond != "" || bp.hit != "" || bp.log != "" {
				x.link.Go(func() { x.checkStop(m, st.ThreadID, bp) })
				return dap.Hold
			}
		}
	}
	return dap.Pass
}

// checkStop decides a stop at a breakpoint with a condition, a hit
// condition or a log message: it reports the stop, or logs and resumes.
// It runs on its own goroutine (it waits for rdbg's answers).
func (x *Proxy) checkStop(stop *dap.Message, thread int, bp *rubyBP) {
	ctx, cancel := context.WithTimeout(x.link.Context(), 10*time.Second)
	defer cancel()
	frame, err := x.topFrame(ctx, thread)
	if err != nil {
		x.mu.Lock()
		x.stopped = thread
		x.mu.Unlock()
		x.link.Send(stop) // cannot decide: show the stop
		return
	}
	if bp.cond != "" {
		v, err := x.eval(ctx, frame, bp.cond)
		if err == nil && (v == "false" || v == "nil") {
			x.continueThread(thread)
			return
		}
	}
	x.mu.Lock()
	bp.hits++
	hits := bp.hits
	x.mu.Unlock()
	if !hitPasses(bp.hit, hits) {
		x.continueThread(thread)
		return
	}
	if bp.log != "" {
		msg := bpcond.Interpolate(bp.log, func(expr string) (string, error) { return x.eval(ctx, frame, expr) })
		x.link.Event("output", map[string]any{"category": "console", "output": msg + "\n"})
		x.continueThread(thread)
		return
	}
	x.mu.Lock()
	x.stopped = thread
	x.mu.Unlock()
	x.link.Send(stop)
}

// hitPasses reports whether the hits-th hit passes a hit condition
// ([bpcond] semantics); one that does not parse always stops.
func hitPasses(cond string, hits int) bool {
	h, err := bpcond.ParseHit(cond)
	return err != nil || h.Match(hits)
}

// checkException reports an exception stop when the exception is a
// RuntimeError (the "RuntimeError" filter), and resumes otherwise. It
// runs on its own goroutine.
func (x *Proxy) checkException(stop *dap.Message, thread int, desc string) {
	ctx, cancel := context.WithTimeout(x.link.Context(), 10*time.Second)
	defer cancel()
	class := rubyExceptionClass(desc)
	if frame, err := x.topFrame(ctx, thread); err == nil && rubyConstRE.MatchString(class) {
		if v, err := x.eval(ctx, frame, "("+class+" <= ::RuntimeError) == true"); err == nil && v == "false" {
			x.continueThread(thread)
			return
		}
	}
	x.mu.Lock()
	x.lastException = desc
	x.pauseSent = false
	x.stopped = thread
	x.mu.Unlock()
	x.link.Send(stop)
}

// rubyConstRE accepts a (namespaced) class name.
var rubyConstRE = regexp.MustCompile(`^(?:::)?[A-Z]\w*(?:::[A-Z]\w*)*$`)

// topFrame returns the id of thread's top frame.
func (x *Proxy) topFrame(ctx context.Context, thread int) (int, error) {
	return x.frameWhere(ctx, thread, 1, func(string) bool { return true })
}

// frameWhere returns the id of the first of thread's top levels frames
// whose name ok accepts.
func (x *Proxy) frameWhere(ctx context.Context, thread, levels int, ok func(name string) bool) (int, error) {
	resp, err := x.link.Call(ctx, "stackTrace", map[string]any{"threadId": thread, "startFrame": 0, "levels": levels})
	if err != nil {
		return 0, callError(err)
	}
	var body struct {
		StackFrames []struct {
			ID   int    `json:"id"`
			Name string `json:"name"`
		} `json:"stackFrames"`
	}
	if err := resp.DecodeBody(&body); err != nil {
		return 0, fmt.Errorf("no stack frames: %v", err)
	}
	for _, f := range body.StackFrames {
		if ok(f.Name) {
			return f.ID, nil
		}
	}
	return 0, errors.New("no such frame in the stack")
}

// eval evaluates expr in frame.
func (x *Proxy) eval(ctx context.Context, frame int, expr string) (string, error) {
	resp, err := x.link.Call(ctx, "evaluate", map[string]any{"expression": expr, "frameId": frame, "context": "watch"})
	if err != nil {
		return "", callError(err)
	}
	var body struct {
		Result string `json:"result"`
	}
	if err := resp.DecodeBody(&body); err != nil {
		return "", err
	}
	return body.Result, nil
}
