package ruby

import (
	"context"
	"strings"
	"time"
)

// rubyDropLineBreakpoints, evaluated in a frame of the program, deletes
// every line breakpoint rdbg holds.
const rubyDropLineBreakpoints = `::DEBUGGER__::SESSION.instance_variable_get(:@bps).delete_if { |_, bp| bp.is_a?(::DEBUGGER__::LineBreakpoint) && (bp.delete; true) }.size`

// dropBreakpoints takes every line breakpoint out of rdbg before an
// attach session lets the program go. Old rdbg removes none through
// setBreakpoints (the layer only skips their stops), and a stop at one
// after the disconnect kills the program: rdbg writes the stop to the
// closed socket. It pauses the program unless the session holds it
// stopped (the stop goes to no one), deletes them in a frame of Ruby
// code, and the disconnect that follows resumes the program. It runs on
// a goroutine of the proxy, within the session's bound on a disconnect;
// a step that fails leaves things as they were.
func (x *Proxy) dropBreakpoints() {
	ctx, cancel := context.WithTimeout(x.link.Context(), 1500*time.Millisecond)
	defer cancel()
	x.mu.Lock()
	thread := x.stopped
	ch := make(chan int, 1)
	if thread == 0 {
		x.purge = ch
	}
	x.mu.Unlock()
	defer func() {
		x.mu.Lock()
		x.purge = nil
		x.mu.Unlock()
	}()
	if thread == 0 {
		if _, err := x.link.Call(ctx, "pause", map[string]any{"threadId": 1}); err != nil {
			return
		}
		select {
		case thread = <-ch:
		case <-ctx.Done():
			return
		}
	}
	frame, err := x.rubyFrame(ctx, thread)
	if err != nil {
		return
	}
	if _, err := x.link.Call(ctx, "evaluate", map[string]any{"expression": rubyDropLineBreakpoints, "frameId": frame, "context": "repl"}); err == nil {
		x.mu.Lock()
		x.held = false
		x.mu.Unlock()
	}
}

// rubyFrame returns the id of thread's first frame of Ruby code (a
// frame of a C method, "[C] Kernel#sleep", evaluates nothing).
func (x *Proxy) rubyFrame(ctx context.Context, thread int) (int, error) {
	return x.frameWhere(ctx, thread, 20, func(name string) bool { return !strings.HasPrefix(name, "[C] ") })
}
