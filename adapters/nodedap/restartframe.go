package nodedap

import (
	"context"
	"errors"
	"fmt"

	"github.com/dbg-dev/dbg/dap"
)

// restartFrame answers DAP restartFrame with V8's Debugger.restartFrame in
// mode StepInto: V8 runs to the start of the frame's function and pauses
// there, reported as a step.
func (h *Handler) restartFrame(ctx context.Context, req *dap.Message) error {
	var a struct {
		FrameID int `json:"frameId"`
	}
	if err := dap.DecodeArgs(req, &a); err != nil {
		return err
	}
	c, err := h.client()
	if err != nil {
		return err
	}
	h.mu.Lock()
	f, err := h.pause.frame(a.FrameID)
	bottom := err == nil && h.bottomLocked(a.FrameID)
	h.stepping = err == nil
	h.mu.Unlock()
	if err != nil {
		return err
	}
	if bottom {
		h.mu.Lock()
		h.stepping = false
		h.mu.Unlock()
		return errors.New("the bottom frame of the program (a module's top level, called by node's loader) cannot be restarted")
	}
	err = h.runWith(ctx, c, "Debugger.restartFrame", map[string]any{"callFrameId": f.CallFrameID, "mode": "StepInto"}, nil)
	if err != nil {
		h.mu.Lock()
		h.stepping = false
		h.mu.Unlock()
		return fmt.Errorf("V8 cannot restart %s: %w", orAnonymous(f.FunctionName), err)
	}
	return nil
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
