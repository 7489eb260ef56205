package bench

// Benchmarks of the native-language adapters (c, cpp, rust, ruby,
// cobol): first stop at a breakpoint, a step, and an evaluate, each
// through dbg's Adapter (discovery, build cache, proxies) and against the
// raw adapter driven by a plain dap.Conn with the same arguments.
//
//	go test -run XXX -bench Native -benchtime 5x ./bench/

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/adapters/cobol"
	"github.com/dbg-dev/dbg/dap"
)

// nativeCase is one language's fixture and how to reach its raw adapter.
type nativeCase struct {
	lang    string
	adapter adapters.Adapter
	program string // Target.Program
	src     string // breakpoint file
	marker  string // text of the breakpoint line
	evalA   string // expression evaluated through the adapter
	// raw starts the raw adapter and returns its stream, the launch
	// arguments and the raw evaluate expression.
	raw func(b *testing.B, adapterArgs map[string]any) (io.ReadWriteCloser, map[string]any, string, func())
}

func nativeRoot(b *testing.B) string {
	_, file, _, _ := runtime.Caller(0)
	root, err := filepath.Abs(filepath.Join(filepath.Dir(file), ".."))
	if err != nil {
		b.Fatal(err)
	}
	return root
}

// nativeRawLLDB starts the lldb adapter at path directly.
func nativeRawLLDB(b *testing.B, path string) io.ReadWriteCloser {
	p, err := dap.StartProcess(exec.Command(path), dap.ProcessOptions{Stdio: true})
	if err != nil {
		b.Fatal(err)
	}
	return p
}

func nativeCases(b *testing.B) []nativeCase {
	root := nativeRoot(b)
	// Discovery runs once, outside the timed raw sessions.
	lldbPath := adapters.NewC().Find(context.Background()).Path
	rdbgPath := adapters.NewRuby().Find(context.Background()).Path
	lldbRaw := func(b *testing.B, args map[string]any) (io.ReadWriteCloser, map[string]any, string, func()) {
		rw := nativeRawLLDB(b, lldbPath)
		return rw, args, "total", func() { _ = rw.Close() }
	}
	cobSrc := filepath.Join(root, "testdata/cobol/spin.cob")
	rubySrc := filepath.Join(root, "testdata/ruby/loop.rb")
	return []nativeCase{
		{lang: "c", adapter: adapters.NewC(), program: filepath.Join(root, "testdata/c/loop.c"), src: filepath.Join(root, "testdata/c/loop.c"), marker: "BREAK", evalA: "total", raw: lldbRaw},
		{lang: "cpp", adapter: adapters.NewCPP(), program: filepath.Join(root, "testdata/cpp/loop.cpp"), src: filepath.Join(root, "testdata/cpp/loop.cpp"), marker: "BREAK", evalA: "total", raw: lldbRaw},
		{lang: "rust", adapter: adapters.NewRust(), program: filepath.Join(root, "testdata/rust"), src: filepath.Join(root, "testdata/rust/src/main.rs"), marker: "BREAK", evalA: "total", raw: lldbRaw},
		{lang: "cobol", adapter: adapters.NewCOBOL(), program: cobSrc, src: cobSrc, marker: "ADD 1 TO WS-TICK", evalA: "WS-TICK",
			raw: func(b *testing.B, args map[string]any) (io.ReadWriteCloser, map[string]any, string, func()) {
				prog, err := cobol.Build(context.Background(), cobSrc)
				if err != nil {
					b.Fatal(err)
				}
				st, _ := cobol.Lookup(prog.Fields, "WS-TICK")
				rw := nativeRawLLDB(b, lldbPath)
				return rw, args, fmt.Sprintf("`memory read --size 1 --format x --count %d --force &%s[0]", st.Size, st.Storage), func() { _ = rw.Close() }
			}},
		{lang: "ruby", adapter: adapters.NewRuby(), program: rubySrc, src: rubySrc, marker: "BREAK", evalA: "total",
			raw: func(b *testing.B, args map[string]any) (io.ReadWriteCloser, map[string]any, string, func()) {
				ln, err := net.Listen("tcp", "127.0.0.1:0")
				if err != nil {
					b.Fatal(err)
				}
				port := ln.Addr().(*net.TCPAddr).Port
				ln.Close()
				// rdbg is ready for a client when it says it waits for one.
				ready := make(chan struct{})
				var once sync.Once
				p, err := dap.StartProcess(exec.Command(rdbgPath, "--open", "--host", "127.0.0.1", "--port", strconv.Itoa(port), "--", rubySrc, "forever"),
					dap.ProcessOptions{OnLine: func(_, line string) {
						if strings.Contains(line, "wait for debugger connection") {
							once.Do(func() { close(ready) })
						}
					}})
				if err != nil {
					b.Fatal(err)
				}
				ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
				defer cancel()
				select {
				case <-ready:
				case <-ctx.Done():
					p.Kill()
					b.Fatal("rdbg never got ready")
				}
				conn, err := dap.Dial(ctx, net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
				if err != nil {
					p.Kill()
					b.Fatal(err)
				}
				return conn, args, "total", func() { _ = conn.Close(); p.Kill() }
			}},
	}
}

// nativeSession is a client on one adapter stream.
type nativeSession struct {
	conn    *dap.Conn
	mu      sync.Mutex
	stopped chan int // thread ids of stopped events
	inited  chan struct{}
	once    sync.Once
}

func nativeOpen(rw io.ReadWriteCloser) *nativeSession {
	s := &nativeSession{stopped: make(chan int, 64), inited: make(chan struct{})}
	s.conn = dap.NewConn(rw, dap.Options{Timeout: 30 * time.Second, OnEvent: func(m *dap.Message) {
		switch m.Event {
		case "initialized":
			s.once.Do(func() { close(s.inited) })
		case "stopped":
			var body struct {
				ThreadID int `json:"threadId"`
			}
			_ = m.DecodeBody(&body)
			select {
			case s.stopped <- body.ThreadID:
			default:
			}
		}
	}})
	return s
}

func (s *nativeSession) req(b *testing.B, cmd string, args any) *dap.Message {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	m, err := s.conn.Request(ctx, cmd, args)
	if err != nil {
		b.Fatalf("%s: %v", cmd, err)
	}
	return m
}

func (s *nativeSession) waitStop(b *testing.B) int {
	select {
	case tid := <-s.stopped:
		return tid
	case <-time.After(30 * time.Second):
		b.Fatal("no stopped event")
	}
	return 0
}

// run goes from initialize to the first stop at line and returns the
// stopped thread and its top frame.
func (s *nativeSession) run(b *testing.B, args map[string]any, src string, line int) (int, int) {
	s.req(b, "initialize", map[string]any{"clientID": "dbg", "adapterID": "bench", "linesStartAt1": true, "columnsStartAt1": true, "pathFormat": "path"})
	call, err := s.conn.Start(context.Background(), "launch", args)
	if err != nil {
		b.Fatal(err)
	}
	select {
	case <-s.inited:
	case <-time.After(30 * time.Second):
		b.Fatal("no initialized event")
	}
	s.req(b, "setBreakpoints", map[string]any{"source": map[string]any{"path": src}, "breakpoints": []any{map[string]any{"line": line}}})
	s.req(b, "configurationDone", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := call.Wait(ctx, 30*time.Second); err != nil {
		b.Fatal(err)
	}
	tid := s.waitStop(b)
	resp := s.req(b, "stackTrace", map[string]any{"threadId": tid, "levels": 1})
	var body struct {
		StackFrames []struct {
			ID int `json:"id"`
		} `json:"stackFrames"`
	}
	_ = resp.DecodeBody(&body)
	if len(body.StackFrames) == 0 {
		b.Fatal("no frames")
	}
	return tid, body.StackFrames[0].ID
}

func nativeLine(b *testing.B, path, marker string) int {
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	for i, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, marker) {
			return i + 1
		}
	}
	b.Fatalf("%s: no %q", path, marker)
	return 0
}

