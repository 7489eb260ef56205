package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/dbg-dev/dbg/proc"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
	"github.com/dbg-dev/dbg/cmd/internal/toolclient"
	"github.com/dbg-dev/dbg/debugtools"
	"github.com/dbg-dev/dbg/ide"
)

type runRestartOptions struct {
	IO         *iostreams.IOStreams
	ToolClient func(ctx context.Context, project string) (*toolclient.Client, error)

	project string
	name    string
	source  string
	asJSON  bool
	poll    time.Duration
}

func newCmdRunRestart(f *factory, runF func(context.Context, *runRestartOptions) error) *cobra.Command {
	if runF == nil {
		runF = runRestartRun
	}
	opts := &runRestartOptions{IO: f.io, ToolClient: f.toolClient, poll: 100 * time.Millisecond}
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
			return runF(cmd.Context(), opts)
		},
	}
	addProjectFlag(cmd, &opts.project)
	cmd.Flags().StringVar(&opts.source, "source", "", "the configuration's source file, when several share the name")
	cmd.Flags().BoolVar(&opts.asJSON, "json", false, "print the tool's answer as JSON and stop the process")
	return cmd
}

// exitError is a program's non-zero exit status.
type exitError struct{ code int }

func (e *exitError) Error() string { return fmt.Sprintf("the program exited with status %d", e.code) }

func runRestartRun(ctx context.Context, opts *runRestartOptions) error {
	tc, err := opts.ToolClient(ctx, opts.project)
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
	raw, err := tc.Call(ctx, "restart_run_configuration", args, &res)
	if err != nil && (opts.asJSON || !res.Exited) {
		return toolclient.Finish(opts.IO.Out, opts.asJSON, err)
	}
	// A process that failed at once is a failed answer with the run in
	// its data: its output and exit status follow as for any run.
	// The process and whatever it started go when this command ends,
	// before dbg exits: the runner's own stop runs in the background.
	defer stopGroup(res.PID)
	if opts.asJSON {
		return opts.IO.PrintRawJSON(raw)
	}
	stderr := opts.IO.ErrOut
	fmt.Fprintf(stderr, "%s: pid %d: %s\n", res.Action, res.PID, strings.Join(res.Command, " "))
	if len(res.OtherInstances) > 0 {
		fmt.Fprintf(stderr, "note: %d other instance(s) not started by this command run the same program (pids %v)\n", len(res.OtherInstances), res.OtherInstances)
	}
	code, err := followProcess(ctx, tc, opts.IO.Out, stderr, res.RunResult, opts)
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
func followProcess(ctx context.Context, tc *toolclient.Client, stdout, stderr io.Writer, res ide.RunResult, opts *runRestartOptions) (int, error) {
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
		_, lerr := tc.Call(context.WithoutCancel(ctx), "read_target_application_logs",
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
func exitCode(ctx context.Context, tc *toolclient.Client, opts *runRestartOptions, pid int) (int, bool) {
	var list ide.ListConfigurationsResult
	if _, err := tc.Call(ctx, "get_restartable_run_configurations", projectArgs(opts.project), &list); err != nil {
		return 0, false
	}
	for _, c := range list.Configurations {
		if c.Running && c.PID == pid {
			return 0, false
		}
	}
	var st statusView
	if _, err := tc.Call(ctx, "get_debug_tools_status", projectArgs(opts.project), &st); err != nil {
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
