package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/cmd/internal/console"
	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
	"github.com/dbg-dev/dbg/cmd/internal/toolclient"
)

// oneShotVerb is a one-shot command: one tool call on a session of the
// project's daemon, its answer printed as JSON.
type oneShotVerb struct {
	use, short string
	tool       string
	nargs      int  // arguments after SESSION
	frame      bool // takes --frame
	waits      bool // takes --wait (the tool waits for the stop)
	// args builds the tool's arguments from those after SESSION.
	args func(rest []string) (map[string]any, error)
}

// oneShotOptions is one run of a one-shot verb.
type oneShotOptions struct {
	IO         *iostreams.IOStreams
	ToolClient func(ctx context.Context, project string) (*toolclient.Client, error)

	verb    oneShotVerb
	project string
	session string
	rest    []string
	frame   int
	wait    time.Duration
}

// none is a verb without arguments after SESSION.
func none([]string) (map[string]any, error) { return map[string]any{}, nil }

// joined passes the arguments, joined by spaces, as key.
func joined(key string) func([]string) (map[string]any, error) {
	return func(rest []string) (map[string]any, error) {
		return map[string]any{key: strings.Join(rest, " ")}, nil
	}
}

// oneShotGroup is the one-shot verbs' heading in dbg's help.
const oneShotGroup = "oneshot"

// oneShotVerbs are `dbg VERB SESSION ...`, the console's commands for
// scripts and agents in a shell.
var oneShotVerbs = []oneShotVerb{
	{use: "break SESSION FILE:LINE [if COND] | FUNC", short: "Set a breakpoint", tool: "set_breakpoint", nargs: 1,
		args: func(rest []string) (map[string]any, error) { return console.BreakArgs(strings.Join(rest, " "), "") }},
	{use: "delete SESSION N", short: "Remove breakpoint N", tool: "remove_breakpoint", nargs: 1,
		args: func(rest []string) (map[string]any, error) {
			n, err := strconv.Atoi(rest[0])
			if err != nil {
				return nil, fmt.Errorf("breakpoint id %q is not a number", rest[0])
			}
			return map[string]any{"breakpointId": n}, nil
		}},
	{use: "breakpoints SESSION", short: "List the breakpoints", tool: "list_breakpoints", args: none},
	{use: "continue SESSION", short: "Resume and wait for the next stop", tool: "continue_execution", waits: true, args: none},
	{use: "next SESSION", short: "Step over", tool: "step_over", waits: true, args: none},
	{use: "step SESSION", short: "Step into", tool: "step_into", waits: true, args: none},
	{use: "out SESSION", short: "Step out of the current function", tool: "step_out", waits: true, args: none},
	{use: "until SESSION FILE:LINE", short: "Run to a line", tool: "run_to_line", nargs: 1, waits: true,
		args: func(rest []string) (map[string]any, error) {
			file, line, ok := console.FileLine(rest[0], "")
			if !ok {
				return nil, fmt.Errorf("%q: want FILE:LINE", rest[0])
			}
			return map[string]any{"file": file, "line": line}, nil
		}},
	{use: "pause SESSION", short: "Pause the running program", tool: "pause_execution", args: none},
	{use: "wait SESSION", short: "Wait for the next stop", tool: "wait_for_stop", waits: true, args: none},
	{use: "restart SESSION", short: "Relaunch a launched program", tool: "restart_debugging", args: none},
	{use: "bt SESSION", short: "Print the stack", tool: "get_stack_trace", args: none},
	{use: "threads SESSION", short: "List the threads", tool: "list_threads", args: none},
	{use: "locals SESSION", short: "Print the local variables", tool: "get_local_variables", frame: true, args: none},
	{use: "print SESSION EXPR", short: "Evaluate an expression", tool: "evaluate_expression", nargs: 1, frame: true, args: joined("expression")},
	{use: "set SESSION VAR = VALUE", short: "Change a variable", tool: "set_variable", nargs: 1, frame: true,
		args: func(rest []string) (map[string]any, error) {
			name, value, err := console.SetArgs(strings.Join(rest, " "))
			return map[string]any{"name": name, "value": value}, err
		}},
	{use: "list SESSION [FILE:LINE]", short: "Show the source around the stop", tool: "get_source_context",
		args: func(rest []string) (map[string]any, error) {
			if len(rest) == 0 {
				return map[string]any{}, nil
			}
			file, line, ok := console.FileLine(rest[0], "")
			if !ok {
				return nil, fmt.Errorf("%q: want FILE:LINE", rest[0])
			}
			return map[string]any{"file": file, "line": line}, nil
		}},
	{use: "output SESSION", short: "Print the program's captured output", tool: "get_output", args: none},
	{use: "detach SESSION", short: "Detach; the process keeps running", tool: "detach_from_process", args: none},
	{use: "close SESSION", short: "Close the session (a launched program ends)", tool: "close_debug_session", args: none},
}

// newCmdOneShot builds one one-shot verb.
func newCmdOneShot(f *factory, v oneShotVerb, runF func(context.Context, *oneShotOptions) error) *cobra.Command {
	if runF == nil {
		runF = oneShotRun
	}
	opts := &oneShotOptions{IO: f.io, ToolClient: f.daemonClient, verb: v}
	cmd := &cobra.Command{
		Use:     v.use,
		Short:   v.short,
		GroupID: oneShotGroup,
		Long: v.short + `, in a session of the project's daemon, and print the tool's
answer as JSON. The first one-shot command starts the daemon in the
background when none runs; dbg stop ends it. dbg attach --pid N --no-prompt
creates a session and prints its id.`,
		Args: cobra.MinimumNArgs(1 + v.nargs),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.session, opts.rest = args[0], args[1:]
			return runF(cmd.Context(), opts)
		},
	}
	if v.frame {
		cmd.Flags().IntVar(&opts.frame, "frame", 0, "frame N of bt (default: the frame the stop reports)")
	}
	if v.waits {
		cmd.Flags().DurationVar(&opts.wait, "wait", 30*time.Second, "how long to wait for the stop before answering pending")
	}
	addProjectFlag(cmd, &opts.project)
	return cmd
}

func oneShotRun(ctx context.Context, opts *oneShotOptions) error {
	args, err := opts.verb.args(opts.rest)
	if err != nil {
		return err
	}
	args["sessionId"] = opts.session
	if opts.verb.waits {
		ms := opts.wait.Milliseconds()
		if opts.verb.tool == "wait_for_stop" {
			args["timeoutMs"] = ms
		} else {
			args["waitMs"] = ms
		}
	}
	return withClient(ctx, opts.ToolClient, opts.project, func(tc *toolclient.Client) error {
		if opts.frame > 0 {
			id, err := frameID(ctx, tc, opts.session, opts.frame)
			if err != nil {
				return toolclient.Finish(opts.IO.Out, true, err)
			}
			args["frameId"] = id
		}
		_, err := tc.CallPrint(ctx, opts.IO, true, opts.verb.tool, args, nil)
		return err
	})
}

// frameID is the id of frame n of the session's stack.
func frameID(ctx context.Context, tc *toolclient.Client, session string, n int) (int, error) {
	var st struct {
		StackFrames []struct {
			ID int `json:"id"`
		} `json:"stackFrames"`
	}
	if _, err := tc.Call(ctx, "get_stack_trace", map[string]any{"sessionId": session}, &st); err != nil {
		return 0, err
	}
	if n >= len(st.StackFrames) {
		return 0, fmt.Errorf("--frame %d: the stack has %d frames", n, len(st.StackFrames))
	}
	return st.StackFrames[n].ID, nil
}
