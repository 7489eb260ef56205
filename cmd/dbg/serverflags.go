package main

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"
)

// addServerFlags adds the server's own flags to a serving command and
// makes *newServer build servers with them. It returns the flags.
func addServerFlags(cmd *cobra.Command, f *factory, newServer *func(context.Context, string) (*mcp.Server, func())) *serverFlags {
	flags := &serverFlags{}
	cmd.Flags().BoolVar(&flags.NoSideEffects, "no-side-effects", false,
		"evaluate_expression refuses calls and assignments unless a call passes sideEffects: true")
	cmd.Flags().BoolVar(&flags.RevealSecrets, "reveal-secrets", false,
		"show credentials raw in every answer (by default values named like password, token or apiKey, and Bearer headers, access keys, PEM blocks and passwords in URLs, are shown as ‹redacted› unless a call passes reveal: true)")
	addPolicyFlags(cmd, &flags.policyFlags)
	*newServer = func(ctx context.Context, project string) (*mcp.Server, func()) {
		return f.newServerWith(ctx, project, *flags)
	}
	return flags
}
