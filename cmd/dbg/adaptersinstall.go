package main

import (
	"context"
	"fmt"
	"os/exec"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
	"github.com/dbg-dev/dbg/toolkit"
)

type adaptersInstallOptions struct {
	IO       *iostreams.IOStreams
	Registry func() *adapters.Registry

	languages []string
	dryRun    bool
	python    string // the interpreter debugpy goes into ("" = PATH's python3)
}

func newCmdAdaptersInstall(f *factory, runF func(context.Context, *adaptersInstallOptions) error) *cobra.Command {
	if runF == nil {
		runF = adaptersInstallRun
	}
	opts := &adaptersInstallOptions{IO: f.io, Registry: f.registry}
	cmd := &cobra.Command{
		Use:   "install LANG...",
		Short: "Install the debug adapters of the given languages (pinned versions)",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.languages = args
			return runF(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.dryRun, "dry-run", false, "print the commands without running them")
	cmd.Flags().StringVar(&opts.python, "python", "", "python: install debugpy into this interpreter (default: PATH's python3)")
	return cmd
}

func adaptersInstallRun(ctx context.Context, opts *adaptersInstallOptions) error {
	reg := opts.Registry()
	out := opts.IO.Out
	if opts.IO.IsStderrTTY() && !opts.dryRun {
		ctx = toolkit.WithProgress(ctx, func(line string) { fmt.Fprintln(opts.IO.ErrOut, line) })
	}
	for _, lang := range opts.languages {
		a, ok := reg.Lookup(lang)
		if !ok {
			return fmt.Errorf("unknown language %q (have: %s)", lang, strings.Join(reg.Languages(), ", "))
		}
		inst, ok := a.(adapters.Installer)
		if !ok {
			fmt.Fprintf(out, "%s: nothing to install (built in)\n", a.Language())
			continue
		}
		cmds := inst.InstallCommands()
		if opts.python != "" {
			into := a.Traits().InstallInto
			if into == nil {
				return fmt.Errorf("--python is for python, not %s", a.Language())
			}
			cmds = into(opts.python)
		}
		for i, argv := range cmds {
			toolkit.Progress(ctx, "%s: installing, step %d of %d…", a.Language(), i+1, len(cmds))
			if err := runInstall(ctx, opts.IO, argv, opts.dryRun); err != nil {
				return fmt.Errorf("%s: %w", a.Language(), err)
			}
		}
		if !opts.dryRun && opts.python != "" {
			fmt.Fprintf(out, "%s: debugpy installed into %s\n", a.Language(), opts.python)
		} else if !opts.dryRun {
			info := a.Find(ctx)
			if !info.Found {
				return fmt.Errorf("%s: installed, but the adapter is still not found (is its bin folder in PATH?)", a.Language())
			}
			fmt.Fprintf(out, "%s: %s %s at %s\n", a.Language(), info.Adapter, info.Version, info.Path)
		}
	}
	return nil
}

// runInstall prints the exact command, then runs it with its output
// streamed so long installs show progress.
func runInstall(ctx context.Context, ios *iostreams.IOStreams, argv []string, dryRun bool) error {
	fmt.Fprintf(ios.Out, "+ %s\n", strings.Join(argv, " "))
	if dryRun {
		return nil
	}
	c := exec.CommandContext(ctx, argv[0], argv[1:]...)
	c.Stdout, c.Stderr = ios.Out, ios.ErrOut
	c.Env = append(c.Environ(), "DEBIAN_FRONTEND=noninteractive")
	if err := c.Run(); err != nil {
		return fmt.Errorf("%s: %w", strings.Join(argv, " "), err)
	}
	return nil
}
