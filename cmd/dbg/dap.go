package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/adapters/javadap"
	"github.com/dbg-dev/dbg/adapters/mockdap"
	"github.com/dbg-dev/dbg/adapters/nodedap"
	"github.com/dbg-dev/dbg/dap"
)

// builtinServers are the adapters dbg can serve standalone over stdio.
func builtinServers() map[string]func(cmd *cobra.Command, rw io.ReadWriteCloser, log *dap.TrafficLog) error {
	return map[string]func(cmd *cobra.Command, rw io.ReadWriteCloser, log *dap.TrafficLog) error{
		"mock": func(cmd *cobra.Command, rw io.ReadWriteCloser, log *dap.TrafficLog) error {
			return mockdap.Serve(cmd.Context(), rw, log)
		},
		"java": func(cmd *cobra.Command, rw io.ReadWriteCloser, log *dap.TrafficLog) error {
			return javadap.Serve(cmd.Context(), rw, log)
		},
		"node": func(cmd *cobra.Command, rw io.ReadWriteCloser, log *dap.TrafficLog) error {
			return nodedap.Serve(cmd.Context(), rw, log)
		},
	}
}

func newDAPCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "dap NAME",
		Short: "Serve a built-in debug adapter over stdio (mock, java, node)",
		Long:  "Run one of dbg's built-in debug adapters as a plain DAP server on stdin/stdout, for any DAP client (VS Code, nvim-dap).",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			serve, ok := builtinServers()[args[0]]
			if !ok {
				return fmt.Errorf("no built-in adapter %q (have: mock, java, node)", args[0])
			}
			log, err := dap.OpenTrafficLog(e.getenv("DBG_DAP_LOG"), "dap-"+args[0])
			if err != nil {
				return err
			}
			defer log.Close()
			return serve(cmd, stdio{in: os.Stdin, out: os.Stdout}, log)
		},
	}
}

// stdio joins stdin and stdout into one stream.
type stdio struct {
	in  io.ReadCloser
	out io.WriteCloser
}

func (s stdio) Read(b []byte) (int, error)  { return s.in.Read(b) }
func (s stdio) Write(b []byte) (int, error) { return s.out.Write(b) }
func (s stdio) Close() error {
	_ = s.in.Close()
	return s.out.Close()
}
