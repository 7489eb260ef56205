package cobol

import (
	"context"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"

	"github.com/dbg-dev/dbg/dap"
)

// Stepping in COBOL terms. A program's paragraphs are labels in one C
// function and PERFORM is a goto that saves its return address in
// frame_ptr->return_address_ptr, so LLDB's own steps see no calls: "next"
// on a PERFORM would walk into the paragraph, and "stepOut" would leave
// the whole program. The proxy fixes both with the PERFORM stack of the
// generated code (frame_ptr, frame_stack):
//
//   - stepOut inside a PERFORMed paragraph breaks once at the return
//     address and continues: the stop is the PERFORM statement;
//   - next that enters a deeper PERFORM does the same and then one more
//     "next", so the paragraph runs and the stop is the statement after
//     the PERFORM.
//
// Outside COBOL frames, or when the PERFORM stack cannot be read, the
// requests go to LLDB unchanged.

// stepState is the step under way, guarded by layer.mu.
type stepState struct {
	returnBP   int  // one-shot breakpoint at a PERFORM's return address
	nextAfter  bool // after returnBP, step once more (a step over)
	overThread int  // a step over waits for its first stop
	overDepth  int  // the PERFORM depth where the step over began
}

// bpNumberRE finds the number in "Breakpoint 5: where = ..." and in a
// stop description "breakpoint 5.1".
var bpNumberRE = regexp.MustCompile(`^(?:Breakpoint|breakpoint) (\d+)`)

// topCOBOLFrame returns the top frame of thread when it is in COBOL.
func (p *layer) topCOBOLFrame(ctx context.Context, thread int) (int, bool) {
	resp, err := p.link.Call(ctx, "stackTrace", map[string]any{"threadId": thread, "startFrame": 0, "levels": 1})
	if err != nil {
		return 0, false
	}
	var st stackTraceBody
	if err := resp.DecodeBody(&st); err != nil || len(st.StackFrames) == 0 || !p.isCOBOL(st.StackFrames[0].Source.Path) {
		return 0, false
	}
	return st.StackFrames[0].ID, true
}

// evalIn evaluates a C expression in frame ("" when it fails).
func (p *layer) evalIn(ctx context.Context, frame int, expr string) string {
	r, err := p.link.Call(ctx, "evaluate", map[string]any{"expression": expr, "frameId": frame, "context": "watch"})
	if err != nil {
		return ""
	}
	var body struct {
		Result string `json:"result"`
	}
	_ = r.DecodeBody(&body)
	return strings.TrimSpace(body.Result)
}

// performDepth returns how many PERFORMs are under way in frame.
func (p *layer) performDepth(ctx context.Context, frame int) (int, bool) {
	n, err := strconv.Atoi(p.evalIn(ctx, frame, "(int)(frame_ptr - frame_stack)"))
	return n, err == nil && n >= 0
}

// breakAtReturn sets a one-shot breakpoint at the return address of the
// innermost PERFORM of frame and returns its number (0: none).
func (p *layer) breakAtReturn(ctx context.Context, frame int) int {
	if d, ok := p.performDepth(ctx, frame); !ok || d == 0 {
		return 0
	}
	addr := p.evalIn(ctx, frame, "(unsigned long)frame_ptr->return_address_ptr")
	if v, err := strconv.ParseUint(addr, 0, 64); err != nil || v == 0 {
		return 0
	}
	r, err := p.link.Call(ctx, "evaluate", map[string]any{"expression": "`breakpoint set --one-shot true --address " + addr, "context": "repl"})
	if err != nil {
		return 0
	}
	var body struct {
		Result string `json:"result"`
	}
	_ = r.DecodeBody(&body)
	for _, line := range strings.Split(body.Result, "\n") {
		if m := bpNumberRE.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[1])
			return n
		}
	}
	return 0
}

