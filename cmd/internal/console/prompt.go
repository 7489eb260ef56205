package console

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
	"github.com/dbg-dev/dbg/cmd/internal/toolclient"
	"github.com/dbg-dev/dbg/sessions"
)

// prompt is one console's state. It is used by the command loop's
// goroutine; the completer reads it from the editor's goroutine only
// while the loop waits in ReadLine.
type prompt struct {
	ctx        context.Context
	tools      Caller
	io         *iostreams.IOStreams
	json       bool
	terminal   bool
	paint      painter
	interrupts <-chan struct{}
	ed         editor

	id       string
	launched bool
	ended    bool // the program ended at the last command
	closed   bool // the session was detached or closed

	stop     *sessions.StopInfo // the last stop, nil while running
	frames   []sessions.Frame   // the stopped thread's stack, read on demand
	frame    int                // the selected frame's index in frames
	thread   int                // the thread chosen with `thread N` (0 = the stopped one)
	displays []string           // expressions shown at every stop
	temps    map[int]bool       // tbreak breakpoints, removed once hit
	since    int64              // the output already shown
	names    []string           // the selected frame's local names, for completion
}

func newPrompt(ctx context.Context, cfg Config) *prompt {
	return &prompt{ctx: ctx, tools: cfg.Tools, io: cfg.IO, json: cfg.JSON, terminal: cfg.Terminal,
		paint: painter{on: cfg.Color}, interrupts: cfg.Interrupts, temps: map[int]bool{}}
}

// run executes one command line.
func (p *prompt) run(line string) error {
	verb, rest, _ := strings.Cut(line, " ")
	c := lookup(verb)
	if c == nil {
		return fmt.Errorf("unknown command %q (help lists the commands)", verb)
	}
	return c.run(p, strings.TrimSpace(rest))
}

// sid is the argument map naming the session.
func (p *prompt) sid() map[string]any { return map[string]any{"sessionId": p.id} }

// call calls a tool and shows its answer: the raw JSON with JSON set,
// else readable(). readable may be nil when the answer says nothing.
func (p *prompt) call(tool string, args map[string]any, out any, readable func()) error {
	raw, err := p.tools.Call(p.ctx, tool, args, out)
	if err != nil {
		return err
	}
	return p.show(raw, readable)
}

// show prints an answer: raw with JSON set, else readable() (nil: the
// answer says nothing).
func (p *prompt) show(raw json.RawMessage, readable func()) error {
	if p.json {
		return p.io.PrintRawJSON(raw)
	}
	if readable != nil {
		readable()
	}
	return nil
}

// fail prints a command's error: the envelope with JSON set, else a
// line on stderr.
func (p *prompt) fail(err error) {
	if p.json {
		var f *toolclient.Failure
		if errors.As(err, &f) {
			_ = toolclient.Finish(p.io.Out, true, err)
			return
		}
		_ = p.io.PrintJSON(map[string]any{"success": false, "error": map[string]string{"code": "INVALID_ARGUMENT", "message": err.Error()}})
		return
	}
	fmt.Fprintln(p.io.ErrOut, p.paint.err("error:"), err)
}

// printf writes readable output (never in JSON mode).
func (p *prompt) printf(format string, args ...any) {
	if !p.json {
		fmt.Fprintf(p.io.Out, format, args...)
	}
}

// done says how the session ended: a line, or with JSON set a document
// {sessionId, message}.
func (p *prompt) done(msg string) {
	if p.json {
		_ = p.io.PrintJSON(map[string]string{"sessionId": p.id, "message": msg})
		return
	}
	fmt.Fprintln(p.io.Out, msg)
}

// promptText is the prompt shown before each command.
func (p *prompt) promptText() string { return p.paint.prompt("(dbg) ") }

// endQuestion asks before Ctrl-D ends the session.
func (p *prompt) endQuestion() string {
	if p.launched {
		return "End the program and quit? (y or n) "
	}
	return "Detach (the process keeps running) and quit? (y or n) "
}

// confirm asks a yes/no question on the terminal; elsewhere the answer
// is yes.
func (p *prompt) confirm(question string) bool {
	if !p.terminal || p.ed == nil {
		return true
	}
	for {
		ans, err := p.ed.ReadLine(question, false)
		if err != nil {
			return errors.Is(err, io.EOF)
		}
		switch strings.ToLower(strings.TrimSpace(ans)) {
		case "y", "yes":
			return true
		case "n", "no":
			return false
		}
	}
}

// quit ends the session the gentle way: an attached process is detached
// and keeps running, a launched one is ended with its session.
func (p *prompt) quit() error {
	if p.id == "" || p.closed {
		return nil
	}
	p.closed = true
	ctx := context.WithoutCancel(p.ctx)
	if !p.launched {
		if _, err := p.tools.Call(ctx, "detach_from_process", p.sid(), nil); err != nil {
			_, _ = p.tools.Call(ctx, "close_debug_session", p.sid(), nil)
			return err
		}
	}
	_, err := p.tools.Call(ctx, "close_debug_session", p.sid(), nil)
	return err
}
