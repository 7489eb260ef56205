package console

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/dbg-dev/dbg/sessions"
)

func (p *prompt) cmdThreads(string) error {
	var out struct {
		Threads []sessions.Thread `json:"threads"`
	}
	return p.call("list_threads", p.sid(), &out, func() {
		current := p.thread
		if current == 0 && p.stop != nil {
			current = p.stop.ThreadID
		}
		for _, t := range out.Threads {
			mark := "  "
			if t.ID == current {
				mark = p.paint.mark("* ")
			}
			p.printf("%s%d %s\n", mark, t.ID, t.Name)
		}
	})
}

func (p *prompt) cmdThread(arg string) error {
	n, err := strconv.Atoi(arg)
	if err != nil || n <= 0 {
		return fmt.Errorf("usage: thread N (N from threads)")
	}
	var out struct {
		Threads []sessions.Thread `json:"threads"`
	}
	if _, err := p.tools.Call(p.ctx, "list_threads", p.sid(), &out); err != nil {
		return err
	}
	var ids []string
	for _, t := range out.Threads {
		if t.ID == n {
			p.thread, p.frames, p.frame, p.names = n, nil, 0, nil
			if p.json {
				return p.io.PrintJSON(t)
			}
			p.printf("thread %d %s\n", t.ID, t.Name)
			return nil
		}
		ids = append(ids, strconv.Itoa(t.ID))
	}
	return fmt.Errorf("no thread %d (threads: %s)", n, strings.Join(ids, ", "))
}

func (p *prompt) cmdList(arg string) error {
	file, line := p.currentFile(), 0
	if f := p.selected(); f != nil && f.File != "" {
		line = f.Line
	} else if p.stop != nil && p.stop.Location != nil {
		line = p.stop.Location.Line
	}
	if arg != "" {
		var ok bool
		if file, line, ok = FileLine(arg, file); !ok {
			return fmt.Errorf("usage: list [LINE | FILE:LINE]")
		}
	}
	if file == "" || line == 0 {
		return fmt.Errorf("no current source line; pass FILE:LINE")
	}
	mark := 0
	if f := p.selected(); f != nil && f.File == file {
		mark = f.Line
	} else if p.stop != nil && p.stop.Location != nil && p.stop.Location.File == file {
		mark = p.stop.Location.Line
	}
	return p.listAround(file, line, 5, mark)
}

// listAround prints ctx lines either side of line in file, mark marked.
func (p *prompt) listAround(file string, line, ctx, mark int) error {
	var out struct {
		File  string                `json:"file"`
		Lines []sessions.SourceLine `json:"lines"`
	}
	return p.call("get_source_context", map[string]any{"sessionId": p.id, "file": file, "line": line, "linesContext": ctx}, &out, func() {
		p.printSource(out.Lines, mark)
	})
}

func (p *prompt) cmdOutput(string) error {
	var out struct {
		Text      string `json:"text"`
		NextSince int64  `json:"nextSince"`
	}
	a := p.sid()
	if p.since > 0 {
		a["since"] = p.since
	}
	return p.call("get_output", a, &out, func() {
		p.since = out.NextSince
		if out.Text == "" {
			p.printf("no new output\n")
			return
		}
		p.printf("%s", out.Text)
		if !strings.HasSuffix(out.Text, "\n") {
			p.printf("\n")
		}
	})
}

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
