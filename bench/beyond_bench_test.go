package bench

// Beyond one process and one machine, one run each:
//
//	go test -run XXX -bench 'ChildStop|CoreFirstStack|RemoteFirstStop' -benchtime 1x ./bench/
//
// BenchmarkChildStop: per language, create → breakpoint in the child's
// code → start_debugging of the parent → the child's stop (wait_for_stop
// on the parent), against the same child program launched alone to the
// same breakpoint: child-ms, plain-ms and their difference.
//
// BenchmarkCoreFirstStack: per language, create_debug_session {coreFile,
// program} on a core the crash fixture dumped here, to the answer of
// get_stack_trace: first-stack-ms.
//
// BenchmarkRemoteFirstStop: per language, a program running on an ssh
// host in a network namespace of the benchmark's own (remote/remotetest),
// attached by pid through via ssh and, alternately, by pid from here
// (the same process), each from create to the stop at a breakpoint set
// after the attach: remote-ms (the first attach to the host, which
// checks the target), remote-again-ms (a later one), local-ms.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/remote/remotetest"
)

// buildBench runs argv in dir (a build) and returns out.
func buildBench(b *testing.B, dir, out string, argv ...string) string {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	if o, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%s: %v\n%s", strings.Join(argv, " "), err, o)
	}
	return out
}

// stopAfterStart starts script with args in session id and waits on it
// for the first stop: its own, or a child's, which the wait names.
func stopAfterStart(c *mcpClient, id, script string, args []string) map[string]any {
	st := c.call("start_debugging", map[string]any{"sessionId": id, "scriptPath": script, "args": args})
	if st["state"] == "paused" && !strings.Contains(fmt.Sprint(st["message"]), "in child session") {
		return st
	}
	return c.call("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 60000})
}

func BenchmarkChildStop(b *testing.B) {
	root := nativeRoot(b)
	dir := b.TempDir()
	cases := []struct {
		lang, tool, parent, child, file string
		parentArgs, childArgs           []string
		build                           func() (string, string)
	}{
		{lang: "python", tool: "python3", parent: "testdata/python/children/subproc.py", child: "testdata/python/children/child.py",
			file: "testdata/python/children/child.py", childArgs: []string{"7"}},
		{lang: "go", tool: "dlv", file: "testdata/go/children/child/main.go", childArgs: []string{"7"},
			build: func() (string, string) {
				src := filepath.Join(root, "testdata/go/children")
				child := buildBench(b, src, filepath.Join(dir, "go-child"), "go", "build", "-gcflags=all=-N -l", "-o", filepath.Join(dir, "go-child"), "./child")
				parent := buildBench(b, src, filepath.Join(dir, "go-parent"), "go", "build", "-gcflags=all=-N -l", "-o", filepath.Join(dir, "go-parent"), "./parent")
				return parent, child
			}},
		{lang: "javascript", tool: "node", parent: "testdata/javascript/children/parent.js", child: "testdata/javascript/children/child.js",
			file: "testdata/javascript/children/child.js", parentArgs: []string{"fork"}, childArgs: []string{"fork"}},
	}
	for _, tc := range cases {
		b.Run(tc.lang, func(b *testing.B) {
			if _, err := exec.LookPath(tc.tool); err != nil {
				b.Skipf("%s not installed", tc.tool)
			}
			parent, child := filepath.Join(root, tc.parent), filepath.Join(root, tc.child)
			parentArgs := tc.parentArgs
			if tc.build != nil {
				parent, child = tc.build()
				parentArgs = []string{child}
			}
			file := filepath.Join(root, tc.file)
			line := nativeLine(b, file, "BP:child")
			c := startMCP(b)
			defer c.cs.Close()
			run := func(script string, args []string, inChild bool) time.Duration {
				start := time.Now()
				id := c.call("create_debug_session", map[string]any{"language": tc.lang})["sessionId"].(string)
				c.call("set_breakpoint", map[string]any{"sessionId": id, "file": file, "line": line})
				st := stopAfterStart(c, id, script, args)
				d := time.Since(start)
				if st["state"] != "paused" || (st["sessionId"] != id) != inChild {
					b.Fatalf("%s: no stop where expected: %v", script, st)
				}
				c.call("close_debug_session", map[string]any{"sessionId": id})
				return d
			}
			run(child, tc.childArgs, false) // the language's first use
			var plain, viaChild []time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				plain = append(plain, run(child, tc.childArgs, false))
				viaChild = append(viaChild, run(parent, parentArgs, true))
			}
			b.StopTimer()
			p, ch := median(plain), median(viaChild)
			b.ReportMetric(ch, "child-ms")
			b.ReportMetric(p, "plain-ms")
			b.ReportMetric(ch-p, "child-cost-ms")
		})
	}
}

