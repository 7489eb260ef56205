package sessions

import (
	"context"

	godap "github.com/google/go-dap"
)

// A data breakpoint's expression belongs to the frame it was set in
// (st.readings[6] names a local of that frame), and the write that stops
// the program often happens in another (a callee given a pointer), where
// the expression means nothing, or something else. Frame ids do not
// survive a resume, so the frame is known again by its place: its
// thread, its function, and how far it is from the bottom of the stack,
// which do not change while it lives.

// heldFrame is a frame known by its place on its thread's stack.
type heldFrame struct {
	thread     int
	function   string
	fromBottom int // 0: the outermost frame
}

// frameOf returns the place of frame id on the stopped thread's stack,
// or nil when it cannot be read. Some adapters (delve) number the frames
// anew at every read, so the frame is found by its index in the read of
// this stop that showed it.
func (s *Session) frameOf(ctx context.Context, id int) *heldFrame {
	index, ok := s.frameIndex(id)
	if !ok {
		return nil
	}
	thread := s.currentThread()
	frames, ok := s.wholeStack(ctx, thread)
	if !ok || index >= len(frames) {
		return nil
	}
	return &heldFrame{thread: thread, function: frames[index].Name, fromBottom: len(frames) - 1 - index}
}

// find returns the id of the frame at h's place on the current stack, if
// a frame of h's function is there.
func (s *Session) find(ctx context.Context, h *heldFrame) (int, bool) {
	frames, ok := s.wholeStack(ctx, h.thread)
	if !ok || h.fromBottom >= len(frames) {
		return 0, false
	}
	f := frames[len(frames)-1-h.fromBottom]
	return f.Id, f.Name == h.function
}

// maxHeldDepth bounds the stacks read to place a frame: a deeper stack
// places none.
const maxHeldDepth = 500

// wholeStack reads every frame of a thread's stack, innermost first.
func (s *Session) wholeStack(ctx context.Context, thread int) ([]godap.StackFrame, bool) {
	var body godap.StackTraceResponseBody
	if err := s.request(ctx, "stackTrace", godap.StackTraceArguments{ThreadId: thread, Levels: maxHeldDepth}, &body); err != nil {
		return nil, false
	}
	if len(body.StackFrames) >= maxHeldDepth || (body.TotalFrames > 0 && body.TotalFrames > len(body.StackFrames)) {
		return nil, false // cut: the bottom is not in the read
	}
	return body.StackFrames, true
}

// readWatched reads a data breakpoint's expression after the write that
// stopped the program in frame writing: in the frame the breakpoint was
// set in while it lives, else in the writing frame (a global's name
// means the same there). It is nil when neither can read it.
func (s *Session) readWatched(ctx context.Context, db *dataBreakpoint, writing int) *string {
	frame := writing
	if db.at != nil {
		if id, ok := s.find(ctx, db.at); ok {
			frame = id
		}
	}
	var ev godap.EvaluateResponseBody
	if err := s.request(ctx, "evaluate", godap.EvaluateArguments{Expression: db.bp.Expression, FrameId: frame, Context: "watch"}, &ev); err != nil {
		return nil
	}
	v := ev.Result
	return &v
}
