package main

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/sessions"
)

// addServerFlags adds the server's own flags to a serving command and
// makes *newServer build servers with them. It returns the flags.
func addServerFlags(cmd *cobra.Command, f *factory, newServer *func(context.Context, string) (*mcp.Server, func())) *serverFlags {
	flags := &serverFlags{}
	cmd.Flags().BoolVar(&flags.NoSideEffects, "no-side-effects", false,
		"evaluate_expression refuses calls and assignments unless a call passes sideEffects: true")
	cmd.Flags().BoolVar(&flags.RevealSecrets, "reveal-secrets", false,
		"show credentials raw in every answer and in the DAP traffic log (by default values named like password, token or apiKey, and Bearer headers, access keys, PEM blocks and passwords in URLs, are shown as ‹redacted› unless a call passes reveal: true)")
	cmd.Flags().BoolVar(&flags.NoReveal, "no-reveal", false, "refuse reveal: true in every call: credentials stay redacted whatever the agent asks")
	cmd.Flags().IntVar(&flags.MaxSessions, "max-sessions", 0, "the most debug sessions open at once (0: no cap)")
	cmd.Flags().IntVar(&flags.MaxProcesses, "max-processes", 0, "the most run-configuration processes running at once (0: no cap)")
	cmd.Flags().BoolVar(&flags.AllowOutsideProject, "allow-outside-project", false,
		"let get_source_context, breakpoints, traces and hot_reload name files outside the project and the session's program (by default only those, and files the program's stack shows)")
	cmd.Flags().DurationVar(&flags.RequestTimeout, "request-timeout", sessions.DefaultRequestTimeout,
		"how long to wait for the debug adapter's answer to one request before the call answers TIMEOUT")
	cmd.MarkFlagsMutuallyExclusive("reveal-secrets", "no-reveal")
	addPolicyFlags(cmd, &flags.policyFlags)
	*newServer = func(ctx context.Context, project string) (*mcp.Server, func()) {
		return f.newServerWith(ctx, project, *flags)
	}
	return flags
}
