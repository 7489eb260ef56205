package main

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

// Eight clients over Streamable HTTP on one server, each with a Python,
// a Go, a JavaScript and a mock session, loop for a minute
// (DBG_LOAD_DURATION sets another length): no call fails, no client
// sees another's session unless it names it, another's session works by
// id and is audited, and the server holds as many goroutines and file
// descriptors at the end as at the start. Timings are the benchmark's
// (go run ./bench/load), not this test's.
func TestLoadManyClients(t *testing.T) {
	d := time.Minute
	if s := os.Getenv("DBG_LOAD_DURATION"); s != "" {
		var err error
		if d, err = time.ParseDuration(s); err != nil {
			t.Fatalf("DBG_LOAD_DURATION=%q: %v", s, err)
		}
	}
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), d+10*time.Minute)
	defer cancel()
	rep, err := Run(ctx, Config{Clients: 8, Langs: []string{"python", "go", "javascript", "mock"}, Duration: d, Steps: 5, Root: root, Idle: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + rep.Markdown())
	if rep.Loaded.passes.Load() < rep.Sessions {
		t.Errorf("%d passes for %d sessions: some session never looped", rep.Loaded.passes.Load(), rep.Sessions)
	}
	if f := rep.Failed(); len(f) > 0 {
		t.Fatalf("missed: %s", strings.Join(f, "; "))
	}
}
