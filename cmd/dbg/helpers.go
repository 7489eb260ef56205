package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
	"github.com/dbg-dev/dbg/cmd/internal/toolclient"
)

// orDash prints "-" for an empty or nil value.
func orDash[T any](p *T) string {
	if p == nil {
		return "-"
	}
	s := fmt.Sprint(*p)
	if s == "" {
		return "-"
	}
	return s
}

// dash prints "-" for an empty string.
func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// projectArgs are a tool's arguments naming the project, when given.
func projectArgs(project string) map[string]any {
	a := map[string]any{}
	if project != "" {
		a["projectPath"] = project
	}
	return a
}

// addProjectFlag adds --project, the project directory of the tools.
func addProjectFlag(cmd *cobra.Command, p *string) {
	cmd.Flags().StringVar(p, "project", "", "the project directory (default: the working directory)")
}

// addJSONFlag adds --json: print the tool's answer as JSON.
func addJSONFlag(cmd *cobra.Command, b *bool) {
	cmd.Flags().BoolVar(b, "json", false, "print JSON")
}

// verb finishes cmd as a verb without positional arguments: its RunE
// hands opts to runF, or to run when runF is nil (tests pass their own).
func verb[O any](cmd *cobra.Command, opts *O, run, runF func(context.Context, *O) error) *cobra.Command {
	if runF == nil {
		runF = run
	}
	cmd.Args = cobra.NoArgs
	cmd.RunE = func(cmd *cobra.Command, _ []string) error { return runF(cmd.Context(), opts) }
	return cmd
}

// queryOptions are the options of a verb that asks the project's tools one
// question and prints the answer, as a table or, with --json, as the
// tool's data: run list, sessions, status and jvm list.
type queryOptions struct {
	IO         *iostreams.IOStreams
	ToolClient func(ctx context.Context, project string) (*toolclient.Client, error)

	project string
	asJSON  bool
}

// ask calls tool with args, decoding its data into out, and then print
// with the client; with --json, or when the call fails, the answer is
// printed and print is not called.
func (o *queryOptions) ask(ctx context.Context, tool string, args map[string]any, out any, print func(tc *toolclient.Client) error) error {
	return withClient(ctx, o.ToolClient, o.project, func(tc *toolclient.Client) error {
		if done, err := tc.CallPrint(ctx, o.IO, o.asJSON, tool, args, out); done {
			return err
		}
		return print(tc)
	})
}

// withClient opens the project's tools with open, hands them to use and
// closes them after.
func withClient(ctx context.Context, open func(ctx context.Context, project string) (*toolclient.Client, error), project string, use func(*toolclient.Client) error) error {
	tc, err := open(ctx, project)
	if err != nil {
		return err
	}
	defer tc.Close()
	return use(tc)
}

// queryVerb finishes cmd as a query verb with --project and --json.
func queryVerb(f *factory, cmd *cobra.Command, run, runF func(context.Context, *queryOptions) error) *cobra.Command {
	opts := &queryOptions{IO: f.io, ToolClient: f.toolClient}
	verb(cmd, opts, run, runF)
	addProjectFlag(cmd, &opts.project)
	addJSONFlag(cmd, &opts.asJSON)
	return cmd
}

// group is a command that only holds the verbs subs.
func group(use, short string, subs ...*cobra.Command) *cobra.Command {
	cmd := &cobra.Command{Use: use, Short: short, Args: cobra.NoArgs}
	cmd.AddCommand(subs...)
	return cmd
}
