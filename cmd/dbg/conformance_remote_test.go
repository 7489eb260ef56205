package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/remote/remotetest"
)

// The remote scenario: a language's program runs on another machine, an
// OpenSSH server in a network namespace of the test's own (remotetest),
// where the program's folder is /srv/app, a path this machine does not
// have; the local checkout holds the same files elsewhere. dbg attaches
// through via ssh: it starts the language's debug server there on the
// namespace's own loopback, tunnels to it over one ssh connection and
// proposes the path mappings; a breakpoint set on the local file binds,
// the stop and the stack show local paths, locals read and a step
// steps; the detach leaves the program running and nothing of dbg's on
// either machine.

// remoteWay is how a language's program is put on the test's ssh host
// and started there: setup copies (or builds there) its files into the
// host's root and the local checkout, and starts it.
type remoteWay struct {
	setup func(t *testing.T, h *remotetest.Host, local string) remoteTarget
	// given: also attach with pathMappings given, not proposed.
	given bool
}

// remoteTarget is a program running on the test's ssh host.
type remoteTarget struct {
	cmd     *exec.Cmd
	out     *lineBuffer
	marker  string // printed over and over while it runs
	src     string // the local file breakpoints go in
	mark    string // the text of the line they go on
	loopVar string // a local of that line
	// mapped: the stop's file is src, found through a path mapping
	// (false: the program's files have their local paths).
	mapped bool
}

// remoteRoot is where the host's root is seen from the namespace.
const remoteRoot = remotetest.RemoteRoot

