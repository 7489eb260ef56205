// Package console is dbg's interactive debugger prompt (`dbg attach`,
// `dbg launch`): it creates one debug session through the MCP tools and
// reads commands (break, continue, next, bt, locals, print, ...) until
// detach, quit or the end of input.
//
//	err := console.Run(ctx, console.Config{IO: ios, Tools: client,
//		Create: map[string]any{"language": "python", "processId": 4242}})
//
// Every command is one tool call; with JSON set every answer is printed
// as the tool's JSON, so a script can drive the prompt on stdin.
package console

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
	"github.com/dbg-dev/dbg/cmd/internal/toolclient"
	"github.com/dbg-dev/dbg/sessions"
)

// Caller calls a tool by name, as [toolclient.Client] does: data decoded
// into out, the raw data returned, a *toolclient.Failure for an error
// envelope.
type Caller interface {
	Call(ctx context.Context, name string, args map[string]any, out any) (json.RawMessage, error)
}

// Launch is how a launched session starts: breakpoints (FILE:LINE) set
// before start_debugging, called with Start's arguments.
type Launch struct {
	Start  map[string]any
	Breaks []string
}

// Config is one prompt.
type Config struct {
	IO     *iostreams.IOStreams
	Tools  Caller
	JSON   bool           // print every answer as JSON
	Create map[string]any // create_debug_session's arguments
	Launch *Launch        // nil = attach (Create names the process)
	// Test, when set, opens the session with debug_test's arguments
	// instead of Create and Launch.
	Test map[string]any
}

// Run creates the session (attaching, or launching per cfg.Launch) and
// runs the prompt until detach, quit or the end of input. At the end of
// input an attached process is left running.
func Run(ctx context.Context, cfg Config) error {
	p := &prompt{ctx: ctx, tools: cfg.Tools, io: cfg.IO, json: cfg.JSON}
	out := cfg.IO.Out
	var s sessionAnswer
	var raw json.RawMessage
	var err error
	if cfg.Test != nil {
		raw, s, err = p.openTest(ctx, cfg.Test)
	} else {
		raw, err = p.tools.Call(ctx, "create_debug_session", cfg.Create, &s)
	}
	if err != nil {
		return toolclient.Finish(out, cfg.JSON, err)
	}
	p.id = s.SessionID
	if cfg.Test != nil && p.id == "" {
		// The test ended: nothing to debug.
		if cfg.JSON {
			_ = p.io.PrintRawJSON(raw)
		}
		return nil
	}
	if plan := cfg.Launch; plan != nil {
		// A launch that fails half-way leaves no session behind (a
		// daemon would keep it).
		abort := func(err error) error {
			_, _ = p.tools.Call(context.WithoutCancel(ctx), "close_debug_session", map[string]any{"sessionId": p.id}, nil)
			return toolclient.Finish(out, cfg.JSON, err)
		}
		for _, b := range plan.Breaks {
			file, line, ok := strings.Cut(b, ":")
			if !ok {
				return abort(fmt.Errorf("--break %q: want FILE:LINE", b))
			}
			if _, err := p.run("break " + file + ":" + line); err != nil {
				return abort(err)
			}
		}
		start := make(map[string]any, len(plan.Start)+1)
		for k, v := range plan.Start {
			start[k] = v
		}
		start["sessionId"] = p.id
		if raw, err = p.tools.Call(ctx, "start_debugging", start, &s); err != nil {
			return abort(err)
		}
	}
	p.show(raw, s)
	in := bufio.NewScanner(cfg.IO.In)
	interactive := cfg.IO.IsStdinTTY()
	for {
		if interactive {
			fmt.Fprint(out, "(dbg) ")
		}
		if !in.Scan() {
			break
		}
		line := strings.TrimSpace(in.Text())
		if line == "" {
			continue
		}
		done, err := p.run(line)
		if err != nil {
			if cfg.JSON {
				_ = toolclient.Finish(out, true, err)
			} else {
				fmt.Fprintln(cfg.IO.ErrOut, "error:", err)
			}
		}
		if done {
			return nil
		}
	}
	// End of input: leave an attached process running.
	_, _ = p.tools.Call(ctx, "detach_from_process", map[string]any{"sessionId": p.id}, nil)
	return nil
}

// sessionAnswer is what session tools answer.
type sessionAnswer struct {
	SessionID string                `json:"sessionId"`
	State     string                `json:"state"`
	Message   string                `json:"message"`
	LastStop  *sessions.StopInfo    `json:"lastStop"`
	Source    []sessions.SourceLine `json:"source"`
}
