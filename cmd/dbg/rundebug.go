package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
	"github.com/dbg-dev/dbg/cmd/internal/toolclient"
	"github.com/dbg-dev/dbg/ide"
	"github.com/dbg-dev/dbg/sessions"
)

type runDebugOptions struct {
	queryOptions

	name        string
	source      string
	breakpoints []string
	stopOnEntry bool
}

func newCmdRunDebug(f *factory, runF func(context.Context, *runDebugOptions) error) *cobra.Command {
	if runF == nil {
		runF = runDebugRun
	}
	opts := &runDebugOptions{queryOptions: queryOptions{IO: f.io, ToolClient: f.toolClient}}
	cmd := &cobra.Command{
		Use:   "debug NAME",
		Short: "Debug a saved run configuration to its first stop and print where and the locals",
		Long: `Create a debug session from the run configuration NAME, as debug_run_configuration does, with
the breakpoints given by --break FILE:LINE. dbg prints the session's first stop (location and
local variables) or how the program ended, then closes the session; the program ends with it.
For a session that stays open and that you step through, use debug_run_configuration in 'dbg mcp'.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.name = args[0]
			if _, err := debugArgs(opts); err != nil {
				return err
			}
			return runF(cmd.Context(), opts)
		},
	}
	addProjectFlag(cmd, &opts.project)
	cmd.Flags().StringVar(&opts.source, "source", "", "the configuration's source file, when several share the name")
	cmd.Flags().StringArrayVar(&opts.breakpoints, "break", nil, "a line breakpoint FILE:LINE (repeatable; FILE may be relative to the project)")
	cmd.Flags().BoolVar(&opts.stopOnEntry, "stop-on-entry", false, "stop at the program's first line")
	addJSONFlag(cmd, &opts.asJSON)
	return cmd
}

// parseBreakpoint reads FILE:LINE.
func parseBreakpoint(s string) (map[string]any, error) {
	i := strings.LastIndex(s, ":")
	if i <= 0 {
		return nil, fmt.Errorf("breakpoint %q: want FILE:LINE", s)
	}
	line, err := strconv.Atoi(s[i+1:])
	if err != nil || line <= 0 {
		return nil, fmt.Errorf("breakpoint %q: the line must be a positive number", s)
	}
	return map[string]any{"file": s[:i], "line": line}, nil
}

// debugArgs builds debug_run_configuration's arguments from the flags.
func debugArgs(opts *runDebugOptions) (map[string]any, error) {
	args := projectArgs(opts.project)
	args["configurationName"] = opts.name
	if opts.source != "" {
		args["source"] = opts.source
	}
	if opts.stopOnEntry {
		args["stopOnEntry"] = true
	}
	var bps []map[string]any
	for _, b := range opts.breakpoints {
		bp, err := parseBreakpoint(b)
		if err != nil {
			return nil, err
		}
		bps = append(bps, bp)
	}
	if len(bps) > 0 {
		args["breakpoints"] = bps
	}
	return args, nil
}

func runDebugRun(ctx context.Context, opts *runDebugOptions) error {
	args, err := debugArgs(opts)
	if err != nil {
		return err
	}
	var res ide.DebugResult
	return opts.ask(ctx, "debug_run_configuration", args, &res, func(tc *toolclient.Client) error {
		printDebugResult(ctx, tc, opts.IO, &res)
		return nil
	})
}

// printDebugResult prints where the session of debug_run_configuration
// stands, with the locals of a paused one.
func printDebugResult(ctx context.Context, tc *toolclient.Client, ios *iostreams.IOStreams, res *ide.DebugResult) {
	out := ios.Out
	fmt.Fprintf(out, "session %s (%s, %s)\n", dash(res.SessionID), dash(res.Language), res.Mode)
	if res.PID > 0 {
		fmt.Fprintf(out, "pid %d\n", res.PID)
	}
	if st := res.Start; st != nil {
		fmt.Fprintf(out, "state %s\n", st.State)
		if st.LastStop != nil {
			where := ""
			if l := st.LastStop.Location; l != nil {
				where = fmt.Sprintf(" at %s:%d", l.File, l.Line)
				if l.Function != "" {
					where += " in " + l.Function
				}
			}
			fmt.Fprintf(out, "stopped (%s)%s\n", st.LastStop.Reason, where)
		}
		if st.ExitCode != nil {
			fmt.Fprintf(out, "exited with status %d\n", *st.ExitCode)
		}
		if st.Message != "" {
			fmt.Fprintln(ios.ErrOut, st.Message)
		}
		if st.State == sessions.StatePaused && res.SessionID != "" {
			printLocalsOf(ctx, tc, out, res.SessionID)
		}
	}
	if res.SessionID != "" {
		fmt.Fprintf(ios.ErrOut, "session %s closes as this command exits; for a session that stays open, use debug_run_configuration in 'dbg mcp'\n", res.SessionID)
	}
}

// printLocalsOf prints the locals of a paused session's top frame.
func printLocalsOf(ctx context.Context, tc *toolclient.Client, out io.Writer, sessionID string) {
	var locals struct {
		Variables []sessions.Variable `json:"variables"`
	}
	if _, err := tc.Call(ctx, "get_local_variables", map[string]any{"sessionId": sessionID}, &locals); err != nil {
		var tf *toolclient.Failure
		if errors.As(err, &tf) {
			fmt.Fprintf(out, "locals: %s\n", tf.Err.Message)
		}
		return
	}
	fmt.Fprintln(out, "locals:")
	for _, v := range locals.Variables {
		fmt.Fprintf(out, "  %s %s = %s\n", v.Name, v.Type, v.Value)
	}
}
