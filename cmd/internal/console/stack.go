package console

import (
	"fmt"
	"strconv"

	"github.com/dbg-dev/dbg/sessions"
)

// stack reads the stopped thread's frames once per stop.
func (p *prompt) stack() ([]sessions.Frame, error) {
	if p.frames != nil {
		return p.frames, nil
	}
	var out struct {
		StackFrames []sessions.Frame `json:"stackFrames"`
	}
	args := p.threadArgs()
	if _, err := p.tools.Call(p.ctx, "get_stack_trace", args, &out); err != nil {
		return nil, err
	}
	p.setFrames(out.StackFrames)
	return p.frames, nil
}

// setFrames keeps a fresh stack. Where the stop was placed in a frame
// below the top (the user's frame under a panic's runtime frames), that
// frame is the selected one, as the stop printed it.
func (p *prompt) setFrames(frames []sessions.Frame) {
	fresh := p.frames == nil
	p.frames = frames
	if p.frame >= len(frames) {
		p.frame = 0
	}
	if !fresh || p.frame != 0 || p.stop == nil || p.stop.Location == nil || p.thread != 0 {
		return
	}
	l := p.stop.Location
	for i, f := range frames {
		if f.File == l.File && f.Line == l.Line {
			p.frame = i
			return
		}
	}
}

// selected is the frame chosen with frame/up/down, nil before the stack
// was read (the top frame, which the tools default to).
func (p *prompt) selected() *sessions.Frame {
	if p.frame < len(p.frames) && p.frames != nil {
		return &p.frames[p.frame]
	}
	return nil
}

// frameArgs names the session and, once one other than the top is
// chosen, the selected frame.
func (p *prompt) frameArgs() map[string]any {
	a := p.sid()
	if f := p.selected(); f != nil && (p.frame != 0 || p.thread != 0) {
		a["frameId"] = f.ID
	}
	return a
}

func (p *prompt) cmdBacktrace(string) error {
	frame := p.frame
	p.frames = nil
	var out struct {
		StackFrames []sessions.Frame `json:"stackFrames"`
	}
	return p.call("get_stack_trace", p.threadArgs(), &out, func() {
		p.setFrames(out.StackFrames)
		if frame != 0 && frame < len(p.frames) {
			p.frame = frame // bt keeps the frame chosen
		}
		for i := range p.frames {
			p.printf("%s\n", p.describeFrame(i))
		}
	})
}

// describeFrame is frame i of the stack on one line, the selected one
// marked.
func (p *prompt) describeFrame(i int) string {
	f := p.frames[i]
	mark := "  "
	if i == p.frame {
		mark = p.paint.mark("* ")
	}
	s := fmt.Sprintf("%s#%d %s", mark, i, p.paint.fn(f.Name))
	if f.File != "" {
		s += " at " + p.paint.loc(fmt.Sprintf("%s:%d", f.File, f.Line))
	}
	return s
}

func (p *prompt) cmdFrame(arg string) error {
	n, err := strconv.Atoi(arg)
	if err != nil || n < 0 {
		return fmt.Errorf("usage: frame N (N from bt)")
	}
	return p.selectFrame(n)
}

func (p *prompt) cmdUp(arg string) error   { return p.moveFrame(arg, 1) }
func (p *prompt) cmdDown(arg string) error { return p.moveFrame(arg, -1) }

func (p *prompt) moveFrame(arg string, dir int) error {
	n := 1
	if arg != "" {
		var err error
		if n, err = strconv.Atoi(arg); err != nil || n < 1 {
			return fmt.Errorf("usage: up [N] / down [N]")
		}
	}
	if _, err := p.stack(); err != nil {
		return err
	}
	return p.selectFrame(p.frame + dir*n)
}

// selectFrame makes frame n the one locals, print and set use, and shows
// it with its line.
func (p *prompt) selectFrame(n int) error {
	frames, err := p.stack()
	if err != nil {
		return err
	}
	if n < 0 || n >= len(frames) {
		return fmt.Errorf("no frame %d (the stack has %d: #0 to #%d)", n, len(frames), len(frames)-1)
	}
	p.frame, p.names = n, nil
	f := frames[n]
	if p.json {
		return p.io.PrintJSON(f)
	}
	p.printf("%s\n", p.describeFrame(n))
	if f.File != "" {
		p.listAround(f.File, f.Line, 2, f.Line)
	}
	return nil
}