// runToReturn continues thread to the breakpoint bp at a PERFORM's
// return; nextAfter asks for one more step there.
func (p *layer) runToReturn(ctx context.Context, thread, bp int, nextAfter bool) error {
	p.mu.Lock()
	p.step.returnBP, p.step.nextAfter = bp, nextAfter
	p.mu.Unlock()
	_, err := p.link.Call(ctx, "continue", map[string]any{"threadId": thread})
	return err
}

// stepOut leaves the PERFORMed paragraph the thread is in.
func (p *layer) stepOut(req *dap.Request, thread int) {
	ctx, cancel := context.WithTimeout(p.link.Context(), readTimeout)
	defer cancel()
	frame, ok := p.topCOBOLFrame(ctx, thread)
	if !ok {
		req.Forward()
		return
	}
	bp := p.breakAtReturn(ctx, frame)
	if bp == 0 {
		req.Forward() // no PERFORM under way
		return
	}
	req.Respond(nil, p.runToReturn(ctx, thread, bp, false))
}

// stepOver is LLDB's next, watched: if it enters a deeper PERFORM the
// paragraph is run to its return (see stepStopped).
func (p *layer) stepOver(req *dap.Request, thread int) {
	ctx, cancel := context.WithTimeout(p.link.Context(), readTimeout)
	defer cancel()
	if frame, ok := p.topCOBOLFrame(ctx, thread); ok {
		if d, ok := p.performDepth(ctx, frame); ok {
			p.mu.Lock()
			p.step.overThread, p.step.overDepth = thread, d
			p.mu.Unlock()
		}
	}
	req.Forward()
}

// stepStopped looks at a stopped event from LLDB while a COBOL step is
// under way. It returns true when it took the event over (it will send
// it, changed, or a later one); false leaves it to be forwarded.
func (p *layer) stepStopped(m *dap.Message) bool {
	var body map[string]any
	if err := m.DecodeBody(&body); err != nil {
		return false
	}
	p.mu.Lock()
	st := p.step
	p.step = stepState{}
	p.mu.Unlock()
	thread := 0
	if f, ok := body["threadId"].(float64); ok {
		thread = int(f)
	}
	if st.returnBP != 0 {
		d, _ := body["description"].(string)
		// LLDB deletes a one-shot breakpoint as it hits, and then
		// describes the stop as "breakpoint 0.0".
		mm := bpNumberRE.FindStringSubmatch(d)
		if mm == nil || (mm[1] != strconv.Itoa(st.returnBP) && mm[1] != "0") {
			// Stopped elsewhere first (a breakpoint): drop ours.
			bp := st.returnBP
			p.link.Go(func() {
				ctx, cancel := context.WithTimeout(p.link.Context(), readTimeout)
				defer cancel()
				_, _ = p.link.Call(ctx, "evaluate", map[string]any{"expression": "`breakpoint delete " + strconv.Itoa(bp), "context": "repl"})
			})
			return false
		}
		if st.nextAfter {
			p.link.Go(func() {
				ctx, cancel := context.WithTimeout(p.link.Context(), readTimeout)
				defer cancel()
				if _, err := p.link.Call(ctx, "next", map[string]any{"threadId": thread}); err != nil {
					p.sendAsStep(m, body)
				}
			})
			return true
		}
		p.sendAsStep(m, body)
		return true
	}
	if st.overThread != 0 && body["reason"] == "step" {
		p.link.Go(func() {
			ctx, cancel := context.WithTimeout(p.link.Context(), readTimeout)
			defer cancel()
			frame, ok := p.topCOBOLFrame(ctx, thread)
			if ok {
				if d, ok := p.performDepth(ctx, frame); ok && d > st.overDepth {
					if bp := p.breakAtReturn(ctx, frame); bp != 0 && p.runToReturn(ctx, thread, bp, true) == nil {
						return
					}
				}
			}
			p.link.Send(m)
		})
		return true
	}
	return false
}

// sendAsStep reports a stop as the end of a step.
func (p *layer) sendAsStep(m *dap.Message, body map[string]any) {
	body["reason"] = "step"
	delete(body, "description")
	delete(body, "hitBreakpointIds")
	m.Body, _ = json.Marshal(body)
	p.link.Send(m)
}
