package console

import "context"

func (p *prompt) cmdDetach(string) error {
	return p.leave("detached; a launched program ends with its session")
}

func (p *prompt) cmdKill(string) error {
	if !p.confirm("Kill the program? (y or n) ") {
		return nil
	}
	ctx := context.WithoutCancel(p.ctx)
	if !p.launched {
		if _, err := p.tools.Call(ctx, "detach_from_process", map[string]any{"sessionId": p.id, "terminateProcess": true}, nil); err != nil {
			return err
		}
	}
	if _, err := p.tools.Call(ctx, "close_debug_session", p.sid(), nil); err != nil {
		return err
	}
	p.closed = true
	p.done("killed")
	return errEnd
}

func (p *prompt) cmdQuit(string) error { return p.leave("closed") }

// leave ends the session as quit does and says so: an attached process
// keeps running, a launched one ends (launched says it).
func (p *prompt) leave(launched string) error {
	if err := p.quit(); err != nil {
		return err
	}
	if p.launched {
		p.done(launched)
	} else {
		p.done("detached; the process keeps running")
	}
	return errEnd
}
