package main

import (
	"context"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
	"github.com/dbg-dev/dbg/cmd/internal/toolclient"
	"github.com/dbg-dev/dbg/sessions"
)

type sessionsOptions struct {
	IO         *iostreams.IOStreams
	ToolClient func(ctx context.Context, project string) (*toolclient.Client, error)

	project string
	asJSON  bool
}

// newCmdSessions lists debug sessions. With a running `dbg serve` for the
// project they are the daemon's (shared with its MCP clients); otherwise a
// one-shot command has none.
func newCmdSessions(f *factory, runF func(context.Context, *sessionsOptions) error) *cobra.Command {
	if runF == nil {
		runF = sessionsRun
	}
	opts := &sessionsOptions{IO: f.io, ToolClient: f.toolClient}
	cmd := &cobra.Command{
		Use:   "sessions",
		Short: "List the debug sessions of the project's running dbg serve",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runF(cmd.Context(), opts)
		},
	}
	addProjectFlag(cmd, &opts.project)
	addJSONFlag(cmd, &opts.asJSON)
	return cmd
}

func sessionsRun(ctx context.Context, opts *sessionsOptions) error {
	tc, err := opts.ToolClient(ctx, opts.project)
	if err != nil {
		return err
	}
	defer tc.Close()
	var out struct {
		Sessions []sessions.SessionInfo `json:"sessions"`
	}
	if done, err := tc.CallPrint(ctx, opts.IO, opts.asJSON, "list_debug_sessions", nil, &out); done {
		return err
	}
	if tc.InProcess() {
		fmt.Fprintln(opts.IO.ErrOut, "no dbg serve runs for this project: a one-shot command has no sessions")
	}
	w := tabwriter.NewWriter(opts.IO.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "SESSION\tLANGUAGE\tSTATE\tPID\tWHERE")
	for _, s := range out.Sessions {
		where := s.Reason
		if s.LastStop != nil && s.LastStop.Location != nil {
			where = fmt.Sprintf("%s:%d (%s)", s.LastStop.Location.File, s.LastStop.Location.Line, s.LastStop.Reason)
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%s\n", s.ID, s.Language, s.State, s.PID, where)
	}
	return w.Flush()
}
