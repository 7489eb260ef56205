package nodedap

import (
	"context"
	"errors"
	"fmt"

	godap "github.com/google/go-dap"
)

// restartFrame answers DAP restartFrame with V8's Debugger.restartFrame in
// mode StepInto: V8 runs to the start of the frame's function and pauses
// there, reported as a step.
func (h *Handler) restartFrame(ctx context.Context, req *godap.RestartFrameRequest) (*godap.RestartFrameResponse, error) {
	c, err := h.client()
	if err != nil {
		return nil, err
	}
	id := req.Arguments.FrameId
	h.mu.Lock()
	f, err := h.pause.frame(id)
	bottom := err == nil && h.bottomLocked(id)
	h.stepping = err == nil
	h.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if bottom {
		h.mu.Lock()
		h.stepping = false
		h.mu.Unlock()
		return nil, errors.New("the bottom frame of the program (a module's top level, called by node's loader) cannot be restarted")
	}
	err = h.runWith(ctx, c, "Debugger.restartFrame", map[string]any{"callFrameId": f.CallFrameID, "mode": "StepInto"}, nil)
	if err != nil {
		h.mu.Lock()
		h.stepping = false
		h.mu.Unlock()
		return nil, fmt.Errorf("V8 cannot restart %s: %w", orAnonymous(f.FunctionName), err)
	}
	return nil, nil
}

// bottomLocked reports whether the frame id is the program's bottom
// frame: only node's own code calls it. Call with mu held and paused.
func (h *Handler) bottomLocked(id int) bool {
	for _, f := range h.pause.frames[id-h.pause.base+1:] {
		if s := h.scripts[f.Location.ScriptID]; s == nil || !s.internal() {
			return false
		}
	}
	return true
}

func orAnonymous(name string) string {
	if name == "" {
		return "the anonymous function"
	}
	return name
}
