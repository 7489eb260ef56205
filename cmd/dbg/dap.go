package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
	"github.com/dbg-dev/dbg/dap"
)

type dapOptions struct {
	IO     *iostreams.IOStreams
	Getenv func(string) string

	name    string
	builtin *adapters.Builtin
}

func newCmdDAP(f *factory, runF func(context.Context, *dapOptions) error) *cobra.Command {
	if runF == nil {
		runF = dapRun
	}
	opts := &dapOptions{IO: f.io, Getenv: f.getenv}
	reg := f.registry()
	names := strings.Join(reg.Builtins(), ", ")
	return &cobra.Command{
		Use:   "dap NAME",
		Short: "Serve a built-in debug adapter over stdio (" + names + ")",
		Long:  "Run one of dbg's built-in debug adapters as a plain DAP server on stdin/stdout, for any DAP client (VS Code, nvim-dap).",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.name = args[0]
			b, ok := reg.Builtin(opts.name)
			if !ok {
				return fmt.Errorf("no built-in adapter %q (have: %s)", opts.name, names)
			}
			opts.builtin = b
			return runF(cmd.Context(), opts)
		},
	}
}

func dapRun(ctx context.Context, opts *dapOptions) error {
	log, err := dap.OpenTrafficLog(opts.Getenv("DBG_DAP_LOG"), "dap-"+opts.name, dapLogRedact(false))
	if err != nil {
		return err
	}
	defer log.Close()
	return opts.builtin.Serve(ctx, stdio{in: opts.IO.In, out: opts.IO.Out}, log)
}

// stdio joins stdin and stdout into one stream; Close closes both when
// they can be closed.
type stdio struct {
	in  io.Reader
	out io.Writer
}

func (s stdio) Read(b []byte) (int, error)  { return s.in.Read(b) }
func (s stdio) Write(b []byte) (int, error) { return s.out.Write(b) }
func (s stdio) Close() error {
	if c, ok := s.in.(io.Closer); ok {
		_ = c.Close()
	}
	if c, ok := s.out.(io.Closer); ok {
		return c.Close()
	}
	return nil
}
