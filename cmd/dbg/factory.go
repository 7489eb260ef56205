package main

import (
	"os"
	"path/filepath"
	"time"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

// factory is what commands need from the outside world, injected so
// tests can replace it. Each command copies what it uses into its
// options.
type factory struct {
	io       *iostreams.IOStreams
	getenv   func(string) string
	now      func() time.Time
	registry func() *adapters.Registry
	// noSideEffects: the server's evaluations refuse side effects by
	// default (--no-side-effects).
	noSideEffects bool
}

func defaultFactory() *factory {
	return &factory{io: iostreams.System(), getenv: os.Getenv, now: time.Now, registry: adapters.Default}
}

// stateDir is where dbg keeps its state (process records, tokens,
// daemon records).
func (f *factory) stateDir() string {
	if d := f.getenv("DBG_STATE_DIR"); d != "" {
		return d
	}
	if d := f.getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "dbg")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".local", "state", "dbg")
	}
	return filepath.Join(os.TempDir(), "dbg-state")
}
