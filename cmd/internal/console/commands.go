package console

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
	"github.com/dbg-dev/dbg/sessions"
)

// Help lists the prompt's commands.
const Help = "break FILE:LINE | continue (c) | next (n) | step (s) | out (o) | wait | pause | bt | locals | print EXPR (p) | threads | detach | quit"

// prompt runs commands against one session. It is used by one goroutine.
type prompt struct {
	ctx   context.Context
	tools Caller
	io    *iostreams.IOStreams
	json  bool
	id    string
}

// stepTools are the commands answered by a session tool with no other
// argument, printed as a stop.
var stepTools = map[string]string{
	"c": "continue_execution", "continue": "continue_execution",
	"n": "step_over", "next": "step_over",
	"s": "step_into", "step": "step_into",
	"o": "step_out", "out": "step_out", "finish": "step_out",
	"w": "wait_for_stop", "wait": "wait_for_stop",
	"pause": "pause_execution",
}

// run executes one command; done reports the end of the prompt.
func (p *prompt) run(line string) (done bool, err error) {
	verb, rest, _ := strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	sid := map[string]any{"sessionId": p.id}
	out := p.io.Out
	if tool, ok := stepTools[verb]; ok {
		var s sessionAnswer
		raw, err := p.tools.Call(p.ctx, tool, sid, &s)
		if err == nil {
			p.show(raw, s)
		}
		return false, err
	}
	switch verb {
	case "b", "break":
		file, ln, ok := strings.Cut(rest, ":")
		n, cerr := strconv.Atoi(ln)
		if !ok || cerr != nil {
			return false, fmt.Errorf("usage: break FILE:LINE")
		}
		if abs, err := filepath.Abs(file); err == nil {
			file = abs
		}
		var bp sessions.Breakpoint
		return false, p.call("set_breakpoint", map[string]any{"sessionId": p.id, "file": file, "line": n}, &bp, func() {
			fmt.Fprintf(out, "breakpoint %d at %s:%d verified=%v %s\n", bp.ID, bp.File, firstNonZero(bp.ActualLine, bp.Line), bp.Verified, bp.Message)
		})
	case "bt", "backtrace", "where":
		var st struct{ StackFrames []sessions.Frame }
		return false, p.call("get_stack_trace", sid, &st, func() {
			for i, f := range st.StackFrames {
				fmt.Fprintf(out, "#%d %s at %s:%d\n", i, f.Name, f.File, f.Line)
			}
		})
	case "locals", "l":
		var lv struct{ Variables []sessions.Variable }
		return false, p.call("get_local_variables", sid, &lv, func() {
			for _, v := range lv.Variables {
				fmt.Fprintf(out, "%s %s = %s\n", v.Name, v.Type, v.Value)
			}
		})
	case "p", "print":
		var ev sessions.EvalResult
		return false, p.call("evaluate_expression", map[string]any{"sessionId": p.id, "expression": rest}, &ev, func() {
			fmt.Fprintln(out, ev.Result)
		})
	case "threads":
		var th struct{ Threads []sessions.Thread }
		return false, p.call("list_threads", sid, &th, func() {
			for _, t := range th.Threads {
				fmt.Fprintf(out, "%d %s\n", t.ID, t.Name)
			}
		})
	case "detach":
		return true, p.call("detach_from_process", sid, nil, func() { fmt.Fprintln(out, "detached") })
	case "q", "quit", "exit":
		return true, p.call("close_debug_session", sid, nil, func() { fmt.Fprintln(out, "closed") })
	case "help", "h", "?":
		fmt.Fprintln(out, Help)
		return false, nil
	}
	return false, fmt.Errorf("unknown command %q (help lists them)", verb)
}

// call calls a tool and shows its answer: the raw JSON with JSON set,
// else the readable form.
func (p *prompt) call(tool string, args map[string]any, out any, readable func()) error {
	raw, err := p.tools.Call(p.ctx, tool, args, out)
	if err != nil {
		return err
	}
	if p.json {
		_ = p.io.PrintRawJSON(raw)
		return nil
	}
	readable()
	return nil
}

// show prints a session's state: where it stopped and the source around.
func (p *prompt) show(raw json.RawMessage, s sessionAnswer) {
	if p.json {
		_ = p.io.PrintRawJSON(raw)
		return
	}
	out := p.io.Out
	where := ""
	if s.LastStop != nil && s.LastStop.Location != nil && !strings.Contains(s.Message, s.LastStop.Location.File) {
		l := s.LastStop.Location
		where = fmt.Sprintf(" at %s:%d", l.File, l.Line)
	}
	msg := s.Message
	if msg == "" {
		msg = s.State
	}
	fmt.Fprintf(out, "%s: %s%s\n", s.State, msg, where)
	if s.LastStop != nil && s.LastStop.Text != "" {
		fmt.Fprintln(out, "  "+s.LastStop.Text)
	}
	for _, l := range s.Source {
		mark := "  "
		if l.Current {
			mark = "=>"
		}
		fmt.Fprintf(out, "%s %4d  %s\n", mark, l.Line, l.Text)
	}
}

func firstNonZero(a, b int) int {
	if a != 0 {
		return a
	}
	return b
}
