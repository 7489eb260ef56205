package adapters

import (
	"context"
	"net"

	"github.com/dbg-dev/dbg/dap"
)

// InProcess serves a built-in adapter's handler on one end of an in-memory
// pipe and returns the other end as the endpoint. No process is started for
// the adapter itself; whatever the handler starts (a JVM, node) it must
// stop when its connection closes. cleanup, if non-nil, runs after the
// handler has returned.
func InProcess(h dap.Handler, log *dap.TrafficLog, cleanup func()) *Endpoint {
	client, server := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = dap.Serve(ctx, server, h, log)
	}()
	return &Endpoint{
		Conn: client,
		Cleanup: func() {
			cancel()
			<-served
			if cleanup != nil {
				cleanup()
			}
		},
	}
}
