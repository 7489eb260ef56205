package main

import (
	"context"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
	"github.com/dbg-dev/dbg/cmd/internal/toolclient"
	"github.com/dbg-dev/dbg/debugtools"
)

type jvmListOptions struct {
	IO         *iostreams.IOStreams
	ToolClient func(ctx context.Context, project string) (*toolclient.Client, error)

	project string
	asJSON  bool
}

func newCmdJVMList(f *factory, runF func(context.Context, *jvmListOptions) error) *cobra.Command {
	if runF == nil {
		runF = jvmListRun
	}
	opts := &jvmListOptions{IO: f.io, ToolClient: f.toolClient}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List local JVMs: pid, main class, whether they can be attached, and the project's run configuration or module",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runF(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.project, "project", "", "the project directory, to link JVMs to its run configurations (default: the working directory)")
	addJSONFlag(cmd, &opts.asJSON)
	return cmd
}

// jvmList is the data of list_attachable_jvms.
type jvmList struct {
	Count int                 `json:"count"`
	JVMs  []debugtools.JVMOut `json:"jvms"`
}

func jvmListRun(ctx context.Context, opts *jvmListOptions) error {
	tc, err := opts.ToolClient(ctx, opts.project)
	if err != nil {
		return err
	}
	defer tc.Close()
	var list jvmList
	if done, err := tc.CallPrint(ctx, opts.IO, opts.asJSON, "list_attachable_jvms", map[string]any{}, &list); done {
		return err
	}
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
}
