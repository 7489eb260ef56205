package main

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
	"github.com/dbg-dev/dbg/cmd/internal/toolclient"
)

type adaptersOptions struct {
	IO         *iostreams.IOStreams
	ToolClient func(ctx context.Context, project string) (*toolclient.Client, error)

	asJSON bool
}

func newCmdAdapters(f *factory, runF func(context.Context, *adaptersOptions) error) *cobra.Command {
	opts := &adaptersOptions{IO: f.io, ToolClient: f.toolClient}
	cmd := verb(&cobra.Command{
		Use:   "adapters",
		Short: "List every language's debug adapter: found or missing, path, version, what works",
	}, opts, adaptersRun, runF)
	addJSONFlag(cmd, &opts.asJSON)
	cmd.AddCommand(newCmdAdaptersInstall(f, nil))
	return cmd
}

// adaptersRun answers with list_supported_languages. --json prints the
// list in the adapters' own field order.
func adaptersRun(ctx context.Context, opts *adaptersOptions) error {
	tc, err := opts.ToolClient(ctx, "")
	if err != nil {
		return err
	}
	defer tc.Close()
	var out struct {
		Languages []adapters.Info `json:"languages"`
	}
	if _, err := tc.Call(ctx, "list_supported_languages", nil, &out); err != nil {
		return toolclient.Finish(opts.IO.Out, opts.asJSON, err)
	}
	if opts.asJSON {
		return opts.IO.PrintJSON(out.Languages)
	}
	return printAdapters(opts.IO.Out, out.Languages)
}

func printAdapters(out io.Writer, infos []adapters.Info) error {
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "LANGUAGE\tADAPTER\tSTATUS\tVERSION\tLAUNCH\tATTACH PID\tATTACH PORT\tPATH / INSTALL")
	yn := func(b bool) string {
		if b {
			return "yes"
		}
		return "-"
	}
	for _, i := range infos {
		status, where := "missing", i.InstallCommand
		if i.Found {
			status, where = "found", i.Path
		}
		pid := yn(i.AttachPID)
		if i.AttachPID && i.AttachPIDVia != "" {
			pid += " (" + i.AttachPIDVia + ")"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", i.Language, i.Adapter, status, i.Version, yn(i.Launch), pid, yn(i.AttachPort), where)
	}
	return w.Flush()
}
