package main

import (
	"github.com/dbg-dev/dbg/sessions"
)

// registerCapabilities wires the capabilities outside debug sessions
// (JVM, run configurations, Git) into the server.
func registerCapabilities(tb *sessions.Toolbox, m *sessions.Manager, e *env) {}
