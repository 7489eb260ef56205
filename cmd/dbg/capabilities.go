package main

import (
	"context"
	"time"

	"github.com/dbg-dev/dbg/debugtools"
	"github.com/dbg-dev/dbg/ide"
	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/sessions/toolkit"
)

// registerCapabilities wires the capabilities outside debug sessions (JVM,
// run configurations, Git) into the server: the run configurations start
// the JVMs of run_and_invoke. The returned function releases what they
// hold (agent connections, processes started for run configurations).
func registerCapabilities(ctx context.Context, tb *toolkit.Toolbox, m *sessions.Manager, e *env) func() {
	ctx, cancel := context.WithCancel(ctx)
	x := ide.New(m, ide.Options{Context: ctx, Getenv: e.getenv})
	svc := debugtools.NewService(debugtools.Config{AgentJar: e.getenv(debugtools.AgentJarEnv), Now: e.now})
	debugtools.RegisterWith(tb, m, svc, debugtools.Config{Now: e.now, Starter: x})
	x.Install(tb)
	return func() {
		cctx, done := context.WithTimeout(context.Background(), 10*time.Second)
		defer done()
		_ = x.Close(cctx) // returns once every run configuration's process group is gone
		cancel()
		svc.Close()
	}
}
