package mockdap

import (
	"context"
	"errors"
	"maps"

	godap "github.com/google/go-dap"

	"github.com/dbg-dev/dbg/dap"
)

// restartFrame answers DAP restartFrame: the frames above the one named
// are dropped, and it starts its function again with the locals it was
// called with, stopped (reason "restart") at the function's first line.
func (a *adapter) restartFrame(ctx context.Context, req *godap.RestartFrameRequest) (*godap.RestartFrameResponse, error) {
	if err := a.requireStopped(); err != nil {
		return nil, err
	}
	a.mu.Lock()
	err := a.mach.restart(req.Arguments.FrameId)
	a.mu.Unlock()
	if err != nil {
		return nil, err
	}
	dap.AfterResponse(ctx, func() { a.stopped("restart", "restarted frame", "", nil) })
	return nil, nil
}

// restart makes the frame id the top frame again, at its function's
// start with its entry locals.
func (m *machine) restart(id int) error {
	f, err := m.frameByID(id)
	if err != nil {
		return err
	}
	if f.fn == nil {
		return errors.New("the bottom frame (the program's top level) cannot be restarted")
	}
	for m.top() != f {
		m.frames = m.frames[:len(m.frames)-1]
	}
	f.pc = f.fn.start
	f.locals = maps.Clone(f.entry)
	return nil
}
