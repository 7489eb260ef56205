package adapters

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/dbg-dev/dbg/dap"
)

// delve 1.27 takes a pause for a request to cancel debug-info downloads
// while its target holds shared libraries whose images it added since the
// target last stopped: it cancels them and never answers. A Go program
// that uses net or cgo loads such libraries, so on an idle service
// attached to and then continued, every pause was lost, until a
// breakpoint happened to stop it. Any stop clears that state, and delve
// stops a running target to change its breakpoints. So when a pause gets
// no answer in goPauseWait, goPauseLayer sets the instruction breakpoints
// (dbg sets none: the set stays empty), which halts the target and lets
// delve resume it at once, and sends the pause again, which delve then
// honours.

// goPauseWait is how long a pause waits for delve's answer before it is
// taken for lost. delve answers a pause once the target has stopped,
// within milliseconds on a healthy machine.
const goPauseWait = 500 * time.Millisecond

// goPauseLayer makes pause work on targets where delve loses it.
func goPauseLayer(l *dap.Link) dap.Hooks {
	return dap.Hooks{Request: func(r *dap.Request) dap.Verdict {
		if r.Command != "pause" {
			return dap.Pass
		}
		var args any
		if len(r.Arguments) > 0 {
			args = json.RawMessage(r.Arguments)
		}
		l.Go(func() { r.Respond(nil, goPause(l, args)) })
		return dap.Hold
	}}
}

// goPause sends pause, and once more after a halt when delve lost it.
func goPause(l *dap.Link, args any) error {
	ctx, cancel := context.WithTimeout(l.Context(), goPauseWait)
	_, err := l.Call(ctx, "pause", args)
	cancel()
	if err == nil || !errors.Is(err, dap.ErrTimeout) {
		return err
	}
	if _, err := l.Call(l.Context(), "setInstructionBreakpoints", map[string]any{"breakpoints": []any{}}); err != nil {
		return err
	}
	_, err = l.Call(l.Context(), "pause", args)
	return err
}
