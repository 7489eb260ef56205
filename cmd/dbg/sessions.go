package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/sessions"
)

type sessionsOptions struct {
	project string
	asJSON  bool
}

// newSessionsCmd lists debug sessions. With a running `dbg serve` for the
// project they are the daemon's (shared with its MCP clients); otherwise a
// one-shot command has none.
func newSessionsCmd(e *env) *cobra.Command {
	opts := &sessionsOptions{}
	cmd := &cobra.Command{
		Use:   "sessions",
		Short: "List the debug sessions of the project's running dbg serve",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			tc, err := newToolClient(cmd.Context(), e, opts.project)
			if err != nil {
				return err
			}
			defer tc.Close()
			var out struct {
				Sessions []sessions.SessionInfo `json:"sessions"`
			}
			raw, err := tc.call(cmd.Context(), "list_debug_sessions", nil, &out)
			if err != nil || opts.asJSON {
				if err == nil {
					err = writeRawJSON(cmd.OutOrStdout(), raw)
				}
				return finish(cmd.OutOrStdout(), opts.asJSON, err)
			}
			if tc.m != nil {
				fmt.Fprintln(cmd.ErrOrStderr(), "no dbg serve runs for this project: a one-shot command has no sessions")
			}
			w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "SESSION\tLANGUAGE\tSTATE\tPID\tWHERE")
			for _, s := range out.Sessions {
				where := s.Reason
				if s.LastStop != nil && s.LastStop.Location != nil {
					where = fmt.Sprintf("%s:%d (%s)", s.LastStop.Location.File, s.LastStop.Location.Line, s.LastStop.Reason)
				}
				fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%s\n", s.ID, s.Language, s.State, s.PID, where)
			}
			return w.Flush()
		},
	}
	cmd.Flags().StringVar(&opts.project, "project", "", "the project directory (default: the working directory)")
	cmd.Flags().BoolVar(&opts.asJSON, "json", false, "print JSON")
	return cmd
}
