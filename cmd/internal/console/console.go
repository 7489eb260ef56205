// Package console is dbg's interactive debugger (`dbg attach`, `dbg
// launch`): it creates one debug session through the MCP tools and reads
// commands until detach, kill, quit or the end of input.
//
//	err := console.Run(ctx, console.Config{IO: ios, Tools: client,
//		Create: map[string]any{"language": "python", "processId": 4242}})
//
// # Commands
//
// The commands and their short forms follow gdb and dlv: break (b),
// tbreak, watch, delete (d), breakpoints; continue (c), next (n), step
// (s), out (o, finish), until (u), pause, restart (r); bt, frame (f), up,
// down; locals, args, print (p), set, display; threads, thread (t); list
// (l), output; detach, kill, quit (q); help (h). Each is one or a few tool
// calls. continue, the steps and until wait for the next stop and print
// it: the location, the source around it, the reason, an exception's
// message, and the nearest user frame when the stop is in runtime or
// system code.
//
// # Terminals
//
// On a terminal the console edits lines (chzyer/readline), keeps history
// in a file, completes commands, file names for break and local names for
// print, pauses a running target on Ctrl-C (a signal, since the terminal
// is not raw while the target runs), clears the line on Ctrl-C at the
// prompt and asks before Ctrl-D ends the session. Elsewhere it reads
// plain lines, and with JSON set prints every answer as the tool's JSON,
// so a script can drive it on stdin.
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

// Caller calls a tool by name, as [toolclient.Client] does: data decoded
// into out, the raw data returned, a *toolclient.Failure for an error
// envelope. Calls may run concurrently (a pause while a wait blocks).
type Caller interface {
	Call(ctx context.Context, name string, args map[string]any, out any) (json.RawMessage, error)
}

// Launch is how a launched session starts: breakpoints (FILE:LINE) set
// before start_debugging, called with Start's arguments.
type Launch struct {
	Start  map[string]any
	Breaks []string
}

// Config is one console.
type Config struct {
	IO     *iostreams.IOStreams
	Tools  Caller
	JSON   bool           // print every answer as JSON
	Create map[string]any // create_debug_session's arguments
	Launch *Launch        // nil = attach (Create names the process)

	// Terminal turns on line editing, completion, the prompt, questions
	// before ending and Ctrl-C handling. Callers set it when stdin and
	// stdout are terminals.
	Terminal bool
	// HistoryFile keeps the typed commands across runs ("" = none).
	HistoryFile string
	// Color paints locations and the current line (a terminal without
	// NO_COLOR).
	Color bool
	// Interrupts delivers Ctrl-C while the target runs; nil = none. The
	// console reads it only while it waits for a stop.
	Interrupts <-chan struct{}

	// Test, when set, opens the session with debug_test's arguments
	// instead of Create and Launch.
	Test map[string]any
}

// errEnd ends the command loop.
var errEnd = errors.New("end of the session")

// errTestEnded says debug_test ended without a stop: there is no session
// to open the console on.
var errTestEnded = errors.New("the test ended")

