package main

import (
	"context"
	"time"

	"github.com/dbg-dev/dbg/debugtools"
	"github.com/dbg-dev/dbg/ide"
	"github.com/dbg-dev/dbg/sessions"
)

// registerCapabilities wires the capabilities outside debug sessions (JVM,
// run configurations, Git) into the server. The returned function releases
// what they hold (agent connections, processes started for run
// configurations).
func registerCapabilities(ctx context.Context, tb *sessions.Toolbox, m *sessions.Manager, e *env) func() {
	ctx, cancel := context.WithCancel(ctx)
	svc := debugtools.NewService(debugtools.Config{AgentJar: e.getenv(debugtools.AgentJarEnv), Now: e.now})
	debugtools.RegisterWith(tb, m, svc, debugtools.Config{Now: e.now})
	x := ide.Register(tb, m, ide.Options{Context: ctx, Getenv: e.getenv})
	return func() {
		cctx, done := context.WithTimeout(context.Background(), 10*time.Second)
		defer done()
		_ = x.Close(cctx) // returns once every run configuration's process group is gone
		cancel()
		svc.Close()
	}
}
