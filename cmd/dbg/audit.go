package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
	"github.com/dbg-dev/dbg/toolkit"
)

type auditOptions struct {
	IO       *iostreams.IOStreams
	StateDir func() string
	Now      func() time.Time

	since  string
	asJSON bool
}

// newCmdAudit prints the audit log: one line per call of a tool that
// changed a program, a file or a repository, from every dbg server of
// this user.
func newCmdAudit(f *factory, runF func(context.Context, *auditOptions) error) *cobra.Command {
	opts := &auditOptions{IO: f.io, StateDir: f.stateDir, Now: f.now}
	cmd := verb(&cobra.Command{
		Use:   "audit",
		Short: "Print the calls that changed a program, a file or a repository",
		Long: "Print dbg's audit log (" + toolkit.AuditFile + " in the state folder): for every call of a tool that is not read-only, " +
			"its time, client, tool, arguments (credentials redacted), session, pid and outcome.",
	}, opts, auditRun, runF)
	cmd.Flags().StringVar(&opts.since, "since", "", "only calls from this long ago (1h, 30m) or since this time (2026-01-02 or RFC 3339)")
	addJSONFlag(cmd, &opts.asJSON)
	return cmd
}

func auditRun(_ context.Context, opts *auditOptions) error {
	since, err := parseSince(opts.since, opts.Now())
	if err != nil {
		return err
	}
	entries, err := toolkit.ReadAudit(opts.StateDir(), since)
	if err != nil {
		return err
	}
	if opts.asJSON {
		enc := json.NewEncoder(opts.IO.Out)
		for _, e := range entries {
			if err := enc.Encode(e); err != nil {
				return err
			}
		}
		return nil
	}
	w := tabwriter.NewWriter(opts.IO.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "TIME\tTOOL\tOUTCOME\tSESSION\tPID\tCLIENT\tARGUMENTS")
	for _, e := range entries {
		pid := ""
		if e.PID != 0 {
			pid = fmt.Sprint(e.PID)
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", e.Time, e.Tool, e.Outcome, e.Session, pid, auditClient(e), e.Args)
	}
	return w.Flush()
}

// auditClient names the client of a call: its name, its connection and,
// for a call on another client's session, that client's.
func auditClient(e toolkit.AuditEntry) string {
	c := e.Client
	if e.ClientID != "" {
		c += " [" + e.ClientID + "]"
	}
	if e.Owner != "" {
		c += " on [" + e.Owner + "]'s session"
	}
	return strings.TrimSpace(c)
}

// parseSince reads --since: a duration back from now, a date, or a time.
func parseSince(s string, now time.Time) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("--since %q: a duration (1h, 30m), a date (2026-01-02) or a time (2026-01-02T15:04:05Z)", s)
}
