package main

import (
	"context"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/cmd/internal/toolclient"
	"github.com/dbg-dev/dbg/sessions"
)

// newCmdSessions lists debug sessions. With a running `dbg serve` for the
// project they are the daemon's (shared with its MCP clients); otherwise a
// one-shot command has none.
func newCmdSessions(f *factory, runF func(context.Context, *queryOptions) error) *cobra.Command {
	return queryVerb(f, &cobra.Command{
		Use:   "sessions",
		Short: "List the debug sessions of the project's running dbg serve",
	}, sessionsRun, runF)
}

func sessionsRun(ctx context.Context, opts *queryOptions) error {
	var out struct {
		Sessions []sessions.SessionInfo `json:"sessions"`
	}
	return opts.ask(ctx, "list_debug_sessions", nil, &out, func(tc *toolclient.Client) error {
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
	})
}
