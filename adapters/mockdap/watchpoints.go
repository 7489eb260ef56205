package mockdap

import (
	"fmt"
	"strings"

	godap "github.com/google/go-dap"

	"github.com/dbg-dev/dbg/adapters/bpcond"
	"github.com/dbg-dev/dbg/dap"
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

// dataBreakpoints answers dataBreakpointInfo and setDataBreakpoints.
func (a *adapter) dataBreakpoints(s *dap.ServerConn, req *dap.Message) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if req.Command == "dataBreakpointInfo" {
		var args godap.DataBreakpointInfoArguments
		_ = dap.DecodeArgs(req, &args)
		if a.running || a.mach == nil || len(a.mach.frames) == 0 {
			s.RespondError(req, "the program is not stopped")
			return
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
			s.Respond(req, map[string]any{"dataId": nil, "description": fmt.Sprintf("no variable %s in scope", name)})
			return
		}
		frame := f.id
		if f == a.mach.frames[0] {
			frame = 0
		}
		s.Respond(req, map[string]any{"dataId": fmt.Sprintf("%d/%s", frame, name), "description": name,
			"accessTypes": []string{"write"}})
		return
	}
	var args godap.SetDataBreakpointsArguments
	_ = dap.DecodeArgs(req, &args)
	a.watches = nil
	out := []godap.Breakpoint{}
	for _, b := range args.Breakpoints {
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
	s.Respond(req, godap.SetDataBreakpointsResponseBody{Breakpoints: out})
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
