package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/internal/dbgtest"
)

// The shared helpers of the end-to-end tests: the conformance table and
// every language's own tests use these and no others. The MCP client
// itself (startDbg, client, obj, processes) is in harness_test.go.

func requireDelve(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("dlv"); err != nil {
		if home, _ := exec.Command("go", "env", "GOPATH").Output(); len(home) > 0 {
			if exec.Command(strings.TrimSpace(string(home))+"/bin/dlv", "version").Run() == nil {
				return
			}
		}
		t.Skip("delve is not installed (scripts/install-test-deps.sh installs it)")
	}
}

func requireJava(t *testing.T) {
	t.Helper()
	requireTool(t, "java", "-version")
	requireTool(t, "javac", "-version")
}

func requireNode(t *testing.T) {
	t.Helper()
	requireTool(t, "node", "--version")
}

func requireLLDB(t *testing.T) {
	t.Helper()
	if info := adapters.NewC().Find(context.Background()); info.Path == "" {
		t.Skipf("lldb's DAP adapter is not installed (scripts/deps/native.sh installs lldb-16): %s", info.Note)
	}
}

func requireCargo(t *testing.T) {
	t.Helper()
	requireLLDB(t)
	if _, err := exec.LookPath("cargo"); err != nil {
		t.Skip("cargo is not installed (the CI image ships rustup)")
	}
}

func requireCOBOL(t *testing.T) {
	t.Helper()
	requireLLDB(t)
	requireTool(t, "cobc", "--version")
}

// requireRdbg returns rdbg's path (the gem's rdbg, or Debian's rdbg3.1).
func requireRdbg(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"rdbg", "rdbg3.1"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("rdbg is not installed (scripts/deps/native.sh installs ruby3.1 with its debug gem)")
	return ""
}

// tsOnce compiles the TypeScript fixtures once per test binary.
var tsOnce struct {
	sync.Once
	err error
	out []byte
}

// compileTS compiles testdata/javascript/ts with the pinned tsc that
// scripts/deps/node.sh installs.
func compileTS(t *testing.T) {
	t.Helper()
	dir := os.Getenv("DBG_TS_DIR")
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".cache", "dbg-test", "ts")
	}
	tsc := filepath.Join(dir, "node_modules", ".bin", "tsc")
	if _, err := os.Stat(tsc); err != nil {
		t.Skipf("tsc is not installed in %s (scripts/deps/node.sh installs it)", dir)
	}
	tsOnce.Do(func() {
		tsOnce.out, tsOnce.err = exec.Command(tsc, "-p", fixture(t, "javascript")).CombinedOutput()
	})
	if tsOnce.err != nil {
		t.Fatalf("tsc: %v\n%s", tsOnce.err, tsOnce.out)
	}
}

// buildOnce runs build the first time key is asked for and returns its
// result every time (dbgtest.Once).
func buildOnce(t testing.TB, key string, build func() (string, error)) string {
	t.Helper()
	return dbgtest.Once(t, key, build)
}

// buildDir is where buildOnce's results live; removed by TestMain.
var buildDir string

// nativeBinary builds a c, cpp or rust fixture once.
func nativeBinary(t testing.TB, lang, program string) string {
	return buildOnce(t, lang+":"+program, func() (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		bin, _, err := adapters.BuildNative(ctx, lang, program, "")
		return bin, err
	})
}

// goBinary builds a Go fixture directory once, with debug information.
func goBinary(t testing.TB, dir string) string {
	return buildOnce(t, "go:"+dir, func() (string, error) {
		out := filepath.Join(buildDir, "go-"+filepath.Base(dir))
		cmd := exec.Command("go", "build", "-gcflags=all=-N -l", "-o", out, ".")
		cmd.Dir = dir
		if b, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("go build %s: %w\n%s", dir, err, b)
		}
		return out, nil
	})
}

// javaClasses compiles Java sources once into a folder of their own.
func javaClasses(t testing.TB, srcs ...string) string {
	return buildOnce(t, "javac:"+strings.Join(srcs, ","), func() (string, error) {
		dir, err := os.MkdirTemp(buildDir, "classes-")
		if err != nil {
			return "", err
		}
		if out, err := exec.Command("javac", append([]string{"-g", "-d", dir}, srcs...)...).CombinedOutput(); err != nil {
			return "", fmt.Errorf("javac: %w\n%s", err, out)
		}
		return dir, nil
	})
}

// mcpLine returns the 1-based line of path whose text contains s.
func mcpLine(t testing.TB, path, s string) int {
	t.Helper()
	return dbgtest.LineOf(t, path, s)
}

