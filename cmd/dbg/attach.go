package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/sessions"
)

type attachOptions struct {
	pid      int
	port     int
	language string
	project  string
	noPause  bool
	asJSON   bool
}

// newAttachCmd attaches to a running process and opens the debugger prompt.
func newAttachCmd(e *env) *cobra.Command {
	opts := &attachOptions{}
	cmd := &cobra.Command{
		Use:   "attach --pid N",
		Short: "Attach to a running process (language detected) and debug it at a prompt",
		Long: `Attach to a running process and debug it interactively. The language is
detected from the process (its executable and command line) unless --language
is given. Commands: break FILE:LINE, continue (c), next (n), step (s), out (o),
bt, locals, print EXPR (p), threads, wait, detach, quit. With --json, commands
are read from stdin and every answer is printed as JSON.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.pid == 0 && opts.port == 0 {
				return fmt.Errorf("--pid (or --port) is required")
			}
			lang := opts.language
			if lang == "" {
				if opts.pid == 0 {
					return fmt.Errorf("--language is required with --port")
				}
				var err error
				if lang, err = adapters.DetectLanguage(opts.pid); err != nil {
					return err
				}
			}
			args := map[string]any{"language": lang, "stopOnEntry": !opts.noPause}
			if opts.pid != 0 {
				args["processId"] = opts.pid
			}
			if opts.port != 0 {
				args["port"] = opts.port
			}
			return debugAtPrompt(cmd, e, opts.project, opts.asJSON, args, nil)
		},
	}
	cmd.Flags().IntVar(&opts.pid, "pid", 0, "process id to attach to")
	cmd.Flags().IntVar(&opts.port, "port", 0, "debug port to attach to (debugpy, rdbg, JDWP, Node inspector)")
	cmd.Flags().StringVar(&opts.language, "language", "", "language (default: detected from the process)")
	cmd.Flags().StringVar(&opts.project, "project", "", "the project directory (default: the working directory)")
	cmd.Flags().BoolVar(&opts.noPause, "no-pause", false, "leave the process running after attaching")
	cmd.Flags().BoolVar(&opts.asJSON, "json", false, "read commands from stdin and print JSON answers")
	return cmd
}

type launchOptions struct {
	language string
	project  string
	breaks   []string
	asJSON   bool
}

// newLaunchCmd launches a program under the debugger at the prompt.
func newLaunchCmd(e *env) *cobra.Command {
	opts := &launchOptions{}
	cmd := &cobra.Command{
		Use:   "launch PROGRAM [-- ARGS...]",
		Short: "Launch a program under the debugger and debug it at a prompt",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			lang := opts.language
			if lang == "" {
				lang = languageOfFile(args[0])
				if lang == "" {
					return fmt.Errorf("cannot tell the language of %s; pass --language", args[0])
				}
			}
			start := map[string]any{"scriptPath": args[0], "args": args[1:], "waitMs": 60000}
			return debugAtPrompt(cmd, e, opts.project, opts.asJSON, map[string]any{"language": lang}, &launchPlan{start: start, breaks: opts.breaks})
		},
	}
	cmd.Flags().StringVar(&opts.language, "language", "", "language (default: from the file extension)")
	cmd.Flags().StringVar(&opts.project, "project", "", "the project directory (default: the working directory)")
	cmd.Flags().StringArrayVar(&opts.breaks, "break", nil, "breakpoint FILE:LINE before launch (repeatable)")
	cmd.Flags().BoolVar(&opts.asJSON, "json", false, "read commands from stdin and print JSON answers")
	return cmd
}

type launchPlan struct {
	start  map[string]any
	breaks []string
}

// languageOfFile maps a program's extension to its language.
func languageOfFile(p string) string {
	switch strings.ToLower(filepath.Ext(p)) {
	case ".go":
		return "go"
	case ".py":
		return "python"
	case ".js", ".mjs", ".cjs", ".ts":
		return "javascript"
	case ".java", ".jar":
		return "java"
	case ".c":
		return "c"
	case ".cc", ".cpp", ".cxx":
		return "cpp"
	case ".rs":
		return "rust"
	case ".rb":
		return "ruby"
	case ".cob", ".cbl":
		return "cobol"
	case ".mock":
		return "mock"
	}
	if st, err := os.Stat(p); err == nil && st.IsDir() {
		if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
			return "go"
		}
		if _, err := os.Stat(filepath.Join(p, "Cargo.toml")); err == nil {
			return "rust"
		}
	}
	return ""
}

// debugAtPrompt creates the session (attaching, or launching per plan) and
// runs the prompt until detach, quit or the end of input.
func debugAtPrompt(cmd *cobra.Command, e *env, project string, asJSON bool, create map[string]any, plan *launchPlan) error {
	ctx := cmd.Context()
	tc, err := newToolClient(ctx, e, project)
	if err != nil {
		return err
	}
	defer tc.Close()
	p := &prompt{ctx: ctx, tc: tc, out: cmd.OutOrStdout(), json: asJSON}
	var s sessionAnswer
	raw, err := tc.call(ctx, "create_debug_session", create, &s)
	if err != nil {
		return finish(p.out, asJSON, err)
	}
	p.id = s.SessionID
	if plan != nil {
		// A launch that fails half-way leaves no session behind (a
		// daemon would keep it).
		abort := func(err error) error {
			_, _ = tc.call(context.WithoutCancel(ctx), "close_debug_session", map[string]any{"sessionId": p.id}, nil)
			return finish(p.out, asJSON, err)
		}
		for _, b := range plan.breaks {
			file, line, ok := strings.Cut(b, ":")
			if !ok {
				return abort(fmt.Errorf("--break %q: want FILE:LINE", b))
			}
			if _, err := p.run("break " + file + ":" + line); err != nil {
				return abort(err)
			}
		}
		plan.start["sessionId"] = p.id
		if raw, err = tc.call(ctx, "start_debugging", plan.start, &s); err != nil {
			return abort(err)
		}
	}
	p.show(raw, s)
	in := bufio.NewScanner(cmd.InOrStdin())
	interactive := isTerminal(cmd.InOrStdin())
	for {
		if interactive {
			fmt.Fprint(p.out, "(dbg) ")
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
			if asJSON {
				_ = finish(p.out, true, err)
			} else {
				fmt.Fprintln(p.out, "error:", err)
			}
		}
		if done {
			return nil
		}
	}
	// End of input: leave an attached process running.
	_, _ = tc.call(ctx, "detach_from_process", map[string]any{"sessionId": p.id}, nil)
	return nil
}

func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// sessionAnswer is what session tools answer.
type sessionAnswer struct {
	SessionID string                `json:"sessionId"`
	State     string                `json:"state"`
	Message   string                `json:"message"`
	LastStop  *sessions.StopInfo    `json:"lastStop"`
	Source    []sessions.SourceLine `json:"source"`
}

// prompt runs commands against one session.
type prompt struct {
	ctx  context.Context
	tc   *toolClient
	out  io.Writer
	json bool
	id   string
}

func (p *prompt) show(raw json.RawMessage, s sessionAnswer) {
	if p.json {
		_ = writeRawJSON(p.out, raw)
		return
	}
	where := ""
	if s.LastStop != nil && s.LastStop.Location != nil && !strings.Contains(s.Message, s.LastStop.Location.File) {
		l := s.LastStop.Location
		where = fmt.Sprintf(" at %s:%d", l.File, l.Line)
	}
	fmt.Fprintf(p.out, "%s: %s%s\n", s.State, firstNonEmptyStr(s.Message, s.State), where)
	if s.LastStop != nil && s.LastStop.Text != "" {
		fmt.Fprintln(p.out, "  "+s.LastStop.Text)
	}
	for _, l := range s.Source {
		mark := "  "
		if l.Current {
			mark = "=>"
		}
		fmt.Fprintf(p.out, "%s %4d  %s\n", mark, l.Line, l.Text)
	}
}

// run executes one command; done reports the end of the prompt.
func (p *prompt) run(line string) (done bool, err error) {
	verb, rest, _ := strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	sid := map[string]any{"sessionId": p.id}
	step := func(tool string) (bool, error) {
		var s sessionAnswer
		raw, err := p.tc.call(p.ctx, tool, sid, &s)
		if err == nil {
			p.show(raw, s)
		}
		return false, err
	}
	switch verb {
	case "c", "continue":
		return step("continue_execution")
	case "n", "next":
		return step("step_over")
	case "s", "step":
		return step("step_into")
	case "o", "out", "finish":
		return step("step_out")
	case "w", "wait":
		return step("wait_for_stop")
	case "pause":
		return step("pause_execution")
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
		raw, err := p.tc.call(p.ctx, "set_breakpoint", map[string]any{"sessionId": p.id, "file": file, "line": n}, &bp)
		if err == nil {
			p.print(raw, func() {
				fmt.Fprintf(p.out, "breakpoint %d at %s:%d verified=%v %s\n", bp.ID, bp.File, firstNonZero(bp.ActualLine, bp.Line), bp.Verified, bp.Message)
			})
		}
		return false, err
	case "bt", "backtrace", "where":
		var st struct{ StackFrames []sessions.Frame }
		raw, err := p.tc.call(p.ctx, "get_stack_trace", sid, &st)
		if err == nil {
			p.print(raw, func() {
				for i, f := range st.StackFrames {
					fmt.Fprintf(p.out, "#%d %s at %s:%d\n", i, f.Name, f.File, f.Line)
				}
			})
		}
		return false, err
	case "locals", "l":
		var lv struct{ Variables []sessions.Variable }
		raw, err := p.tc.call(p.ctx, "get_local_variables", sid, &lv)
		if err == nil {
			p.print(raw, func() {
				for _, v := range lv.Variables {
					fmt.Fprintf(p.out, "%s %s = %s\n", v.Name, v.Type, v.Value)
				}
			})
		}
		return false, err
	case "p", "print":
		var ev sessions.EvalResult
		raw, err := p.tc.call(p.ctx, "evaluate_expression", map[string]any{"sessionId": p.id, "expression": rest}, &ev)
		if err == nil {
			p.print(raw, func() { fmt.Fprintln(p.out, ev.Result) })
		}
		return false, err
	case "threads":
		var th struct{ Threads []sessions.Thread }
		raw, err := p.tc.call(p.ctx, "list_threads", sid, &th)
		if err == nil {
			p.print(raw, func() {
				for _, t := range th.Threads {
					fmt.Fprintf(p.out, "%d %s\n", t.ID, t.Name)
				}
			})
		}
		return false, err
	case "detach":
		raw, err := p.tc.call(p.ctx, "detach_from_process", sid, nil)
		if err == nil {
			p.print(raw, func() { fmt.Fprintln(p.out, "detached") })
		}
		return true, err
	case "q", "quit", "exit":
		raw, err := p.tc.call(p.ctx, "close_debug_session", sid, nil)
		if err == nil {
			p.print(raw, func() { fmt.Fprintln(p.out, "closed") })
		}
		return true, err
	case "help", "h", "?":
		fmt.Fprintln(p.out, "break FILE:LINE | continue (c) | next (n) | step (s) | out (o) | wait | pause | bt | locals | print EXPR (p) | threads | detach | quit")
		return false, nil
	}
	return false, fmt.Errorf("unknown command %q (help lists them)", verb)
}

// print shows raw JSON with --json, else the readable form.
func (p *prompt) print(raw json.RawMessage, readable func()) {
	if p.json {
		_ = writeRawJSON(p.out, raw)
		return
	}
	readable()
}

func firstNonZero(a, b int) int {
	if a != 0 {
		return a
	}
	return b
}
