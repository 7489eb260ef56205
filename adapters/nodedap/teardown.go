package nodedap

import (
	"context"
	"errors"
	"syscall"
	"time"

	godap "github.com/google/go-dap"

	"github.com/dbg-dev/dbg/dap"
)

// finish reports the debuggee's end once: exited (with the exit code when
// we launched it) and terminated.
func (h *Handler) finish() {
	h.mu.Lock()
	if h.ended {
		h.mu.Unlock()
		return
	}
	h.ended = true
	if h.parent != nil {
		// A worker's or child's end is reported by the main handler
		// (thread exited).
		h.pause = nil
		onEnd := h.onEnd
		h.mu.Unlock()
		close(h.finished)
		if onEnd != nil {
			onEnd()
		}
		return
	}
	proc := h.proc
	h.pause = nil
	if !h.startDone {
		h.startDone = true
		if h.startErr == nil {
			h.startErr = errors.New("the program ended before it started")
		}
		close(h.started)
	}
	h.mu.Unlock()
	if proc != nil {
		t := time.NewTimer(5 * time.Second)
		select {
		case <-proc.proc.Exited():
		case <-t.C:
			proc.proc.Kill()
		}
		t.Stop()
		h.event("exited", godap.ExitedEventBody{ExitCode: exitCode(proc.proc)})
	}
	h.event("terminated", nil)
	close(h.finished)
}

// Close ends the session: a launched program is killed with its process
// group; an attached one is resumed, its breakpoints removed, and left
// running. It is safe to call more than once and waits for the cleanup.
func (h *Handler) Close() {
	h.stop.Do(func() {
		h.mu.Lock()
		h.disconnect = true
		h.mu.Unlock()
		h.silenceWorkers()
		h.shutdown(false)
		close(h.closed)
	})
	<-h.closed
}

// shutdown kills or releases the debuggee.
func (h *Handler) shutdown(terminate bool) {
	h.mu.Lock()
	c, proc, pid := h.cdp, h.proc, h.attachedPID
	h.mu.Unlock()
	if proc != nil {
		if c != nil {
			_ = c.Close()
		}
		proc.proc.Kill()
		return
	}
	if c == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if terminate {
		endAttached(ctx, c, pid)
	} else {
		// Debugger.disable removes our breakpoints and resumes the program.
		_ = c.Call(ctx, "Debugger.setPauseOnExceptions", map[string]any{"state": "none"}, nil)
		_ = c.Call(ctx, "Debugger.disable", nil, nil)
		_ = c.Call(ctx, "Runtime.runIfWaitingForDebugger", nil, nil)
	}
	_ = c.Close()
}

func (h *Handler) disconnectReq(ctx context.Context, req *dap.DisconnectRequest) (*godap.DisconnectResponse, error) {
	h.mu.Lock()
	launched := h.proc != nil
	h.mu.Unlock()
	terminate := req.Terminate(launched)
	h.stop.Do(func() {
		h.mu.Lock()
		h.disconnect = true
		h.mu.Unlock()
		h.silenceWorkers()
		if !launched || terminate {
			h.shutdown(terminate)
		} else {
			// A launched program the client wants left running: resume it
			// and let it go.
			h.shutdownKeep()
		}
		close(h.closed)
	})
	return nil, nil
}

// shutdownKeep detaches from a launched program without killing it.
func (h *Handler) shutdownKeep() {
	h.mu.Lock()
	c := h.cdp
	h.proc = nil
	h.mu.Unlock()
	if c == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	// Nobody will attach to the children it forks from now on.
	_ = c.Call(ctx, "Runtime.evaluate", map[string]any{"expression": noWaitExpr, "silent": true}, nil)
	_ = c.Call(ctx, "Debugger.disable", nil, nil)
	_ = c.Close()
}

func (h *Handler) terminate(ctx context.Context, _ *godap.TerminateRequest) (*godap.TerminateResponse, error) {
	h.mu.Lock()
	c, proc := h.cdp, h.proc
	h.mu.Unlock()
	if proc != nil {
		go func() {
			if c != nil {
				_ = c.Close()
			}
			proc.proc.Kill()
		}()
		return nil, nil
	}
	if c == nil {
		return nil, errors.New("not connected to a program")
	}
	h.mu.Lock()
	pid := h.attachedPID
	h.mu.Unlock()
	endAttached(ctx, c, pid)
	return nil, nil
}

// endAttached ends a program we attached to: SIGTERM when its pid is
// known, else process.exit() evaluated in it (which a program busy in a
// loop runs only once it pauses).
func endAttached(ctx context.Context, c cdpConn, pid int) {
	if pid > 0 && syscall.Kill(pid, syscall.SIGTERM) == nil {
		return
	}
	_ = c.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "process.exit(0)"}, nil)
}