// mcpPaused returns st when it is paused, else waits for the next stop.
func mcpPaused(t testing.TB, c *client, id string, st obj) obj {
	t.Helper()
	return mcpReach(t, c, id, st, "paused", "not paused")
}

// mcpEnded returns st when the program ended, else waits for its end.
func mcpEnded(t testing.TB, c *client, id string, st obj) obj {
	t.Helper()
	return mcpReach(t, c, id, st, "terminated", "the program did not end")
}

// mcpReach returns st when the session is in state, else waits for the
// next stop, which must leave it in state (or the test fails with failure).
func mcpReach(t testing.TB, c *client, id string, st obj, state, failure string) obj {
	t.Helper()
	if st.str("state") != state {
		st = c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 60000})
	}
	if st.str("state") != state {
		t.Fatalf("%s: %v", failure, st)
	}
	return st
}

// mcpAttachRunning creates an attach session from args without pausing
// the program (stopOnEntry false): the session must answer running. It
// returns the session id.
func mcpAttachRunning(t testing.TB, c *client, args map[string]any) string {
	t.Helper()
	args["stopOnEntry"] = false
	s := c.ok("create_debug_session", args)
	if s.str("state") != "running" {
		t.Errorf("attach without pause answered %v", s)
	}
	return s.str("sessionId")
}

// mcpBreakRunning sets a breakpoint at file:line in a running session and
// waits for the program to stop there. It returns the set_breakpoint
// answer.
func mcpBreakRunning(t testing.TB, c *client, id, file string, line int) obj {
	t.Helper()
	bp := c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": file, "line": line})
	st := c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 30000})
	if st.str("state") != "paused" || st.str("lastStop.reason") != "breakpoint" || st.num("lastStop.location.line") != line {
		t.Fatalf("stop %v, want the breakpoint at line %d", st, line)
	}
	return bp
}

// mcpLaunch creates a session of lang, sets a breakpoint at each of lines
// in file, starts program with the extra start arguments and returns the
// session id and the first stop.
func mcpLaunch(t testing.TB, c *client, lang, file string, lines []int, program string, start map[string]any) (string, obj) {
	t.Helper()
	id := c.ok("create_debug_session", map[string]any{"language": lang, "name": "e2e-" + lang}).str("sessionId")
	for _, l := range lines {
		bp := c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": file, "line": l})
		if bp.num("line") != l {
			t.Fatalf("set_breakpoint %s:%d answered %v", file, l, bp)
		}
	}
	args := map[string]any{"sessionId": id, "scriptPath": program}
	for k, v := range start {
		args[k] = v
	}
	st := c.ok("start_debugging", args)
	return id, mcpPaused(t, c, id, st)
}

// stopLineText is the text of the line a stop's answer stopped at: its
// location's, or, in a compact answer (which leaves it out for the source
// shows it), the line of its source at the location's line.
func stopLineText(st obj) string {
	if text := st.str("lastStop.location.text"); text != "" {
		return text
	}
	first, line := st.num("source.first"), st.num("lastStop.location.line")
	if lines, ok := st.get("source.lines").([]any); ok && line >= first && line-first < len(lines) {
		text, _ := lines[line-first].(string)
		return text
	}
	return ""
}

// answerSession is the session a stop's answer is about: the one it
// names, or, when it names none (a compact answer, or a wait's on the
// session named), named, the session the call named.
func answerSession(st obj, named string) string {
	if id := st.str("sessionId"); id != "" {
		return id
	}
	return named
}

// mcpLocals returns the top frame's locals by name.
func mcpLocals(t testing.TB, c *client, id string) map[string]obj {
	t.Helper()
	out := map[string]obj{}
	for _, v := range c.ok("get_local_variables", map[string]any{"sessionId": id}).list("variables") {
		out[v.str("name")] = v
	}
	return out
}

// mcpCheckLocals checks the values of some locals.
func mcpCheckLocals(t testing.TB, locals map[string]obj, want map[string]string) {
	t.Helper()
	for name, w := range want {
		if got := locals[name].str("value"); got != w {
			t.Errorf("local %s = %q, want %q (all: %v)", name, got, w, locals)
		}
	}
}

// mcpChildren returns the children of a variable by name.
func mcpChildren(t testing.TB, c *client, id string, v obj) map[string]string {
	t.Helper()
	ref := v.num("variablesReference")
	if ref == 0 {
		t.Fatalf("variable %v has no children", v)
	}
	out := map[string]string{}
	for _, ch := range c.ok("get_variables", map[string]any{"sessionId": id, "scope": ref}).list("variables") {
		out[ch.str("name")] = ch.str("value")
	}
	return out
}