// BenchmarkNative measures, per language, first stop / step / evaluate
// through the Adapter and against the raw adapter.
func BenchmarkNative(b *testing.B) {
	for _, nc := range nativeCases(b) {
		nc := nc
		if !nc.adapter.Find(context.Background()).Found {
			b.Logf("%s: adapter not installed, skipped", nc.lang)
			continue
		}
		line := nativeLine(b, nc.src, nc.marker)
		target := adapters.Target{Mode: adapters.Launch, Program: nc.program, Args: []string{"forever"}}
		args, err := nc.adapter.LaunchArgs(context.Background(), target) // warms the build cache
		if err != nil {
			b.Fatalf("%s: %v", nc.lang, err)
		}
		adapterOpen := func(b *testing.B) (*nativeSession, map[string]any, string, func()) {
			ctx := context.Background()
			ep, err := nc.adapter.Start(ctx, target)
			if err != nil {
				b.Fatal(err)
			}
			a, err := nc.adapter.LaunchArgs(ctx, target)
			if err != nil {
				b.Fatal(err)
			}
			s := nativeOpen(ep.Conn)
			return s, a, nc.evalA, func() { _ = s.conn.Close(); ep.Close(ctx) }
		}
		rawOpen := func(b *testing.B) (*nativeSession, map[string]any, string, func()) {
			rw, a, expr, stop := nc.raw(b, args)
			s := nativeOpen(rw)
			return s, a, expr, func() { _ = s.conn.Close(); stop() }
		}
		for _, via := range []struct {
			name string
			open func(*testing.B) (*nativeSession, map[string]any, string, func())
		}{{"adapter", adapterOpen}, {"raw", rawOpen}} {
			b.Run(nc.lang+"/first_stop/"+via.name, func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					s, a, _, stop := via.open(b)
					s.run(b, a, nc.src, line)
					b.StopTimer()
					stop()
					b.StartTimer()
				}
			})
			b.Run(nc.lang+"/step/"+via.name, func(b *testing.B) {
				s, a, _, stop := via.open(b)
				defer stop()
				tid, _ := s.run(b, a, nc.src, line)
				s.req(b, "setBreakpoints", map[string]any{"source": map[string]any{"path": nc.src}, "breakpoints": []any{}})
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					s.req(b, "next", map[string]any{"threadId": tid})
					s.waitStop(b)
				}
			})
			b.Run(nc.lang+"/evaluate/"+via.name, func(b *testing.B) {
				s, a, expr, stop := via.open(b)
				defer stop()
				_, frame := s.run(b, a, nc.src, line)
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					s.req(b, "evaluate", map[string]any{"expression": expr, "frameId": frame, "context": "repl"})
				}
			})
		}
	}
}
