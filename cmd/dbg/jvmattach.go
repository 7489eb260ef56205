package main

import (
	"context"
	"fmt"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
	"github.com/dbg-dev/dbg/cmd/internal/toolclient"
	"github.com/dbg-dev/dbg/debugtools"
)

type jvmAttachOptions struct {
	IO         *iostreams.IOStreams
	ToolClient func(ctx context.Context, project string) (*toolclient.Client, error)

	pid        int
	attachName string
	wait       time.Duration
	asJSON     bool
}

func newCmdJVMAttach(f *factory, runF func(context.Context, *jvmAttachOptions) error) *cobra.Command {
	if runF == nil {
		runF = jvmAttachRun
	}
	opts := &jvmAttachOptions{IO: f.io, ToolClient: f.toolClient}
	cmd := &cobra.Command{
		Use:   "attach PID",
		Short: "Load dbg's agent into a running JVM (HotSpot dynamic attach)",
		Long: `Load dbg's agent into the JVM with process id PID and wait for it to answer. The agent lives in
the JVM and keeps running after this command exits: later 'dbg jvm invoke --pid PID' calls and
MCP servers reuse it (loading it again keeps the first instance). JVMs started with
-XX:+DisableAttachMechanism, -Xrs or -XX:+ReduceSignalUsage are refused.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			pid, err := strconv.Atoi(args[0])
			if err != nil || pid <= 0 {
				return fmt.Errorf("PID must be a process id, not %q", args[0])
			}
			opts.pid = pid
			if opts.wait < 0 {
				return fmt.Errorf("--wait must not be negative")
			}
			return runF(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.attachName, "name", "", "application name of the connection (default: from the main class)")
	cmd.Flags().DurationVar(&opts.wait, "wait", 30*time.Second, "how long to wait for the agent to answer (0 = only trigger the attach)")
	addJSONFlag(cmd, &opts.asJSON)
	return cmd
}

func jvmAttachRun(ctx context.Context, opts *jvmAttachOptions) error {
	tc, err := opts.ToolClient(ctx, "")
	if err != nil {
		return err
	}
	defer tc.Close()
	var out debugtools.AttachOut
	if done, err := tc.CallPrint(ctx, opts.IO, opts.asJSON, "attach_local_jvm", jvmAttachArgs(opts.pid, opts.attachName, opts.wait), &out); done {
		return err
	}
	fmt.Fprintln(opts.IO.ErrOut, out.Message)
	w := tabwriter.NewWriter(opts.IO.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintf(w, "pid\t%s\n", out.PID)
	fmt.Fprintf(w, "attachName\t%s\n", orDash(out.AttachName))
	fmt.Fprintf(w, "connectionId\t%s\n", orDash(out.ConnectionID))
	fmt.Fprintf(w, "port\t%s\n", orDash(out.Port))
	fmt.Fprintf(w, "httpPort\t%s\n", orDash(out.HTTPPort))
	return w.Flush()
}

func jvmAttachArgs(pid int, name string, wait time.Duration) map[string]any {
	a := map[string]any{"pid": strconv.Itoa(pid), "waitForConnectionMillis": wait.Milliseconds()}
	if name != "" {
		a["attachName"] = name
	}
	return a
}
