package main

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
	"github.com/dbg-dev/dbg/cmd/internal/toolclient"
	"github.com/dbg-dev/dbg/ide"
)

type runListOptions struct {
	IO         *iostreams.IOStreams
	ToolClient func(ctx context.Context, project string) (*toolclient.Client, error)

	project string
	asJSON  bool
}

func newCmdRunList(f *factory, runF func(context.Context, *runListOptions) error) *cobra.Command {
	if runF == nil {
		runF = runListRun
	}
	opts := &runListOptions{IO: f.io, ToolClient: f.toolClient}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the saved run configurations with their type, source and the command dbg runs",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runF(cmd.Context(), opts)
		},
	}
	addProjectFlag(cmd, &opts.project)
	addJSONFlag(cmd, &opts.asJSON)
	return cmd
}

func runListRun(ctx context.Context, opts *runListOptions) error {
	tc, err := opts.ToolClient(ctx, opts.project)
	if err != nil {
		return err
	}
	defer tc.Close()
	var res ide.ListConfigurationsResult
	if done, err := tc.CallPrint(ctx, opts.IO, opts.asJSON, "get_restartable_run_configurations", projectArgs(opts.project), &res); done {
		return err
	}
	for _, warn := range res.Warnings {
		fmt.Fprintf(opts.IO.ErrOut, "warning: %s\n", warn)
	}
	if len(res.Configurations) == 0 {
		fmt.Fprintf(opts.IO.ErrOut, "no saved run configuration in %s\n", res.ProjectPath)
		return nil
	}
	w := tabwriter.NewWriter(opts.IO.Out, 0, 4, 2, ' ', 0)
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
