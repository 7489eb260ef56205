package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/cmd/internal/console"
	"github.com/dbg-dev/dbg/remote"
	"github.com/dbg-dev/dbg/sessions"
)

type attachOptions struct {
	consoleOptions

	// DetectLanguage tells a process's language from its pid.
	DetectLanguage func(pid int) (string, error)
	// RemoteLanguage tells the language of process pid on the machine a
	// via reaches.
	RemoteLanguage func(ctx context.Context, via sessions.Via, pid int) (string, error)
	// Processes lists the user's debuggable processes for the picker.
	Processes func() []console.Process

	pid      int
	port     int
	via      string
	viaSpec  *sessions.Via
	language string
	noPause  bool
}

// newCmdAttach attaches to a running process and opens the console.
func newCmdAttach(f *factory, runF func(context.Context, *attachOptions) error) *cobra.Command {
	if runF == nil {
		runF = attachRun
	}
	opts := &attachOptions{consoleOptions: newConsoleOptions(f),
		DetectLanguage: func(pid int) (string, error) { return f.registry().DetectLanguage(pid) },
		Processes:      func() []console.Process { return debuggableProcesses(f.registry()) },
		RemoteLanguage: func(ctx context.Context, via sessions.Via, pid int) (string, error) {
			return remoteLanguage(ctx, f.newRemote(), via, pid)
		},
	}
	cmd := &cobra.Command{
		Use:   "attach [--pid N | --port N] [--via URL]",
		Short: "Attach to a running process (language detected) and debug it at a console",
		Long: `Attach to a running process and debug it at a console. The language is
detected from the process (its executable and command line) unless --language
is given. Without --pid or --port, on a terminal, dbg lists your debuggable
processes and asks which one.

The console edits lines, keeps history and completes commands (Tab); help
lists its commands (break, continue, next, step, out, bt, frame, locals,
print, set, list, threads, detach, ...). Ctrl-C pauses the running program;
Ctrl-D detaches after asking.

With --json, commands are read from stdin and every answer is printed as
JSON. With --no-prompt, the session is created in the project's daemon
(started in the background when none runs), its id and first stop are
printed, and dbg returns: dbg break SESSION FILE:LINE, dbg continue SESSION,
dbg locals SESSION ... then drive it one command at a time.

With --via, the process runs on another machine: ssh://[user@]host[:port]
(the system's ssh, with your configuration and keys), docker://CONTAINER or
k8s://NAMESPACE/POD[/CONTAINER]. --pid (or --port) is then the target's; dbg
starts the debug server there, on its loopback, tunnels to it, and takes it
all down when the session ends.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.language == "" && opts.pid == 0 && opts.port != 0 {
				return fmt.Errorf("--language is required with --port")
			}
			if opts.via != "" {
				v, err := remote.ParseVia(opts.via)
				if err != nil {
					return err
				}
				if opts.pid == 0 && opts.port == 0 {
					return fmt.Errorf("--via needs --pid (or --port): the process on %s; dbg status and list_remote_processes list them", opts.via)
				}
				opts.viaSpec = &v
			}
			return runF(cmd.Context(), opts)
		},
	}
	cmd.Flags().IntVar(&opts.pid, "pid", 0, "process id to attach to")
	cmd.Flags().IntVar(&opts.port, "port", 0, "debug port to attach to (debugpy, rdbg, JDWP, Node inspector)")
	cmd.Flags().StringVar(&opts.language, "language", "", "language (default: detected from the process)")
	cmd.Flags().StringVar(&opts.via, "via", "", "reach the process on another machine: ssh://user@host, docker://NAME or k8s://NS/POD[/CONTAINER]")
	cmd.Flags().BoolVar(&opts.noPause, "no-pause", false, "leave the process running after attaching")
	addConsoleFlags(cmd, &opts.consoleOptions)
	return cmd
}

// attachArgs builds create_debug_session's arguments for an attach.
func attachArgs(ctx context.Context, opts *attachOptions) (map[string]any, error) {
	lang := opts.language
	if lang == "" {
		var err error
		if opts.viaSpec != nil {
			lang, err = opts.RemoteLanguage(ctx, *opts.viaSpec, opts.pid)
		} else {
			lang, err = opts.DetectLanguage(opts.pid)
		}
		if err != nil {
			return nil, err
		}
	}
	args := map[string]any{"language": lang, "stopOnEntry": !opts.noPause}
	if opts.viaSpec != nil {
		args["via"] = opts.viaSpec
	}
	if opts.pid != 0 {
		args["processId"] = opts.pid
	}
	if opts.port != 0 {
		args["port"] = opts.port
	}
	return args, nil
}

func attachRun(ctx context.Context, opts *attachOptions) error {
	if opts.pid == 0 && opts.port == 0 {
		if !opts.IO.IsStdinTTY() || opts.noPrompt || opts.asJSON || opts.viaSpec != nil {
			return fmt.Errorf("--pid (or --port) is required; on a terminal, dbg attach alone lists your processes")
		}
		pid, err := console.Pick(opts.IO, opts.Processes())
		if err != nil {
			return err
		}
		opts.pid = pid
	}
	if opts.pid != 0 && opts.viaSpec == nil {
		if err := checkProcess(opts.pid); err != nil {
			return err
		}
	}
	create, err := attachArgs(ctx, opts)
	if err != nil {
		return err
	}
	if opts.pid != 0 && opts.language == "" && opts.viaSpec == nil {
		if err := checkKind(opts.Registry(), opts.pid, create["language"].(string)); err != nil {
			return err
		}
	}
	if opts.noPrompt {
		return attachNoPrompt(ctx, opts, create)
	}
	if opts.IO.IsStderrTTY() && opts.pid != 0 {
		where := ""
		if opts.via != "" {
			where = " on " + opts.via
		}
		fmt.Fprintf(opts.IO.ErrOut, "attaching to %d%s (%s)…\n", opts.pid, where, create["language"])
	}
	return opts.runConsole(ctx, console.Config{IO: opts.IO, JSON: opts.asJSON, Create: create})
}

// attachNoPrompt creates the session in the daemon and prints it.
func attachNoPrompt(ctx context.Context, opts *attachOptions, create map[string]any) error {
	tc, err := opts.DaemonClient(ctx, opts.project)
	if err != nil {
		return err
	}
	defer tc.Close()
	var s struct {
		SessionID string `json:"sessionId"`
		State     string `json:"state"`
		Message   string `json:"message"`
	}
	if done, err := tc.CallPrint(ctx, opts.IO, opts.asJSON, "create_debug_session", create, &s); done {
		return err
	}
	fmt.Fprintf(opts.IO.Out, "%s\n", s.SessionID)
	fmt.Fprintf(opts.IO.ErrOut, "session %s: %s (%s); dbg close %s ends it\n", s.SessionID, s.State, s.Message, s.SessionID)
	return nil
}

// remoteLanguage tells the language of process pid on the machine via
// reaches, as list_remote_processes does.
func remoteLanguage(ctx context.Context, rc *remote.Remote, via sessions.Via, pid int) (string, error) {
	p, ok, err := rc.FindProcess(ctx, via, pid)
	switch {
	case err != nil:
		return "", err
	case !ok:
		return "", fmt.Errorf("no process %d on %s (list_remote_processes lists them)", pid, remote.String(via))
	case p.Language == "":
		return "", fmt.Errorf("cannot tell the language of process %d on %s (%s); pass --language", pid, remote.String(via), p.Command)
	}
	return p.Language, nil
}
