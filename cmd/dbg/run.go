package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/debugtools"
	"github.com/dbg-dev/dbg/ide"
	"github.com/dbg-dev/dbg/proc"
	"github.com/dbg-dev/dbg/sessions"
)

// newRunCmd groups the run-configuration commands (SPEC §6): they answer
// with the get_restartable_run_configurations, restart_run_configuration
// and debug_run_configuration tools.
func newRunCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "run",
		Short: "List, run and debug the project's saved run configurations (IntelliJ, VS Code)",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newRunListCmd(e, nil), newRunRestartCmd(e, nil), newRunDebugCmd(e, nil))
	return cmd
}

type runListOptions struct {
	project string
	asJSON  bool
}

func newRunListCmd(e *env, runF func(*cobra.Command, *runListOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(cmd *cobra.Command, opts *runListOptions) error { return runListRun(cmd, e, opts) }
	}
	opts := &runListOptions{}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the saved run configurations with their type, source and the command dbg runs",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runF(cmd, opts)
		},
	}
	cmd.Flags().StringVar(&opts.project, "project", "", "the project directory (default: the working directory)")
	cmd.Flags().BoolVar(&opts.asJSON, "json", false, "print JSON")
	return cmd
}

func runListRun(cmd *cobra.Command, e *env, opts *runListOptions) error {
	ctx := cmd.Context()
	tc, err := newToolClient(ctx, e, opts.project)
	if err != nil {
		return err
	}
	defer tc.Close()
	var res ide.ListConfigurationsResult
	raw, err := tc.call(ctx, "get_restartable_run_configurations", projectArgs(opts.project), &res)
	if err != nil {
		return finish(cmd.OutOrStdout(), opts.asJSON, err)
	}
	if opts.asJSON {
		return writeRawJSON(cmd.OutOrStdout(), raw)
	}
	for _, warn := range res.Warnings {
		fmt.Fprintf(cmd.ErrOrStderr(), "warning: %s\n", warn)
	}
	if len(res.Configurations) == 0 {
		fmt.Fprintf(cmd.ErrOrStderr(), "no saved run configuration in %s\n", res.ProjectPath)
		return nil
	}
	w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "NAME\tTYPE\tSOURCE\tCOMMAND")
	for _, c := range res.Configurations {
		command := strings.Join(c.Command, " ")
		switch {
		case len(c.Members) > 0:
			command = "compound: " + strings.Join(c.Members, ", ")
		case !c.Restartable && c.Unsupported != "":
			command = "(not runnable: " + c.Unsupported + ")"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", c.Name, c.TypeName, c.Source, command)
	}
	return w.Flush()
}

func projectArgs(project string) map[string]any {
	a := map[string]any{}
	if project != "" {
		a["projectPath"] = project
	}
	return a
}

type runRestartOptions struct {
	project string
	name    string
	source  string
	asJSON  bool
	poll    time.Duration
}

