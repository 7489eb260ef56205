package main

import (
	"context"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/cmd/internal/toolclient"
	"github.com/dbg-dev/dbg/debugtools"
)

func newCmdJVMList(f *factory, runF func(context.Context, *queryOptions) error) *cobra.Command {
	cmd := queryVerb(f, &cobra.Command{
		Use:   "list",
		Short: "List local JVMs: pid, main class, whether they can be attached, and the project's run configuration or module",
	}, jvmListRun, runF)
	cmd.Flags().Lookup("project").Usage = "the project directory, to link JVMs to its run configurations (default: the working directory)"
	return cmd
}

// jvmList is the data of list_attachable_jvms.
type jvmList struct {
	Count int                 `json:"count"`
	JVMs  []debugtools.JVMOut `json:"jvms"`
}

func jvmListRun(ctx context.Context, opts *queryOptions) error {
	var list jvmList
	return opts.ask(ctx, "list_attachable_jvms", map[string]any{}, &list, func(*toolclient.Client) error {
		if len(list.JVMs) == 0 {
			fmt.Fprintln(opts.IO.ErrOut, "no JVM found")
			return nil
		}
		w := tabwriter.NewWriter(opts.IO.Out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(w, "PID\tNAME\tATTACH NAME\tATTACHABLE\tCONFIGURATION\tMODULE")
		for _, j := range list.JVMs {
			att := "yes"
			if !j.Attachable {
				att = "no: " + j.Reason
			}
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\n", j.PID, j.DisplayName, j.AttachName, att, orDash(j.ConfigurationName), orDash(j.ModuleName))
		}
		return w.Flush()
	})
}
