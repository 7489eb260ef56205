package mockdap

import (
	"context"
	"errors"
	"fmt"
	"strings"

	godap "github.com/google/go-dap"

	"github.com/dbg-dev/dbg/adapters/bpcond"
)

// Data breakpoints of the mock: a watch on a variable of one frame (or a
// top-level one) stops before an instruction writes it, at the writing
// line, with the value before and the value to be written.

// dataWatch is one data breakpoint.
type dataWatch struct {
	id        int
	frame     int // the frame's id; 0: the top level
	name      string
	condition string
	hit       bpcond.Hit
	hits      int
}

func (a *adapter) dataBreakpointInfo(_ context.Context, req *godap.DataBreakpointInfoRequest) (*godap.DataBreakpointInfoResponse, error) {
	args := &req.Arguments
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.running || a.mach == nil || len(a.mach.frames) == 0 {
		return nil, errors.New("the program is not stopped")
	}
	f := a.mach.top()
	if args.FrameId != 0 {
		if ff, err := a.mach.frameByID(args.FrameId); err == nil {
			f = ff
		}
	}
	name := strings.TrimSpace(args.Name)
	switch {
	case f.locals[name] != nil:
	case a.mach.frames[0].locals[name] != nil:
		f = a.mach.frames[0]
	default:
		return &godap.DataBreakpointInfoResponse{Body: godap.DataBreakpointInfoResponseBody{Description: fmt.Sprintf("no variable %s in scope", name)}}, nil
	}
	frame := f.id
	if f == a.mach.frames[0] {
		frame = 0
	}
	return &godap.DataBreakpointInfoResponse{Body: godap.DataBreakpointInfoResponseBody{DataId: fmt.Sprintf("%d/%s", frame, name), Description: name,
		AccessTypes: []godap.DataBreakpointAccessType{"write"}}}, nil
}

func (a *adapter) setDataBreakpoints(_ context.Context, req *godap.SetDataBreakpointsRequest) (*godap.SetDataBreakpointsResponse, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.watches = nil
	out := []godap.Breakpoint{}
	for _, b := range req.Arguments.Breakpoints {
		a.nextBP++
		var frame int
		var name string
		if _, err := fmt.Sscanf(b.DataId, "%d/%s", &frame, &name); err != nil || (b.AccessType != "" && b.AccessType != "write") {
			out = append(out, godap.Breakpoint{Id: a.nextBP, Message: "the mock watches writes of variables only"})
			continue
		}
		hit, err := bpcond.ParseHit(b.HitCondition)
		if err != nil {
			out = append(out, godap.Breakpoint{Id: a.nextBP, Message: err.Error()})
			continue
		}
		a.watches = append(a.watches, &dataWatch{id: a.nextBP, frame: frame, name: name, condition: b.Condition, hit: hit})
		out = append(out, godap.Breakpoint{Id: a.nextBP, Verified: true})
	}
	return &godap.SetDataBreakpointsResponse{Body: godap.SetDataBreakpointsResponseBody{Breakpoints: out}}, nil
}

// breakWrite decides whether writing v to name in frame f stops; the stop
// carries the old and new value. Called by the runner before the write.
func (a *adapter) breakWrite(m *machine, f *frame, name string, v value) (stopEvent, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	frame := f.id
	if f == m.frames[0] {
		frame = 0
	}
	for _, w := range a.watches {
		if w.frame != frame || w.name != name {
			continue
		}
		w.hits++
		if !w.hit.Match(w.hits) {
			continue
		}
		if w.condition != "" {
			if c, err := evalExpr(w.condition, m.lookupIn(f)); err != nil || !truthy(c) {
				continue
			}
		}
		old, nv := show(f.locals[name]), show(v)
		return stopEvent{reason: "data breakpoint", description: fmt.Sprintf("%s: %s → %s", name, old, nv), bpIDs: []int{w.id},
			data: map[string]any{"expression": name, "old": old, "new": nv}}, true
	}
	return stopEvent{}, false
}

func show(v value) string {
	if v == nil {
		return "undefined"
	}
	return formatValue(v)
}

// watchWrite asks the hook whether a write stops, once per write: the
// write a stop was made before runs when the program resumes.
func (m *machine) watchWrite(h hooks, f *frame, name string, v value) (stopEvent, bool) {
	if m.watchPassed || h.breakWrite == nil {
		m.watchPassed = false
		return stopEvent{}, false
	}
	ev, stop := h.breakWrite(m, f, name, v)
	m.watchPassed = stop
	return ev, stop
}

// stoppedData reports a data breakpoint's stop with its values.
func (a *adapter) stoppedData(ev stopEvent) {
	a.conn().Event("stopped", map[string]any{"reason": ev.reason, "threadId": 1, "allThreadsStopped": true,
		"description": ev.description, "hitBreakpointIds": ev.bpIDs, "dbgData": ev.data})
}
