package main

import (
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/sessions"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

// env is what commands need from the outside world, injected so tests can
// replace it.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	now            func() time.Time
	registry       func() *adapters.Registry
}

func defaultEnv() *env {
	return &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv, now: time.Now, registry: adapters.Default}
}

// stateDir is where dbg keeps its state (process records, tokens).
func (e *env) stateDir() string {
	if d := e.getenv("DBG_STATE_DIR"); d != "" {
		return d
	}
	if d := e.getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "dbg")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".local", "state", "dbg")
	}
	return filepath.Join(os.TempDir(), "dbg-state")
}

// newManager builds the session manager and reaps what a crashed server
// left behind.
func (e *env) newManager(project string) *sessions.Manager {
	m := sessions.NewManager(sessions.Config{
		Adapters:  e.registry(),
		Project:   project,
		DAPLogDir: e.getenv("DBG_DAP_LOG"),
		StateDir:  e.stateDir(),
		Now:       e.now,
	})
	m.Reap()
	return m
}
