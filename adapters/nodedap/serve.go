package nodedap

import (
	"context"
	"io"

	"github.com/dbg-dev/dbg/dap"
)

// Serve runs the built-in Node adapter for one client over rw (stdio for
// `dbg dap node`) until the client disconnects or ctx ends. A launched
// program is killed with its process group before Serve returns; an
// attached one is left running.
func Serve(ctx context.Context, rw io.ReadWriteCloser, log *dap.TrafficLog) error {
	h := NewHandler()
	defer h.Close()
	return dap.Serve(ctx, rw, h, log)
}
