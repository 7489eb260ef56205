package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/sessions"
)

func newAdaptersCmd(e *env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "adapters",
		Short: "List every language's debug adapter: found or missing, path, version, what works",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			m := sessions.NewManager(sessions.Config{Adapters: e.registry(), Now: e.now})
			infos := m.Languages(cmd.Context())
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(infos)
			}
			printAdapters(cmd, infos)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.AddCommand(newAdaptersInstallCmd(e))
	return cmd
}

func printAdapters(cmd *cobra.Command, infos []adapters.Info) {
	w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
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
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", i.Language, i.Adapter, status, i.Version, yn(i.Launch), yn(i.AttachPID), yn(i.AttachPort), where)
	}
	_ = w.Flush()
}

func newAdaptersInstallCmd(e *env) *cobra.Command {
	var dryRun bool
	cmd := &cobra.Command{
		Use:   "install LANG...",
		Short: "Install the debug adapters of the given languages (pinned versions)",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			reg := e.registry()
			for _, lang := range args {
				a, ok := reg.Lookup(lang)
				if !ok {
					return fmt.Errorf("unknown language %q (have: %s)", lang, strings.Join(reg.Languages(), ", "))
				}
				inst, ok := a.(adapters.Installer)
				if !ok {
					fmt.Fprintf(cmd.OutOrStdout(), "%s: nothing to install (built in)\n", a.Language())
					continue
				}
				for _, argv := range inst.InstallCommands() {
					if err := runInstall(cmd.Context(), cmd, argv, dryRun); err != nil {
						return fmt.Errorf("%s: %w", a.Language(), err)
					}
				}
				if !dryRun {
					info := a.Find(cmd.Context())
					if !info.Found {
						return fmt.Errorf("%s: installed, but the adapter is still not found (is its bin folder in PATH?)", a.Language())
					}
					fmt.Fprintf(cmd.OutOrStdout(), "%s: %s %s at %s\n", a.Language(), info.Adapter, info.Version, info.Path)
				}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print the commands without running them")
	return cmd
}

// runInstall prints the exact command, then runs it with its output
// streamed so long installs show progress.
func runInstall(ctx context.Context, cmd *cobra.Command, argv []string, dryRun bool) error {
	fmt.Fprintf(cmd.OutOrStdout(), "+ %s\n", strings.Join(argv, " "))
	if dryRun {
		return nil
	}
	c := exec.CommandContext(ctx, argv[0], argv[1:]...)
	c.Stdout, c.Stderr = cmd.OutOrStdout(), cmd.ErrOrStderr()
	c.Env = append(c.Environ(), "DEBIAN_FRONTEND=noninteractive")
	if err := c.Run(); err != nil {
		return fmt.Errorf("%s: %w", strings.Join(argv, " "), err)
	}
	return nil
}