// mcpEval evaluates expr in the top frame.
func mcpEval(t testing.TB, c *client, id, expr string) string {
	t.Helper()
	return c.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": expr}).str("result")
}

// mcpEvalFails checks that evaluating an unknown name fails with a
// message naming it.
func mcpEvalFails(t testing.TB, c *client, id, name string) {
	t.Helper()
	r := c.call("evaluate_expression", map[string]any{"sessionId": id, "expression": name + " + 1"})
	if r.Success {
		t.Errorf("evaluating an unknown name succeeded: %v", r.Data)
		return
	}
	if !strings.Contains(r.Error.Message, name) {
		t.Errorf("evaluate error %s: %q does not name %s", r.Error.Code, r.Error.Message, name)
	}
}

// mcpTop checks the top frame of the stopped thread.
func mcpTop(t testing.TB, c *client, id, file string, line int) obj {
	t.Helper()
	frames := c.ok("get_stack_trace", map[string]any{"sessionId": id}).list("stackFrames")
	if len(frames) == 0 {
		t.Fatalf("empty stack")
	}
	if frames[0].str("file") != file || frames[0].num("line") != line {
		t.Fatalf("top frame %v, want %s:%d", frames[0], file, line)
	}
	return frames[0]
}

// mcpFrameIn returns the first frame of the stopped thread in file (at
// line, when line > 0), or nil.
func mcpFrameIn(t testing.TB, c *client, id string, threadID int, file string, line int) obj {
	t.Helper()
	args := map[string]any{"sessionId": id, "levels": 50}
	if threadID > 0 {
		args["threadId"] = threadID
	}
	for _, f := range c.ok("get_stack_trace", args).list("stackFrames") {
		if (f.str("file") == file || strings.HasSuffix(f.str("file"), "/"+file)) && f.num("line") > 0 && (line == 0 || f.num("line") == line) {
			return f
		}
	}
	return nil
}

// mcpPIDs returns the debuggee's and the adapter's pids of the only session.
func mcpPIDs(t testing.TB, c *client) []int {
	t.Helper()
	ss := c.ok("list_debug_sessions", nil).list("sessions")
	if len(ss) != 1 {
		t.Fatalf("sessions: %v", ss)
	}
	return []int{ss[0].num("pid"), ss[0].num("adapterPid")}
}

// mcpDebuggee returns the debuggee's pid: the session's, or else the
// server's descendants whose command line names program.
func mcpDebuggee(t testing.TB, c *client, program string) []int {
	t.Helper()
	if pid := mcpPIDs(t, c)[0]; pid > 0 {
		return []int{pid}
	}
	var out []int
	for _, p := range childrenOf(c.cmd.Process.Pid) {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p))
		if strings.Contains(string(b), program) {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no process of %s under the server", program)
	}
	return out
}

// mcpFinish clears the breakpoints, runs the program to its end, checks
// its output, closes the session and checks nothing is left running.
func mcpFinish(t testing.TB, c *client, id, output string) {
	t.Helper()
	c.ok("clear_breakpoints", map[string]any{"sessionId": id})
	mcpEnd(t, c, id, output)
}

// mcpEnd continues a stopped session to the program's end, checks its
// output holds output, and closes the session leaving no process behind.
func mcpEnd(t testing.TB, c *client, id, output string) {
	t.Helper()
	pids := mcpPIDs(t, c)
	mcpRunToEnd(t, c, id)
	mcpOutputHas(t, c, id, output)
	mcpClose(t, c, id, pids)
}

// mcpRunToEnd continues a stopped session and expects the program's end.
func mcpRunToEnd(t testing.TB, c *client, id string) {
	t.Helper()
	mcpEnded(t, c, id, c.ok("continue_execution", map[string]any{"sessionId": id}))
}