// benchCore runs bin with env to its crash in a folder of its own, the
// core size limit lifted, and returns the core it left (gdb writes one
// where the kernel writes none there).
func benchCore(b *testing.B, bin string, env []string) string {
	dir := b.TempDir()
	cmd := exec.Command("sh", "-c", `ulimit -c unlimited && exec "$0"`, bin)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
	var ee *exec.ExitError
	if out, err := cmd.CombinedOutput(); !errors.As(err, &ee) {
		b.Fatalf("%s did not crash: %v %s", bin, err, out)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "core*")); len(m) == 1 {
		return m[0]
	}
	core := filepath.Join(dir, "core")
	g := exec.Command("gdb", "-batch", "-nx", "-ex", "run", "-ex", "generate-core-file "+core, "-ex", "kill", "--args", bin)
	g.Dir, g.Env = dir, cmd.Env
	if out, err := g.CombinedOutput(); err != nil {
		b.Fatalf("no core of %s: %v %s", bin, err, out)
	}
	return core
}

func BenchmarkCoreFirstStack(b *testing.B) {
	root := nativeRoot(b)
	dir := b.TempDir()
	td := func(p string) string { return filepath.Join(root, "testdata", p) }
	cases := []struct {
		lang, tool string
		env        []string
		build      func() string
	}{
		{lang: "go", tool: "dlv", env: []string{"GOTRACEBACK=crash"}, build: func() string {
			return buildBench(b, td("go/crash"), filepath.Join(dir, "go-crash"), "go", "build", "-gcflags=all=-N -l", "-o", filepath.Join(dir, "go-crash"), ".")
		}},
		{lang: "c", tool: "gcc", build: func() string {
			return buildBench(b, dir, filepath.Join(dir, "c-crash"), "gcc", "-g", "-O0", "-o", filepath.Join(dir, "c-crash"), td("c/crash.c"))
		}},
		{lang: "cpp", tool: "g++", build: func() string {
			return buildBench(b, dir, filepath.Join(dir, "cpp-crash"), "g++", "-g", "-O0", "-o", filepath.Join(dir, "cpp-crash"), td("cpp/uncaught.cpp"))
		}},
		{lang: "rust", tool: "rustc", build: func() string {
			return buildBench(b, dir, filepath.Join(dir, "rust-crash"), "rustc", "-g", "-C", "opt-level=0", "-C", "panic=abort", "-o", filepath.Join(dir, "rust-crash"), td("rustcore/crash.rs"))
		}},
	}
	for _, tc := range cases {
		b.Run(tc.lang, func(b *testing.B) {
			if _, err := exec.LookPath(tc.tool); err != nil {
				b.Skipf("%s not installed", tc.tool)
			}
			bin := tc.build()
			core := benchCore(b, bin, tc.env)
			c := startMCP(b)
			defer c.cs.Close()
			open := func() time.Duration {
				start := time.Now()
				s := c.call("create_debug_session", map[string]any{"language": tc.lang, "coreFile": core, "program": bin})
				st := c.call("get_stack_trace", map[string]any{"sessionId": s["sessionId"]})
				d := time.Since(start)
				if s["state"] != "postmortem" || st["stackFrames"] == nil {
					b.Fatalf("core session %v, stack %v", s, st)
				}
				c.call("close_debug_session", map[string]any{"sessionId": s["sessionId"]})
				return d
			}
			open() // the language's first use
			var ds []time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				ds = append(ds, open())
			}
			b.StopTimer()
			b.ReportMetric(median(ds), "first-stack-ms")
		})
	}
}

