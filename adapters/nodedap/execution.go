package nodedap

import (
	"context"
	"errors"
	"time"

	godap "github.com/google/go-dap"

	"github.com/dbg-dev/dbg/dap"
)

func (h *Handler) configurationDone(ctx context.Context, _ *godap.ConfigurationDoneRequest) (*godap.ConfigurationDoneResponse, error) {
	c, err := h.client()
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	h.configured = true
	p := h.pause
	entry := p != nil && p.entry
	stopOnEntry := h.stopOnEntry
	var hit []int
	if entry && len(p.frames) > 0 {
		hit = h.bps.at(p.frames[0].Location)
	}
	h.mu.Unlock()
	if !entry {
		return nil, nil
	}
	switch {
	case len(hit) > 0:
		h.mu.Lock()
		p.entry = false
		h.mu.Unlock()
		h.event("stopped", map[string]any{"reason": "breakpoint", "threadId": h.thread, "allThreadsStopped": true, "hitBreakpointIds": hit})
	case stopOnEntry:
		h.mu.Lock()
		p.entry = false
		h.mu.Unlock()
		h.event("stopped", map[string]any{"reason": "entry", "threadId": h.thread, "allThreadsStopped": true})
	default:
		return nil, h.run(ctx, c, "Debugger.resume")
	}
	return nil, nil
}

// run sends a command that resumes the program. The pause is forgotten
// before the command goes out, so that no request sees a stale one and a
// new pause arriving meanwhile is kept.
func (h *Handler) run(ctx context.Context, c cdpConn, method string) error {
	return h.runWith(ctx, c, method, nil, nil)
}

// runWith is run with the command's parameters and result.
func (h *Handler) runWith(ctx context.Context, c cdpConn, method string, params, result any) error {
	h.mu.Lock()
	old := h.pause
	h.pause = nil
	h.refs = map[int]*varRef{}
	h.mu.Unlock()
	err := c.Call(ctx, method, params, result)
	if errors.Is(err, ErrClientClosed) {
		// The program ran to its end before the answer came back; its
		// end is reported by the exited and terminated events.
		return nil
	}
	if err != nil {
		h.mu.Lock()
		if h.pause == nil {
			h.pause = old
		}
		h.mu.Unlock()
	}
	return err
}

func (h *Handler) resume(ctx context.Context, method string, step bool) error {
	c, err := h.client()
	if err != nil {
		return err
	}
	h.mu.Lock()
	paused := h.pause != nil
	h.stepping = step
	h.mu.Unlock()
	if !paused {
		return errors.New("the program is not paused")
	}
	return h.run(ctx, c, method)
}

func (h *Handler) pauseReq(ctx context.Context) error {
	c, err := h.client()
	if err != nil {
		return err
	}
	h.mu.Lock()
	h.pausing = true
	h.mu.Unlock()
	if err := c.Call(ctx, "Debugger.pause", nil, nil); err != nil {
		return err
	}
	go h.repeatPause(c)
	return nil
}

// repeatPause asks again a few times while no pause has come: node drops
// a pause request that reaches it while it is still leaving the previous
// pause. Repeating is harmless; V8 keeps one pending pause. A program still
// not paused after the first wait is idle, and gets a timer to pause in.
// It ends when the inspector connection or the handler does.
func (h *Handler) repeatPause(c cdpConn) {
	first := true
	dap.RepeatUntil(context.Background(), c.Done(), 100*time.Millisecond, 10, func() error {
		h.mu.Lock()
		waiting := h.pausing && h.pause == nil
		h.mu.Unlock()
		select {
		case <-h.closed:
			return errNoPause
		default:
		}
		if !waiting {
			return errNoPause
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = c.Call(ctx, "Debugger.pause", nil, nil)
		if first {
			// disableBreaks: the pause must land in the timer, not in
			// this evaluation (node runs it at once, even mid-loop).
			_ = c.Call(ctx, "Runtime.evaluate", map[string]any{"expression": idleKick, "disableBreaks": true, "silent": true}, nil)
			first = false
		}
		return nil
	})
}

// errNoPause ends repeatPause: the pause came, or the handler closed.
var errNoPause = errors.New("no pause to repeat")