// mcpOutputHas checks that the session's output contains want.
func mcpOutputHas(t testing.TB, c *client, id, want string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		out := c.ok("get_output", map[string]any{"sessionId": id}).str("text")
		if strings.Contains(out, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("output %q does not contain %q", out, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// mcpClose closes the session and checks that pids and every child of the
// server are gone.
func mcpClose(t testing.TB, c *client, id string, pids []int) {
	t.Helper()
	c.ok("close_debug_session", map[string]any{"sessionId": id})
	waitGone(t, 10*time.Second, pids...)
	mcpNoChildren(t, c)
	c.fail("close_debug_session", map[string]any{"sessionId": id}, "SESSION_NOT_FOUND")
}

// mcpNoChildren waits until the server has no child processes.
func mcpNoChildren(t testing.TB, c *client) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		kids := childrenOf(c.cmd.Process.Pid)
		if len(kids) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server still has child processes after close: %v", kids)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitCount waits until out holds more than n lines containing marker.
func waitCount(t testing.TB, out *lineBuffer, marker string, n int, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for strings.Count(out.String(), marker) <= n {
		if time.Now().After(deadline) {
			t.Fatalf("%s; output: %s", what, out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// target is a running program to attach to.
type target struct {
	cmd    *exec.Cmd
	out    *lineBuffer
	port   int    // the debug port it listens on, if any
	file   string // a source file (base name) on its stack
	marker string // a text it prints over and over while it runs
}

// attachArgs are create_debug_session's arguments to attach to tg by
// "processId" or "port".
func (tg target) attachArgs(lang, by string) map[string]any {
	args := map[string]any{"language": lang}
	if by == "port" {
		args["port"] = tg.port
	} else {
		args["processId"] = tg.cmd.Process.Pid
	}
	return args
}

// mcpAttach attaches to a running target (args from tg.attachArgs),
// checks the pause, a thread and a frame in tg.file, that the target
// prints nothing while paused, detaches and checks that the target keeps
// running and outlives the session, and that the server keeps no child.
// It is the one attach flow of every language.
func mcpAttach(t testing.TB, c *client, args map[string]any, tg target) {
	t.Helper()
	s := c.ok("create_debug_session", args)
	id := s.str("sessionId")
	s = mcpPaused(t, c, id, s)
	if len(c.ok("list_threads", map[string]any{"sessionId": id}).list("threads")) == 0 {
		t.Fatalf("no threads after attach")
	}
	if mcpFrameIn(t, c, id, s.num("lastStop.threadId"), tg.file, 0) == nil {
		t.Fatalf("no frame in %s after attach", tg.file)
	}
	// Paused: the output stops growing.
	time.Sleep(300 * time.Millisecond)
	paused := strings.Count(tg.out.String(), tg.marker)
	time.Sleep(500 * time.Millisecond)
	if n := strings.Count(tg.out.String(), tg.marker); n != paused {
		t.Errorf("the target printed %d lines while paused", n-paused)
	}
	if _, byPID := args["processId"]; byPID {
		if pid := mcpPIDs(t, c)[0]; pid != tg.cmd.Process.Pid {
			t.Errorf("list_debug_sessions pid %d, want the target's %d", pid, tg.cmd.Process.Pid)
		}
	}
	c.ok("detach_from_process", map[string]any{"sessionId": id})
	waitCount(t, tg.out, tg.marker, paused+1, "the target stopped printing after detach")
	if !processAlive(tg.cmd.Process.Pid) {
		t.Fatalf("the target died at detach")
	}
	// Detached: no stop of a target the session no longer holds.
	for _, ls := range c.ok("list_debug_sessions", nil).list("sessions") {
		if ls.str("sessionId") == id && (ls.str("state") != "detached" || ls.get("lastStop") != nil) {
			t.Errorf("after detach the session is listed as %v, want detached with no stop", ls)
		}
	}
	c.ok("close_debug_session", map[string]any{"sessionId": id})
	before := strings.Count(tg.out.String(), tg.marker)
	waitCount(t, tg.out, tg.marker, before+1, "the target stopped printing after close")
	if !processAlive(tg.cmd.Process.Pid) {
		t.Fatalf("closing an attached session killed the target")
	}
	mcpNoChildren(t, c)
}

// mcpDetachRuns clears the breakpoints of an attached session, detaches,
// closes it and checks that the target runs on: it prints its marker
// again, or want once want is not empty.
func mcpDetachRuns(t testing.TB, c *client, id string, tg target, want string) {
	t.Helper()
	c.ok("clear_breakpoints", map[string]any{"sessionId": id})
	c.ok("detach_from_process", map[string]any{"sessionId": id})
	c.ok("close_debug_session", map[string]any{"sessionId": id})
	if want == "" {
		waitCount(t, tg.out, tg.marker, strings.Count(tg.out.String(), tg.marker)+1, "the target does not run after detach")
	} else {
		waitCount(t, tg.out, want, 0, "the target does not print "+want+" after detach")
	}
	if !processAlive(tg.cmd.Process.Pid) {
		_ = tg.cmd.Wait() // for how it ended
		tail := tg.out.String()
		if len(tail) > 400 {
			tail = tail[len(tail)-400:]
		}
		t.Fatalf("closing the attached session killed the target (%v); its last output: %s", tg.cmd.ProcessState, tail)
	}
}

func mustAtoi(t testing.TB, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("%q is not a number", s)
	}
	return n
}

// writeSource writes a program of the test's own into a temporary folder.
func writeSource(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