// remoteCase is a program put on the bench's ssh host: files copied to
// its root (relative to testdata), an optional build there, the command
// that runs it (ready when it prints "ready") and its breakpoint.
type remoteCase struct {
	lang, tool string
	files      []string
	build      []string // run in the folder of files[0] on the host
	run        []string // paths under remotetest.RemoteRoot
	src, mark  string   // the breakpoint, relative to testdata
	// hereBuild, when set, builds the copy that runs here, as hereBin
	// (under RemoteRoot, in the folder of files[0]): a native program's
	// debug information names the folder it was built in.
	hereBuild []string
	hereBin   string
	// hereMaps: the run here needs the mappings too (its debug
	// information names RemoteRoot).
	hereMaps bool
}

func BenchmarkRemoteFirstStop(b *testing.B) {
	root := nativeRoot(b)
	rr := remotetest.RemoteRoot
	cases := []remoteCase{
		{lang: "python", tool: "python3", files: []string{"python/server.py"}, run: []string{"/usr/bin/python3", rr + "/python/server.py"}, src: "python/server.py", mark: "# TICK"},
		{lang: "go", tool: "dlv", files: []string{"go/server/main.go", "go/server/go.mod"}, build: []string{"go", "build", "-gcflags=all=-N -l", "-o", "server", "."},
			run: []string{rr + "/go/server/server"}, src: "go/server/main.go", mark: "// TICK", hereMaps: true},
		{lang: "c", tool: "gcc", files: []string{"c/loop.c"}, build: []string{"gcc", "-g", "-O0", "-o", "loop", "loop.c"},
			run: []string{rr + "/c/loop", "forever"}, src: "c/loop.c", mark: "BREAK: loop body",
			hereBuild: []string{"gcc", "-g", "-O0", "-o", "loop-here", "loop.c"}, hereBin: rr + "/c/loop-here"},
	}
	for _, tc := range cases {
		b.Run(tc.lang, func(b *testing.B) {
			if _, err := exec.LookPath(tc.tool); err != nil {
				b.Skipf("%s not installed", tc.tool)
			}
			h, err := remotetest.Start(b)
			if err != nil {
				b.Skipf("no ssh host here: %v", err)
			}
			for _, f := range tc.files {
				data, err := os.ReadFile(filepath.Join(root, "testdata", f))
				if err != nil {
					b.Fatal(err)
				}
				dst := filepath.Join(h.Root, f)
				if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
					b.Fatal(err)
				}
				if err := os.WriteFile(dst, data, 0o644); err != nil {
					b.Fatal(err)
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			if tc.build != nil {
				cmd := h.Command(ctx, append([]string{"sh", "-c", `cd "$0" && exec "$@"`, rr + "/" + filepath.Dir(tc.files[0])}, tc.build...)...)
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("build on the host: %v %s", err, out)
				}
			}
			if tc.hereBuild != nil {
				cmd := exec.Command(tc.hereBuild[0], tc.hereBuild[1:]...)
				cmd.Dir = filepath.Join(h.Root, filepath.Dir(tc.files[0]))
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("build here: %v %s", err, out)
				}
			}
			// A program of its own for each attach (debugpy, once
			// injected, stays in the process): on the host, or here,
			// the same files run from the folder the host sees as
			// RemoteRoot.
			startProg := func(here bool) int {
				prog := h.Command(context.Background(), tc.run...)
				if here {
					argv := make([]string, len(tc.run))
					for i, a := range tc.run {
						argv[i] = strings.Replace(a, rr, h.Root, 1)
					}
					if tc.hereBin != "" {
						argv[0] = strings.Replace(tc.hereBin, rr, h.Root, 1)
					}
					prog = exec.Command(argv[0], argv[1:]...)
					prog.SysProcAttr = &syscall.SysProcAttr{}
				}
				prog.SysProcAttr.Setpgid = true
				ready := make(chan struct{})
				pr, pw, _ := os.Pipe()
				prog.Stdout, prog.Stderr = pw, pw
				if err := prog.Start(); err != nil {
					b.Fatal(err)
				}
				pw.Close()
				go func() {
					buf := make([]byte, 4096)
					seen := ""
					for {
						n, err := pr.Read(buf)
						if !strings.Contains(seen, "ready") {
							if seen += string(buf[:n]); strings.Contains(seen, "ready") {
								close(ready)
							}
						}
						if err != nil {
							return
						}
					}
				}()
				b.Cleanup(func() { _ = syscall.Kill(-prog.Process.Pid, syscall.SIGKILL); _ = prog.Wait() })
				select {
				case <-ready:
				case <-time.After(time.Minute):
					b.Fatal("the program never got ready on the host")
				}
				return prog.Process.Pid
			}
			c := startMCPArgs(b, []string{"--project", h.Root}, "DBG_SSH_CONFIG="+h.SSHConfig)
			local := filepath.Join(h.Root, tc.src)
			line := nativeLine(b, local, tc.mark)
			maps := []map[string]any{{"remoteRoot": rr, "localRoot": h.Root}}
			via := map[string]any{"kind": "ssh", "host": h.Addr, "user": h.User, "identityFile": h.Identity}
			attach := func(args map[string]any) (time.Duration, string) {
				start := time.Now()
				args["processId"] = startProg(args["via"] == nil)
				s := c.call("create_debug_session", args)
				id := s["sessionId"].(string)
				if s["state"] != "paused" {
					if w := c.call("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 30000}); w["state"] != "paused" {
						b.Fatalf("the attach did not pause: %v", w)
					}
				}
				c.call("set_breakpoint", map[string]any{"sessionId": id, "file": local, "line": line})
				st := c.call("continue_execution", map[string]any{"sessionId": id, "waitMs": 30000})
				if st["state"] != "paused" {
					st = c.call("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 30000})
				}
				d := time.Since(start)
				if st["state"] != "paused" {
					b.Fatalf("no stop at the breakpoint: %v", st)
				}
				server, _ := s["remote"].(map[string]any)
				c.call("clear_breakpoints", map[string]any{"sessionId": id})
				c.call("detach_from_process", map[string]any{"sessionId": id})
				c.call("close_debug_session", map[string]any{"sessionId": id})
				if server != nil {
					cmd, _ := server["server"].(string)
					return d, cmd
				}
				return d, ""
			}
			remoteArgs := map[string]any{"language": tc.lang, "via": via, "pathMappings": maps}
			localArgs := map[string]any{"language": tc.lang}
			if tc.hereMaps {
				localArgs["pathMappings"] = maps
			}
			first, cmd := attach(remoteArgs)
			b.Logf("%s on the target: %s", tc.lang, cmd)
			attach(localArgs) // the local adapter's first use
			var again, loc []time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				d, _ := attach(remoteArgs)
				again = append(again, d)
				d, _ = attach(localArgs)
				loc = append(loc, d)
			}
			b.StopTimer()
			b.ReportMetric(ms(first), "remote-first-ms")
			b.ReportMetric(median(again), "remote-again-ms")
			b.ReportMetric(median(loc), "local-ms")
			b.ReportMetric(median(again)/median(loc), "remote/local")
		})
	}
}

// startMCPArgs is a dbg mcp server with args and env.
func startMCPArgs(b *testing.B, args []string, env ...string) *mcpClient {
	cmd := exec.Command(dbgBinary(b), append([]string{"mcp"}, args...)...)
	cmd.Env = append(append(os.Environ(), "DBG_STATE_DIR="+b.TempDir()), env...)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cs.Close() })
	return &mcpClient{b: b, cs: cs, cmd: cmd}
}