// remoteHost starts the test's ssh host, or, where the machine cannot
// make namespaces, checks that dbg refuses an unreachable via cleanly
// and ends the test.
func remoteHost(t *testing.T, c *client, lang string) *remotetest.Host {
	t.Helper()
	h, err := remotetest.Start(t)
	if errors.Is(err, remotetest.ErrNoNamespaces) {
		r := c.fail("create_debug_session", map[string]any{"language": lang, "processId": 1,
			"via": map[string]any{"kind": "ssh", "host": "192.0.2.1", "timeoutMs": 2000}}, "")
		if r.Error == nil || r.Error.Hint == "" || !strings.Contains(r.Error.Message, "ssh") {
			t.Fatalf("an unreachable ssh host: %+v", r.Error)
		}
		t.Skipf("this machine cannot make a network namespace (%v): the refusal was checked", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// copyInto copies testdata files (paths relative to testdata) to the
// same relative paths under each root.
func copyInto(t *testing.T, rels []string, roots ...string) {
	t.Helper()
	for _, rel := range rels {
		err := filepath.WalkDir(td(rel), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			sub, _ := filepath.Rel(td(""), p)
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			st, _ := d.Info()
			for _, root := range roots {
				dst := filepath.Join(root, sub)
				if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
					return err
				}
				if err := os.WriteFile(dst, b, st.Mode().Perm()); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// copyFile copies one file.
func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o755); err != nil {
		t.Fatal(err)
	}
}

// onHost runs argv on the host to its end (a build), in dir.
func onHost(t *testing.T, h *remotetest.Host, dir string, argv ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := h.Command(ctx, append([]string{"sh", "-c", `cd "$0" && exec "$@"`, dir}, argv...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s on the host: %v\n%s", strings.Join(argv, " "), err, out)
	}
}

// startOnHost starts argv on the host and waits for ready in its output;
// the test's end kills it.
func startOnHost(t *testing.T, h *remotetest.Host, ready string, argv ...string) (*exec.Cmd, *lineBuffer) {
	t.Helper()
	return startOnHostUnless(t, h, ready, "", argv...)
}

// startOnHostUnless is startOnHost for a program that may lose a race
// of its own at start: when its output says failed, it is killed and
// started again, up to three times.
func startOnHostUnless(t *testing.T, h *remotetest.Host, ready, failed string, argv ...string) (*exec.Cmd, *lineBuffer) {
	t.Helper()
	for attempt := 1; ; attempt++ {
		cmd := h.Command(context.Background(), argv...)
		cmd.SysProcAttr.Setpgid = true
		out := &lineBuffer{}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		stop := func() {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			_ = cmd.Wait()
		}
		deadline := time.Now().Add(60 * time.Second)
		for !strings.Contains(out.String(), ready) {
			if failed != "" && strings.Contains(out.String(), failed) && attempt < 3 {
				break
			}
			if time.Now().After(deadline) || cmd.ProcessState != nil {
				stop()
				t.Fatalf("%s never printed %q on the host; output: %s", argv[0], ready, out.String())
			}
			time.Sleep(20 * time.Millisecond)
		}
		if strings.Contains(out.String(), ready) {
			t.Cleanup(stop)
			return cmd, out
		}
		t.Logf("%s failed to start (attempt %d): %s", argv[0], attempt, out.String())
		stop()
	}
}

// The languages' programs on the host.

func pythonRemote(t *testing.T, h *remotetest.Host, local string) remoteTarget {
	copyInto(t, []string{"python/server.py"}, h.Root, local)
	cmd, out := startOnHost(t, h, "ready", "/usr/bin/python3", remoteRoot+"/python/server.py")
	return remoteTarget{cmd: cmd, out: out, marker: "tick", src: filepath.Join(local, "python/server.py"), mark: "# TICK", loopVar: "n", mapped: true}
}

func goRemote(t *testing.T, h *remotetest.Host, local string) remoteTarget {
	copyInto(t, []string{"go/server"}, h.Root, local)
	onHost(t, h, remoteRoot+"/go/server", "go", "build", "-gcflags=all=-N -l", "-o", "server", ".")
	cmd, out := startOnHost(t, h, "ready", remoteRoot+"/go/server/server")
	return remoteTarget{cmd: cmd, out: out, marker: "tick", src: filepath.Join(local, "go/server/main.go"), mark: "// TICK", loopVar: "n", mapped: true}
}

// nativeRemote builds a C or C++ fixture on the host, where its debug
// information names /srv/app, and gives the checkout a copy of the
// binary, as the user's own build.
func nativeRemote(compiler, src string) func(t *testing.T, h *remotetest.Host, local string) remoteTarget {
	return func(t *testing.T, h *remotetest.Host, local string) remoteTarget {
		copyInto(t, []string{src}, h.Root, local)
		dir, bin := filepath.Dir(src), strings.TrimSuffix(src, filepath.Ext(src))
		onHost(t, h, remoteRoot+"/"+dir, compiler, "-g", "-O0", "-o", filepath.Base(bin), filepath.Base(src))
		copyFile(t, filepath.Join(h.Root, bin), filepath.Join(local, bin))
		cmd, out := startOnHost(t, h, "ready", remoteRoot+"/"+bin, "forever")
		return remoteTarget{cmd: cmd, out: out, marker: "tick", src: filepath.Join(local, src), mark: "BREAK: loop body", loopVar: "i", mapped: true}
	}
}

// builtRemote runs a binary built here (its debug information names this
// machine's files, which exist here) from the host's root, with a copy
// in the checkout.
func builtRemote(t *testing.T, h *remotetest.Host, local, bin, src, mark, loopVar string, args ...string) remoteTarget {
	name := filepath.Join("bin", filepath.Base(bin))
	for _, f := range siblings(t, bin) {
		copyFile(t, f, filepath.Join(h.Root, "bin", filepath.Base(f)))
		copyFile(t, f, filepath.Join(local, "bin", filepath.Base(f)))
	}
	cmd, out := startOnHost(t, h, "ready", append([]string{remoteRoot + "/" + name}, args...)...)
	return remoteTarget{cmd: cmd, out: out, marker: "tick", src: src, mark: mark, loopVar: loopVar}
}

// siblings are bin and the files beside it that share its name (what
// cobc leaves: the .c, .lst and .c.l*.h dbg reads).
func siblings(t *testing.T, bin string) []string {
	t.Helper()
	m, err := filepath.Glob(bin + "*")
	if err != nil || !slices.Contains(m, bin) {
		t.Fatalf("no %s", bin)
	}
	return m
}

func rustRemote(t *testing.T, h *remotetest.Host, local string) remoteTarget {
	return builtRemote(t, h, local, nativeBinary(t, "rust", td("rust")), td("rust/src/main.rs"), "BREAK: loop body", "i", "forever")
}

func cobolRemote(t *testing.T, h *remotetest.Host, local string) remoteTarget {
	return builtRemote(t, h, local, cobolBinary(t, td("cobol/spin.cob")), td("cobol/spin.cob"), "ADD 1 TO WS-TICK", "WS-TICK")
}

func javaRemote(t *testing.T, h *remotetest.Host, local string) remoteTarget {
	copyInto(t, []string{"java/Spin.java"}, local)
	classes := javaClasses(t, td("java/Spin.java"))
	for _, f := range []string{"Spin.class"} {
		copyFile(t, filepath.Join(classes, f), filepath.Join(h.Root, "java/classes", f))
	}
	// Port 5005 of the namespace's own loopback: no other test has it.
	cmd, out := startOnHost(t, h, "tick", "java", "-agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=127.0.0.1:5005",
		"-cp", remoteRoot+"/java/classes", "Spin")
	return remoteTarget{cmd: cmd, out: out, marker: "tick", src: filepath.Join(local, "java/Spin.java"), mark: "BP:spin", loopVar: "n"}
}

func nodeRemote(t *testing.T, h *remotetest.Host, local string) remoteTarget {
	src := `let n = 0;
function tick(count) {
  n = count + 1; // TICK
  console.log('tick ' + n);
}
setInterval(() => tick(n), 50);
console.log('ready');
`
	for _, root := range []string{h.Root, local} {
		if err := os.MkdirAll(filepath.Join(root, "js"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "js/ticker.js"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// No inspector flag: dbg opens it with SIGUSR1.
	cmd, out := startOnHost(t, h, "ready", "node", remoteRoot+"/js/ticker.js")
	return remoteTarget{cmd: cmd, out: out, marker: "tick", src: filepath.Join(local, "js/ticker.js"), mark: "// TICK", loopVar: "count", mapped: true}
}

func rubyRemote(t *testing.T, h *remotetest.Host, local string) remoteTarget {
	copyInto(t, []string{"ruby/loop.rb"}, h.Root, local)
	// Port 12345 of the namespace's own loopback: no other test has it.
	// rdbg 1.4 sometimes starts its session thread before it knows it,
	// and never runs the script ("Only session_server can create
	// thread_client"): started again then.
	cmd, out := startOnHostUnless(t, h, "tick", "Only session_server", requireRdbg(t), "--open", "--nonstop", "--host", "127.0.0.1", "--port", "12345",
		"--", remoteRoot+"/ruby/loop.rb", "forever")
	return remoteTarget{cmd: cmd, out: out, marker: "tick", src: filepath.Join(local, "ruby/loop.rb"), mark: "BREAK: loop body", loopVar: "i", mapped: true}
}

// scenarioRemote attaches to the language's program on the test's ssh
// host through via ssh, with the mappings dbg proposes (and, for a way
// that says so, with mappings given).
func scenarioRemote(t *testing.T, _ *client, l *lang) {
	if l.remote == nil {
		t.Fatalf("%s declares no remote way and no refusal", l.name)
	}
	srv := startDbg(t)
	h := remoteHost(t, srv, l.name)
	local := t.TempDir()
	tg := l.remote.setup(t, h, local)
	c := startDbgWith(t, nil, []string{"--project", local}, "DBG_SSH_CONFIG="+h.SSHConfig)
	via := map[string]any{"kind": "ssh", "host": h.Addr, "user": h.User, "identityFile": h.Identity}
	pid := tg.cmd.Process.Pid
	want := l.name // the name the listing gives its language (typescript is javascript's)
	if a, ok := adapters.Default().Lookup(l.name); ok {
		want = a.Language()
	}
	listed := false
	// The host shares this machine's processes (a namespace of the
	// network only): the listing reads all of them, and the executables
	// of every test binary running on the machine, loaded as it may be.
	listVia := map[string]any{"timeoutMs": 120000}
	for k, v := range via {
		listVia[k] = v
	}
	for _, p := range c.ok("list_remote_processes", map[string]any{"via": listVia}).list("processes") {
		if p.num("pid") == pid {
			listed = p.str("language") == want
			if !listed {
				t.Errorf("list_remote_processes tells process %d as %q, want %s", pid, p.str("language"), want)
			}
		}
	}
	if !listed {
		t.Errorf("list_remote_processes does not list process %d", pid)
	}
	remoteAttach(t, c, tg, map[string]any{"language": l.name, "processId": pid, "via": via}, "proposed")
	if l.remote.given {
		args := map[string]any{"language": l.name, "processId": pid, "via": via,
			"pathMappings": []map[string]any{{"remoteRoot": remoteRoot, "localRoot": local}}}
		remoteAttach(t, c, tg, args, "given")
	}
	mcpNoChildren(t, c)
	remoteLeftovers(t, h, pid)
}

// remoteAttach attaches with args, breaks on the local file, reads the
// stop, a local and the stack, steps, and detaches.
func remoteAttach(t *testing.T, c *client, tg remoteTarget, args map[string]any, mapping string) {
	t.Helper()
	r := c.call("create_debug_session", args)
	if !r.Success && r.Error != nil && strings.Contains(r.Error.Message, "cannot call into a process") {
		// debugpy injects itself with gdb's inferior calls, which some
		// kernels and CPUs refuse: dbg tried them on a throwaway process
		// on the host and refused before touching the program.
		if !strings.Contains(r.Error.Hint, "debugpy --listen") {
			t.Errorf("the refusal names no way around: %+v", r.Error)
		}
		before := strings.Count(tg.out.String(), tg.marker)
		waitCount(t, tg.out, tg.marker, before+1, "the refused program does not run")
		t.Skipf("gdb cannot call into processes on this machine; the clean refusal was checked: %s", r.Error.Message)
	}
	if !r.Success {
		t.Fatalf("create_debug_session(%v) failed: %+v", args, r.Error)
	}
	s := obj(r.Data)
	id := s.str("sessionId")
	t.Logf("attached through %v", s.get("remote"))
	// The way is told once, in the attach's answer; a later wait's answer
	// need not repeat it.
	if s.str("remote.server") == "" && s.str("remote.forward") == "" {
		t.Errorf("the answer says nothing of the way it took: %v", s.get("remote"))
	}
	if tg.mapped && (!strings.HasPrefix(s.str("remote.mapping"), mapping) || len(s.list("remote.pathMappings")) == 0) {
		t.Errorf("mapping %q %v, want %s", s.str("remote.mapping"), s.get("remote.pathMappings"), mapping)
	}
	s = mcpPaused(t, c, id, s)
	line := mcpLine(t, tg.src, tg.mark)
	bp := c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": tg.src, "line": line})
	if !bp.get("verified").(bool) {
		t.Logf("breakpoint not verified yet: %v", bp)
	}
	st := c.ok("continue_execution", map[string]any{"sessionId": id, "waitMs": 30000})
	st = mcpPaused(t, c, id, st)
	if got := st.num("lastStop.location.line"); got != line || st.str("lastStop.location.file") != tg.src {
		t.Fatalf("stopped at %s:%d, want %s:%d (remote %v)", st.str("lastStop.location.file"), got, tg.src, line, s.get("remote"))
	}
	if _, ok := mcpLocals(t, c, id)[tg.loopVar]; !ok {
		t.Errorf("no local %s at the stop: %v", tg.loopVar, mcpLocals(t, c, id))
	}
	if mcpFrameIn(t, c, id, st.num("lastStop.threadId"), filepath.Base(tg.src), line) == nil {
		t.Errorf("no frame at %s:%d in the stack", tg.src, line)
	}
	stepped := c.ok("step_over", map[string]any{"sessionId": id})
	if stepped.num("lastStop.location.line") == 0 {
		t.Errorf("step_over answered no stop: %v", stepped)
	}
	before := strings.Count(tg.out.String(), tg.marker)
	c.ok("detach_from_process", map[string]any{"sessionId": id})
	// Several ticks, each past the line the breakpoint was on: a debug
	// server that kept it would stop the program with nobody attached.
	waitCount(t, tg.out, tg.marker, before+3, "the program does not run on after the detach")
	c.ok("close_debug_session", map[string]any{"sessionId": id})
	if !processAlive(tg.cmd.Process.Pid) {
		t.Fatal("the detach killed the program")
	}
}

// remoteLeftovers checks that nothing dbg started stays on the host:
// no process in the namespace but the program (the debug server and
// the ssh sessions are gone), nothing in its temporary folder.
func remoteLeftovers(t *testing.T, h *remotetest.Host, pid int) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		left := h.Processes(pid)
		tmp, _ := os.ReadDir(h.TmpDir)
		if len(left) == 0 && len(tmp) == 0 {
			return
		}
		if time.Now().After(deadline) {
			names := make([]string, 0, len(tmp))
			for _, e := range tmp {
				names = append(names, e.Name())
			}
			t.Fatalf("left on the host: processes %v, files %v", left, names)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// refusedRemote: a language without remote attach refuses a via by pid
// with the reason, before any tool runs.
func refusedRemote(t *testing.T, c *client, l *lang, r refusal) {
	checkRefusal(t, c.fail("create_debug_session", map[string]any{"language": l.name, "processId": 1,
		"via": map[string]any{"kind": "ssh", "host": "192.0.2.1"}}, r.code), r)
}

// tsRemote compiles count.ts on the host with its source map inline (a
// map file beside the script would be read from the target's disk),
// and runs it there.
func tsRemote(t *testing.T, h *remotetest.Host, local string) remoteTarget {
	compileTS(t)
	copyInto(t, []string{"javascript/ts", "javascript/tsconfig.json"}, h.Root, local)
	home, _ := os.UserHomeDir()
	tsc := filepath.Join(home, ".cache", "dbg-test", "ts", "node_modules", ".bin", "tsc")
	if d := os.Getenv("DBG_TS_DIR"); d != "" {
		tsc = filepath.Join(d, "node_modules", ".bin", "tsc")
	}
	onHost(t, h, remoteRoot+"/javascript", tsc, "-p", ".", "--sourceMap", "false", "--inlineSourceMap")
	// The checkout has the same build.
	copyFile(t, filepath.Join(h.Root, "javascript/build/count.js"), filepath.Join(local, "javascript/build/count.js"))
	cmd, out := startOnHost(t, h, "tick", "node", remoteRoot+"/javascript/build/count.js", "forever")
	return remoteTarget{cmd: cmd, out: out, marker: "tick", src: filepath.Join(local, "javascript/ts/count.ts"), mark: "BP:ts-loop", loopVar: "i", mapped: true}
}

// TestRemoteDelveMulticlientDetach: a Go program served by a
// multi-client `dlv --headless` the user started on the host's loopback,
// attached through via ssh with its port: a breakpoint stops it, and the
// detach leaves it running (the breakpoints are taken out before the
// continue and the disconnect; the server, which outlives the session,
// would otherwise stop it at the next hit with nobody attached). The
// mapping given binds the local file.
func TestRemoteDelveMulticlientDetach(t *testing.T) {
	t.Parallel()
	requireDelve(t)
	c0 := startDbg(t)
	h := remoteHost(t, c0, "go")
	local := t.TempDir()
	copyInto(t, []string{"go/server"}, h.Root, local)
	onHost(t, h, remoteRoot+"/go/server", "go", "build", "-gcflags=all=-N -l", "-o", "server", ".")
	prog, out := startOnHost(t, h, "ready", remoteRoot+"/go/server/server")
	dlv, err := exec.LookPath("dlv")
	if err != nil {
		gopath, _ := exec.Command("go", "env", "GOPATH").Output()
		dlv = filepath.Join(strings.TrimSpace(string(gopath)), "bin", "dlv")
	}
	startOnHost(t, h, "listening at", dlv, "attach", fmt.Sprint(prog.Process.Pid), "--headless", "--accept-multiclient",
		"--continue", "--api-version=2", "--listen=127.0.0.1:4567")
	c := startDbgWith(t, nil, []string{"--project", local}, "DBG_SSH_CONFIG="+h.SSHConfig)
	via := map[string]any{"kind": "ssh", "host": h.Addr, "user": h.User, "identityFile": h.Identity}
	src := filepath.Join(local, "go/server/main.go")
	s := c.ok("create_debug_session", map[string]any{"language": "go", "port": 4567, "via": via, "stopOnEntry": false,
		"pathMappings": []map[string]any{{"remoteRoot": remoteRoot, "localRoot": local}}})
	id := s.str("sessionId")
	if s.str("remote.mapping") != "given" || !strings.Contains(s.str("remote.forward"), "127.0.0.1:4567") {
		t.Errorf("remote %v", s.get("remote"))
	}
	line := mcpLine(t, src, "// TICK")
	c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": line})
	st := mcpPaused(t, c, id, c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 30000}))
	if st.num("lastStop.location.line") != line || st.str("lastStop.location.file") != src {
		t.Fatalf("stopped at %v, want %s:%d", st.get("lastStop.location"), src, line)
	}
	before := strings.Count(out.String(), "tick")
	c.ok("detach_from_process", map[string]any{"sessionId": id})
	// Several ticks: each passes the line the breakpoint was on.
	waitCount(t, out, "tick", before+3, "the program stays halted after the detach from a multi-client dlv")
	c.ok("close_debug_session", map[string]any{"sessionId": id})
	before = strings.Count(out.String(), "tick")
	waitCount(t, out, "tick", before+3, "the program stays halted after the session closed")
}

// TestRemoteOffLoopbackWarns: an attach by port to a debugpy that
// listens on the host's network address, without a via, works and
// warns that whoever reaches the port can run code in the program.
func TestRemoteOffLoopbackWarns(t *testing.T) {
	t.Parallel()
	requireDebugpy(t)
	c := startDbg(t)
	h := remoteHost(t, c, "python")
	script := filepath.Join(h.Root, "listen.py")
	src := "import debugpy, time\ndebugpy.listen((\"0.0.0.0\", 5678))\nprint(\"ready\", flush=True)\nwhile True:\n    time.sleep(0.05)\n"
	if err := os.WriteFile(script, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	startOnHost(t, h, "ready", "/usr/bin/python3", remoteRoot+"/listen.py")
	s := c.ok("create_debug_session", map[string]any{"language": "python", "host": h.Addr, "port": 5678, "stopOnEntry": false})
	w, _ := s.get("warnings").([]any)
	if len(w) != 1 || !strings.Contains(fmt.Sprint(w[0]), "run code in the program") || !strings.Contains(fmt.Sprint(w[0]), "via") {
		t.Errorf("warnings %v", s.get("warnings"))
	}
	c.ok("close_debug_session", map[string]any{"sessionId": s.str("sessionId")})
	// Through the tunnel: no warning.
	c = startDbgWith(t, nil, nil, "DBG_SSH_CONFIG="+h.SSHConfig)
	via := map[string]any{"kind": "ssh", "host": h.Addr, "user": h.User, "identityFile": h.Identity}
	s = c.ok("create_debug_session", map[string]any{"language": "python", "port": 5678, "via": via, "stopOnEntry": false})
	if s.get("warnings") != nil || !strings.Contains(s.str("remote.forward"), "127.0.0.1:5678") {
		t.Errorf("through via ssh: warnings %v, remote %v", s.get("warnings"), s.get("remote"))
	}
	c.ok("close_debug_session", map[string]any{"sessionId": s.str("sessionId")})
}

// TestRemoteCLIAttach: dbg attach --via ssh://user@host --pid N, the
// language told from the remote process, a breakpoint, the locals and a
// detach at the console, in JSON.
func TestRemoteCLIAttach(t *testing.T) {
	t.Parallel()
	requireDelve(t)
	c := startDbg(t)
	h := remoteHost(t, c, "go")
	local := t.TempDir()
	copyInto(t, []string{"go/server"}, h.Root, local)
	onHost(t, h, remoteRoot+"/go/server", "go", "build", "-gcflags=all=-N -l", "-o", "server", ".")
	prog, out := startOnHost(t, h, "ready", remoteRoot+"/go/server/server")
	// The console's ssh knows the key from the configuration.
	cfg := filepath.Join(t.TempDir(), "ssh_config")
	b, err := os.ReadFile(h.SSHConfig)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, append(b, []byte("  IdentityFile "+h.Identity+"\n")...), 0o600); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(local, "go/server/main.go")
	cmd := exec.Command(dbgBinary, "attach", "--via", "ssh://"+h.User+"@"+h.Addr, "--pid", fmt.Sprint(prog.Process.Pid), "--json", "--project", local)
	cmd.Env = append(os.Environ(), "DBG_STATE_DIR="+t.TempDir(), "DBG_SSH_CONFIG="+cfg, "DBG_WARM_ADAPTERS=0")
	cmd.Stdin = strings.NewReader(fmt.Sprintf("break %s:%d\ncontinue\nlocals\ndetach\n", src, mcpLine(t, src, "// TICK")))
	got, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, got)
	}
	for _, want := range []string{`"language": "go"`, `"server": "dlv dap --listen 127.0.0.1:0`, `"file": "` + src + `"`, `"name": "n"`, "detached"} {
		if !strings.Contains(string(got), want) {
			t.Errorf("the console's output has no %s:\n%s", want, got)
		}
	}
	before := strings.Count(out.String(), "tick")
	waitCount(t, out, "tick", before+1, "the program does not run after the console detached")
	remoteLeftovers(t, h, prog.Process.Pid)
}
