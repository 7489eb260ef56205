package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
	"github.com/dbg-dev/dbg/safefs"
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
}

func defaultFactory() *factory {
	return &factory{io: iostreams.System(), getenv: os.Getenv, now: time.Now, registry: adapters.Default}
}

// stateDir is where dbg keeps its state (process records, tokens,
// daemon records): see safefs.StateDir.
func (f *factory) stateDir() string { return safefs.StateDir(f.getenv) }

// checkStateDir refuses the state folder when another user made it or
// can change it (safefs.ErrUnsafe). The fallback folder in $TMPDIR, where
// anyone could make it first, is made now; any other is only checked
// (what needs it makes it, checked again). A folder that cannot be made
// at all is no refusal: the commands that need it say so, and debug
// sessions work without it.
func (f *factory) checkStateDir() error {
	dir := f.stateDir()
	check := safefs.Check
	if strings.HasPrefix(dir, safefs.PrivateTemp(f.getenv)+string(filepath.Separator)) {
		check = safefs.Dir
	}
	if err := check(dir); errors.Is(err, safefs.ErrUnsafe) {
		return fmt.Errorf("dbg's state folder %s is refused: %w; set DBG_STATE_DIR (or HOME or XDG_STATE_HOME) to a folder of your own", dir, err)
	}
	return nil
}