// Run creates the session (attaching, or launching per cfg.Launch) and
// runs the console until detach, kill, quit or the end of input. At the
// end of plain input an attached process is left running and a launched
// one is ended.
func Run(ctx context.Context, cfg Config) error {
	p, raw, s, err := begin(ctx, cfg, false)
	if errors.Is(err, errTestEnded) {
		return nil
	}
	if err != nil {
		return err
	}
	p.stopped(raw, s)
	ed, err := newEditor(cfg, p.complete)
	if err != nil {
		return p.end(err)
	}
	defer ed.Close()
	p.ed = ed
	// SIGTERM (ctx) ends a console waiting at the prompt too.
	stop := context.AfterFunc(ctx, func() { _ = ed.Close() })
	defer stop()
	for {
		line, err := ed.ReadLine(p.promptText(), true)
		switch {
		case ctx.Err() != nil:
			return p.end(ctx.Err())
		case errors.Is(err, errInterrupted):
			continue
		case errors.Is(err, io.EOF):
			if !cfg.Terminal || p.confirm(p.endQuestion()) {
				return p.end(p.quit())
			}
			continue
		case err != nil:
			return p.end(err)
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		err = p.run(line)
		if errors.Is(err, errEnd) {
			return nil
		}
		if err != nil {
			p.fail(err)
		}
		if p.ended {
			fmt.Fprintln(cfg.IO.ErrOut, "the program has ended; output and quit still work")
			p.ended = false
		}
	}
}

// Start creates the session as Run does, prints its first stop as one
// JSON document with the session's id, and returns leaving the session
// open (in a daemon, for one-shot commands).
func Start(ctx context.Context, cfg Config) error {
	cfg.JSON = true
	p, raw, _, err := begin(ctx, cfg, true)
	if errors.Is(err, errTestEnded) {
		return nil
	}
	if err != nil {
		return err
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return err
	}
	doc["sessionId"] = p.id
	return p.io.PrintJSON(doc)
}

// begin creates the session, launches the program per cfg.Launch, and
// waits for the first stop of a launch that runs on.
func begin(ctx context.Context, cfg Config, quiet bool) (*prompt, json.RawMessage, stopAnswer, error) {
	p := newPrompt(ctx, cfg)
	var s stopAnswer
	var raw json.RawMessage
	var err error
	if cfg.Test != nil {
		raw, s, err = p.openTest(ctx, cfg.Test)
	} else {
		raw, err = p.tools.Call(ctx, "create_debug_session", cfg.Create, &s)
	}
	if err != nil {
		return nil, nil, s, toolclient.Finish(cfg.IO.Out, cfg.JSON, err)
	}
	if cfg.Test != nil && s.SessionID == "" {
		// The test ended: nothing to debug.
		if cfg.JSON {
			_ = cfg.IO.PrintRawJSON(raw)
		}
		return nil, raw, s, errTestEnded
	}
	p.id, p.launched = s.SessionID, cfg.Launch != nil || cfg.Test != nil
	if plan := cfg.Launch; plan != nil {
		if raw, err = p.launch(plan, &s, quiet); err != nil {
			// A launch that fails half-way leaves no session behind (a
			// daemon would keep it).
			_, _ = p.tools.Call(context.WithoutCancel(ctx), "close_debug_session", p.sid(), nil)
			return nil, nil, s, toolclient.Finish(cfg.IO.Out, cfg.JSON, err)
		}
		if s.Pending || s.State == string(sessions.StateRunning) {
			if raw, s, err = p.waitStop(); err != nil {
				return nil, nil, s, p.end(err)
			}
		}
	}
	return p, raw, s, nil
}

// end leaves the session on an error the console cannot go on with: an
// attached process keeps running, a launched one ends.
func (p *prompt) end(err error) error {
	_ = p.quit()
	return err
}

// launch sets the planned breakpoints (printing them unless quiet) and
// starts the program.
func (p *prompt) launch(plan *Launch, s *stopAnswer, quiet bool) (json.RawMessage, error) {
	for _, b := range plan.Breaks {
		args, err := BreakArgs(b, "")
		if err != nil {
			return nil, fmt.Errorf("--break %q: %w", b, err)
		}
		if _, ok := args["function"]; ok {
			return nil, fmt.Errorf("--break %q: want FILE:LINE", b)
		}
		if quiet {
			args["sessionId"] = p.id
			if _, err := p.tools.Call(p.ctx, "set_breakpoint", args, nil); err != nil {
				return nil, err
			}
		} else if err := p.setBreak(args, false); err != nil {
			return nil, err
		}
	}
	start := make(map[string]any, len(plan.Start)+1)
	for k, v := range plan.Start {
		start[k] = v
	}
	start["sessionId"] = p.id
	return p.tools.Call(p.ctx, "start_debugging", start, s)
}

// stopAnswer is what the session and execution tools answer.
type stopAnswer struct {
	SessionID string               `json:"sessionId"`
	State     string               `json:"state"`
	Pending   bool                 `json:"pending"`
	Message   string               `json:"message"`
	Reason    string               `json:"reason"`
	ExitCode  *int                 `json:"exitCode"`
	LastStop  *sessions.StopInfo   `json:"lastStop"`
	Source    sessions.SourceLines `json:"source"`
	Changed   *sessions.Changes    `json:"changed"`
}
