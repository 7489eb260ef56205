package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
	"github.com/dbg-dev/dbg/cmd/internal/mcpconfig"
)

type mcpInstallOptions struct {
	IO     *iostreams.IOStreams
	Getenv func(string) string

	client  string
	path    string
	name    string
	project string
	command string
	dryRun  bool
}

func newCmdMCPInstall(f *factory, runF func(context.Context, *mcpInstallOptions) error) *cobra.Command {
	opts := &mcpInstallOptions{IO: f.io, Getenv: f.getenv}
	cmd := verb(&cobra.Command{
		Use:   "install --client NAME",
		Short: "Add dbg to an MCP client's configuration",
		Long: `Add a server entry that starts "dbg mcp" to an MCP client's configuration file.
Clients: ` + mcpconfig.Names() + `.

The rest of the file is kept: other servers, comments, formatting. An existing entry
with the same name is replaced. The file is written atomically and keeps its mode.
Files tracked by git are not edited: the command prints the snippet to add by hand.`,
	}, opts, mcpInstallRun, runF)
	fl := cmd.Flags()
	fl.StringVar(&opts.client, "client", "", "the MCP client: "+mcpconfig.Names())
	fl.StringVar(&opts.path, "path", "", "the configuration file (default: the client's user configuration)")
	fl.StringVar(&opts.name, "name", "dbg", "the server's name in the configuration")
	fl.StringVar(&opts.project, "project", "", "pass --project DIR to dbg mcp")
	fl.StringVar(&opts.command, "command", "", "the dbg executable the client starts (default: this binary)")
	fl.BoolVar(&opts.dryRun, "dry-run", false, "print the change without writing")
	return cmd
}

// mcpInstallRun writes the entry for opts into the client's file.
func mcpInstallRun(ctx context.Context, opts *mcpInstallOptions) error {
	c, err := mcpconfig.Find(opts.client)
	if err != nil {
		return err
	}
	if opts.name == "" || strings.ContainsFunc(opts.name, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return fmt.Errorf("--name %q: want a non-empty name without control characters", opts.name)
	}
	command := opts.command
	if command == "" {
		if command, err = os.Executable(); err != nil {
			return fmt.Errorf("finding the dbg executable (pass --command): %w", err)
		}
	}
	args := []string{"mcp"}
	if opts.project != "" {
		dir, err := filepath.Abs(opts.project)
		if err != nil {
			return fmt.Errorf("--project %q: %w", opts.project, err)
		}
		args = append(args, "--project", dir)
	}
	path := opts.path
	if path == "" {
		home, err := installHome(opts.Getenv)
		if err != nil {
			return err
		}
		path = c.Path(home, opts.Getenv)
	}
	ed, err := mcpconfig.Prepare(c, path, opts.name, mcpconfig.Entry(c, command, args...))
	if err != nil {
		return err
	}
	out := opts.IO.Out
	if ed.Unchanged() {
		fmt.Fprintf(out, "%s already has MCP server %q for %s; nothing to change.\n", ed.Path, opts.name, c.Title)
		return nil
	}
	if err := ed.CheckTracked(ctx); err != nil {
		return err
	}
	verb, prep := "Added", "to"
	if ed.Replaced {
		verb, prep = "Replaced existing", "in"
	}
	if opts.dryRun {
		fmt.Fprintf(out, "Dry run: would write %s (%s); %s MCP server %q.\n", ed.Path, c.Title, strings.ToLower(verb), opts.name)
		_, err := io.WriteString(out, ed.Diff())
		return err
	}
	if err := ed.Apply(); err != nil {
		return err
	}
	fmt.Fprintf(out, "%s MCP server %q %s %s (%s):\n\n%s\nRestart %s or reload its MCP servers to use it.\n", verb, opts.name, prep, ed.Path, c.Title, ed.Snippet, c.Title)
	return nil
}

// installHome is the user's home directory: HOME from getenv, then the
// operating system's answer.
func installHome(getenv func(string) string) (string, error) {
	if h := getenv("HOME"); h != "" {
		return h, nil
	}
	h, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("finding the home directory: %w", err)
	}
	return h, nil
}
