package bench

// The adapter's start, the second term of the debug_test benchmark's
// denominator: how long a plain DAP client takes to have the adapter dbg
// runs for a language ready to debug a program.
//
// Measured: from starting the adapter (the same one dbg starts, through
// the same adapters.Adapter: debugpy's adapter, `dlv dap`, lldb-vscode,
// dbg's built-in Node and Java adapters) through the initialize answer
// and the launch of a trivial program of the language, to the adapter's
// `initialized` event: the point at which it takes breakpoints and the
// program waits for configurationDone to run. The launch arguments are
// made, and the program built, before the clock starts; a plain client
// knows what it launches. The launched program's own start (an empty
// interpreter, a JVM or node paused before its first line) counts: for
// debugpy, Node and Java the adapter is not ready before it.

import (
	"context"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/dap"
)

// adapterStarter times one start of a language's adapter.
type adapterStarter struct {
	a      adapters.Adapter
	target adapters.Target
	args   map[string]any
}

// newAdapterStarter prepares the start of lang's adapter on a trivial
// program (built here, outside the timing). ok is false for a language
// the benchmark has no program for.
func newAdapterStarter(b *testing.B, lang string) (*adapterStarter, bool) {
	root := nativeRoot(b)
	tmp := b.TempDir()
	build := func(dir string, argv ...string) {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Dir = filepath.Join(root, dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v: %v\n%s", argv, err, out)
		}
	}
	t := adapters.Target{Mode: adapters.Launch, Cwd: tmp}
	switch lang {
	case "python":
		t.Program = filepath.Join(root, "testdata/python/loop.py")
	case "javascript":
		t.Program = filepath.Join(root, "testdata/javascript/loop.js")
	case "go":
		t.Program = filepath.Join(tmp, "loop")
		build("testdata/go/loop", "go", "build", "-gcflags=all=-N -l", "-o", t.Program, ".")
	case "rust":
		t.Program = filepath.Join(tmp, "loop")
		build("testdata/rust", "rustc", "-g", "-o", t.Program, "src/main.rs")
	case "java":
		build("testdata/java", "javac", "-g", "-d", tmp, "Loop.java")
		t.Program, t.Extra = "Loop", map[string]any{"classpath": tmp}
	default:
		return nil, false
	}
	a, ok := adapters.Default().Lookup(lang)
	if !ok {
		b.Fatalf("no %s adapter", lang)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	args, err := a.LaunchArgs(ctx, t)
	if err != nil {
		b.Fatalf("%s launch arguments: %v", lang, err)
	}
	return &adapterStarter{a: a, target: t, args: args}, true
}

// run starts the adapter, launches the program, and returns the time to
// the adapter's `initialized`; it then stops both, off the clock.
func (s *adapterStarter) run(b *testing.B) time.Duration {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	t0 := time.Now()
	ep, err := s.a.Start(ctx, s.target)
	if err != nil {
		b.Fatalf("start the %s adapter: %v", s.a.Language(), err)
	}
	inited := make(chan struct{})
	var once sync.Once
	conn := dap.NewConn(ep.Conn, dap.Options{OnEvent: func(m *dap.Message) {
		if m.Event == "initialized" {
			once.Do(func() { close(inited) })
		}
	}})
	defer func() {
		_, _ = conn.Request(ctx, "disconnect", map[string]any{"terminateDebuggee": true})
		_ = conn.Close()
		ep.Close(ctx)
	}()
	if _, err := conn.Request(ctx, "initialize", map[string]any{"clientID": "dbg", "adapterID": s.a.Language(),
		"linesStartAt1": true, "columnsStartAt1": true, "pathFormat": "path"}); err != nil {
		b.Fatalf("%s initialize: %v", s.a.Language(), err)
	}
	call, err := conn.Start(ctx, "launch", s.args)
	if err != nil {
		b.Fatalf("%s launch: %v", s.a.Language(), err)
	}
	select {
	case <-inited:
	case <-call.Done():
		// An adapter may answer the launch first; a failure ends here.
		if _, err := call.Wait(ctx, 0); err != nil {
			b.Fatalf("%s launch: %v", s.a.Language(), err)
		}
		select {
		case <-inited:
		case <-ctx.Done():
			b.Fatalf("%s: no initialized event", s.a.Language())
		}
	case <-ctx.Done():
		b.Fatalf("%s: no initialized event", s.a.Language())
	}
	return time.Since(t0)
}
