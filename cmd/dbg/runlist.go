package main

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/cmd/internal/toolclient"
	"github.com/dbg-dev/dbg/ide"
)

func newCmdRunList(f *factory, runF func(context.Context, *queryOptions) error) *cobra.Command {
	return queryVerb(f, &cobra.Command{
		Use:   "list",
		Short: "List the saved run configurations with their type, source and the command dbg runs",
	}, runListRun, runF)
}

func runListRun(ctx context.Context, opts *queryOptions) error {
	var res ide.ListConfigurationsResult
	return opts.ask(ctx, "get_restartable_run_configurations", projectArgs(opts.project), &res, func(*toolclient.Client) error {
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
	})
}