func newRunRestartCmd(e *env, runF func(*cobra.Command, *runRestartOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(cmd *cobra.Command, opts *runRestartOptions) error { return runRestartRun(cmd, e, opts) }
	}
	opts := &runRestartOptions{poll: 100 * time.Millisecond}
	cmd := &cobra.Command{
		Use:   "restart NAME",
		Short: "Run a saved run configuration in the foreground, its output streamed",
		Long: `Start the run configuration NAME as restart_run_configuration does, and stay in the foreground:
its stdout and stderr are streamed here. When the program exits with a non-zero status, dbg
reports it and exits with status 1.

The process belongs to this command. Ctrl-C (or SIGTERM) stops its whole process group, politely
then firmly, and it is stopped when dbg ends. That is what a shell user expects from a command that
starts a program: no orphan left holding the configuration's ports. Restarting a configuration
that keeps running in the background is what 'dbg mcp' offers an agent: its
restart_run_configuration stops the instance it started and starts a new one, and the process
lives as long as the server.

With --json the command prints the tool's answer (action, pid, command) and returns at once;
the process is then stopped as the command exits, so --json is for checking a configuration
starts.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.name = args[0]
			return runF(cmd, opts)
		},
	}
	cmd.Flags().StringVar(&opts.project, "project", "", "the project directory (default: the working directory)")
	cmd.Flags().StringVar(&opts.source, "source", "", "the configuration's source file, when several share the name")
	cmd.Flags().BoolVar(&opts.asJSON, "json", false, "print the tool's answer as JSON and stop the process")
	return cmd
}

// exitError is a program's non-zero exit status.
type exitError struct{ code int }

func (e *exitError) Error() string { return fmt.Sprintf("the program exited with status %d", e.code) }

func runRestartRun(cmd *cobra.Command, e *env, opts *runRestartOptions) error {
	ctx := cmd.Context()
	tc, err := newToolClient(ctx, e, opts.project)
	if err != nil {
		return err
	}
	defer tc.Close()
	args := projectArgs(opts.project)
	args["configurationName"] = opts.name
	if opts.source != "" {
		args["source"] = opts.source
	}
	var res ide.RestartResult
	raw, err := tc.call(ctx, "restart_run_configuration", args, &res)
	if err != nil && (opts.asJSON || !res.Exited) {
		return finish(cmd.OutOrStdout(), opts.asJSON, err)
	}
	// A process that failed at once is a failed answer with the run in
	// its data: its output and exit status follow as for any run.
	// The process and whatever it started go when this command ends,
	// before dbg exits: the runner's own stop runs in the background.
	defer stopGroup(res.PID)
	if opts.asJSON {
		return writeRawJSON(cmd.OutOrStdout(), raw)
	}
	stderr := cmd.ErrOrStderr()
	fmt.Fprintf(stderr, "%s: pid %d: %s\n", res.Action, res.PID, strings.Join(res.Command, " "))
	if len(res.OtherInstances) > 0 {
		fmt.Fprintf(stderr, "note: %d other instance(s) not started by this command run the same program (pids %v)\n", len(res.OtherInstances), res.OtherInstances)
	}
	code, err := followProcess(ctx, tc, cmd.OutOrStdout(), stderr, res.RunResult, opts)
	if err != nil {
		return err
	}
	if code != 0 {
		return &exitError{code: code}
	}
	return nil
}

// followProcess streams the process's output (read_target_application_logs
// by pid) until it exits, and returns its exit code. When ctx ends (Ctrl-C)
// it stops the process group and returns the context's error. It polls
// every opts.poll for at most 1000 lines: a program printing faster than
// that loses lines in between, as the tool keeps the newest.
func followProcess(ctx context.Context, tc *toolClient, stdout, stderr io.Writer, res ide.RunResult, opts *runRestartOptions) (int, error) {
	var since int64
	tick := time.NewTicker(opts.poll)
	defer tick.Stop()
	for {
		// Exit first, output second: the ring holds everything once the
		// process has exited.
		code, done := 0, res.Exited
		if done && res.ExitCode != nil {
			code = *res.ExitCode
		} else if !done {
			code, done = exitCode(context.WithoutCancel(ctx), tc, opts, res.PID)
		}
		var logs debugtools.LogsOut
		_, lerr := tc.call(context.WithoutCancel(ctx), "read_target_application_logs",
			map[string]any{"pid": strconv.Itoa(res.PID), "since": since, "limit": 1000}, &logs)
		if lerr == nil {
			since = logs.Next
			for _, l := range logs.Entries {
				switch l.Logger {
				case "stdout":
					fmt.Fprint(stdout, withNewline(l.Message))
				case "stderr":
					fmt.Fprint(stderr, withNewline(l.Message))
				}
			}
		}
		if done {
			return code, nil
		}
		if lerr != nil && ctx.Err() == nil {
			return 0, lerr
		}
		select {
		case <-ctx.Done():
			stopGroup(res.PID)
			return 0, fmt.Errorf("interrupted: stopped pid %d: %w", res.PID, ctx.Err())
		case <-tick.C:
		}
	}
}

func withNewline(s string) string {
	if strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}

// exitCode reports whether the process pid has exited, and its exit
// code: get_restartable_run_configurations says whether it still runs
// (cheap), then the status snapshot gives the code.
func exitCode(ctx context.Context, tc *toolClient, opts *runRestartOptions, pid int) (int, bool) {
	var list ide.ListConfigurationsResult
	if _, err := tc.call(ctx, "get_restartable_run_configurations", projectArgs(opts.project), &list); err != nil {
		return 0, false
	}
	for _, c := range list.Configurations {
		if c.Running && c.PID == pid {
			return 0, false
		}
	}
	var st statusView
	if _, err := tc.call(ctx, "get_debug_tools_status", projectArgs(opts.project), &st); err != nil {
		return 0, false
	}
	var sec ide.RunConfigSection
	if err := json.Unmarshal(st.Sections["runConfigurations"], &sec); err != nil {
		return 0, false
	}
	for _, c := range sec.Configurations {
		if c.PID == pid && !c.Running && c.LastExitCode != nil {
			return *c.LastExitCode, true
		}
	}
	return 0, false
}

// stopGroup stops the process group the runner started: SIGTERM, then
// SIGKILL after three seconds. The runner does the same when the command's
// context ends; this makes it happen before dbg exits.
func stopGroup(pid int) {
	if pid <= 0 {
		return
	}
	proc.StopGroup(context.Background(), pid, proc.StopOptions{Grace: 3 * time.Second})
}

type runDebugOptions struct {
	project     string
	name        string
	source      string
	breakpoints []string
	stopOnEntry bool
	asJSON      bool
}

func newRunDebugCmd(e *env, runF func(*cobra.Command, *runDebugOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(cmd *cobra.Command, opts *runDebugOptions) error { return runDebugRun(cmd, e, opts) }
	}
	opts := &runDebugOptions{}
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
			return runF(cmd, opts)
		},
	}
	cmd.Flags().StringVar(&opts.project, "project", "", "the project directory (default: the working directory)")
	cmd.Flags().StringVar(&opts.source, "source", "", "the configuration's source file, when several share the name")
	cmd.Flags().StringArrayVar(&opts.breakpoints, "break", nil, "a line breakpoint FILE:LINE (repeatable; FILE may be relative to the project)")
	cmd.Flags().BoolVar(&opts.stopOnEntry, "stop-on-entry", false, "stop at the program's first line")
	cmd.Flags().BoolVar(&opts.asJSON, "json", false, "print JSON")
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

func runDebugRun(cmd *cobra.Command, e *env, opts *runDebugOptions) error {
	args, err := debugArgs(opts)
	if err != nil {
		return err
	}
	ctx := cmd.Context()
	tc, err := newToolClient(ctx, e, opts.project)
	if err != nil {
		return err
	}
	defer tc.Close()
	var res ide.DebugResult
	raw, err := tc.call(ctx, "debug_run_configuration", args, &res)
	if err != nil {
		return finish(cmd.OutOrStdout(), opts.asJSON, err)
	}
	if opts.asJSON {
		return writeRawJSON(cmd.OutOrStdout(), raw)
	}
	out := cmd.OutOrStdout()
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
			fmt.Fprintln(cmd.ErrOrStderr(), st.Message)
		}
		if st.State == sessions.StatePaused && res.SessionID != "" {
			printLocalsOf(ctx, tc, out, res.SessionID)
		}
	}
	if res.SessionID != "" {
		fmt.Fprintf(cmd.ErrOrStderr(), "session %s closes as this command exits; for a session that stays open, use debug_run_configuration in 'dbg mcp'\n", res.SessionID)
	}
	return nil
}

// printLocalsOf prints the locals of a paused session's top frame.
func printLocalsOf(ctx context.Context, tc *toolClient, out io.Writer, sessionID string) {
	var locals struct {
		Variables []sessions.Variable `json:"variables"`
	}
	if _, err := tc.call(ctx, "get_local_variables", map[string]any{"sessionId": sessionID}, &locals); err != nil {
		var tf *toolFailure
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
