package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/cmd/internal/console"
	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
	"github.com/dbg-dev/dbg/cmd/internal/toolclient"
)

type testOptions struct {
	IO         *iostreams.IOStreams
	ToolClient func(ctx context.Context, project string) (*toolclient.Client, error)

	test      string
	pkg       string
	framework string
	language  string
	project   string
	stopAt    string
	breaks    []string
	env       []string
	timeoutMs int
	asJSON    bool
}

// newCmdTest debugs one test at the prompt: it runs the test through the
// project's runner and stops at its first failure in the user's code.
func newCmdTest(f *factory, runF func(context.Context, *testOptions) error) *cobra.Command {
	if runF == nil {
		runF = testRun
	}
	opts := &testOptions{IO: f.io, ToolClient: f.toolClient}
	cmd := &cobra.Command{
		Use:   "test ID",
		Short: "Run one test under the debugger, stop at its first failure and debug it at a prompt",
		Long: "Run one test through the project's runner (pytest, go test) under the debugger and stop at its first\n" +
			"failure in your code. IDs: pytest node ids (tests/test_cart.py::test_total), Go test names with --package.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.test = args[0]
			return runF(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.pkg, "package", "", "Go: the test's package (./cart)")
	cmd.Flags().StringVar(&opts.framework, "framework", "", "test framework (default: detected)")
	cmd.Flags().StringVar(&opts.language, "language", "", "language (default: detected)")
	addProjectFlag(cmd, &opts.project)
	cmd.Flags().StringVar(&opts.stopAt, "stop-at", "", "failure (default) or start")
	cmd.Flags().StringArrayVar(&opts.breaks, "break", nil, "breakpoint FILE:LINE set before the test runs (repeatable)")
	cmd.Flags().StringArrayVar(&opts.env, "env", nil, "environment variable NAME=VALUE of the run (repeatable)")
	cmd.Flags().IntVar(&opts.timeoutMs, "timeout-ms", 0, "how long to wait for the failure or the end")
	cmd.Flags().BoolVar(&opts.asJSON, "json", false, "read commands from stdin and print JSON answers")
	return cmd
}

// testArgs are debug_test's arguments.
func (opts *testOptions) testArgs() (map[string]any, error) {
	args := map[string]any{"test": opts.test}
	for k, v := range map[string]string{"package": opts.pkg, "framework": opts.framework, "language": opts.language,
		"projectPath": opts.project, "stopAt": opts.stopAt} {
		if v != "" {
			args[k] = v
		}
	}
	if opts.timeoutMs > 0 {
		args["timeoutMs"] = opts.timeoutMs
	}
	var bps []map[string]any
	for _, b := range opts.breaks {
		i := strings.LastIndexByte(b, ':')
		var line int
		if i <= 0 {
			return nil, fmt.Errorf("--break %q: want FILE:LINE", b)
		}
		if _, err := fmt.Sscanf(b[i+1:], "%d", &line); err != nil || line <= 0 {
			return nil, fmt.Errorf("--break %q: want FILE:LINE", b)
		}
		bps = append(bps, map[string]any{"file": b[:i], "line": line})
	}
	if len(bps) > 0 {
		args["breakpoints"] = bps
	}
	env := map[string]string{}
	for _, e := range opts.env {
		k, v, ok := strings.Cut(e, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("--env %q: want NAME=VALUE", e)
		}
		env[k] = v
	}
	if len(env) > 0 {
		args["env"] = env
	}
	return args, nil
}

func testRun(ctx context.Context, opts *testOptions) error {
	args, err := opts.testArgs()
	if err != nil {
		return err
	}
	return withClient(ctx, opts.ToolClient, opts.project, func(tc *toolclient.Client) error {
		return console.Run(ctx, console.Config{IO: opts.IO, Tools: tc, JSON: opts.asJSON, Test: args})
	})
}
