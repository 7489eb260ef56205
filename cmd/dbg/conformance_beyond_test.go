package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The scenarios beyond one process: child processes as child sessions,
// waits on several sessions, and post-mortem sessions of core files.

// coreCase is a program that crashes, and where: a core file of it opens
// stopped at mark in src, with the crash's signal and locals.
type coreCase struct {
	build          func(t *testing.T) string // the crashing binary
	env            []string                  // its environment as it crashes
	src, mark      string                    // the crash line
	locals         map[string]string         // in the crash frame
	eval, evalWant string                    // evaluated there without side effects
	signal         string                    // the signal the core names
	other          func(t *testing.T) string // a binary of the language the core is not of
}

// scenarioChildren runs the language's child-process fixture: the child
// stops at its breakpoint in a child session, and closing the parent
// leaves nothing running.
func scenarioChildren(t *testing.T, c *client, l *lang) {
	if l.children == nil {
		t.Fatalf("the table gives %s no children fixture and no refusal", l.name)
	}
	parent, child := childStop(t, c, l.name, *l.children, nil)
	st := c.ok("get_debug_tools_status", map[string]any{"sessionId": parent})
	if cp := st.get("sections.childProcesses." + parent); cp == nil || obj(cp.(map[string]any)).get("supported") != true {
		t.Errorf("status of %s says childProcesses %v, want supported", parent, cp)
	}
	childFinish(t, c, parent, child, *l.children)
}

// refusedChildren: a language whose adapter follows no child process
// refuses childProcesses: true with its reason, and the status says so.
func refusedChildren(t *testing.T, c *client, l *lang, r refusal) {
	res := c.fail("create_debug_session", map[string]any{"language": l.name, "childProcesses": true}, r.code)
	if !strings.Contains(res.Error.Message, r.says) {
		t.Errorf("childProcesses: true answered %q, want it to say %q", res.Error.Message, r.says)
	}
	id := c.ok("create_debug_session", map[string]any{"language": l.name}).str("sessionId")
	cp, _ := c.ok("get_debug_tools_status", map[string]any{"sessionId": id}).get("sections.childProcesses." + id).(map[string]any)
	if cp == nil || cp["supported"] != false || !strings.Contains(obj(cp).str("reason"), r.says) {
		t.Errorf("status says childProcesses %v, want unsupported saying %q", cp, r.says)
	}
	c.ok("close_debug_session", map[string]any{"sessionId": id})
}

// scenarioMultiWait runs two sessions at once: one paused at the loop's
// breakpoint, one spinning. A wait on both answers the paused one, naming
// it; pause_execution all: true stops the other, whose stop a wait on all
// answers; continue_execution all: true resumes it, and a short wait on
// both then answers that they run.
func scenarioMultiWait(t *testing.T, c *client, l *lang) {
	src := l.loop.srcPath()
	a, _ := mcpLaunch(t, c, l.name, src, []int{mcpLine(t, src, l.loop.mark)}, td(l.loop.program), nil)
	b := c.ok("create_debug_session", map[string]any{"language": l.name}).str("sessionId")
	if st := c.ok("start_debugging", map[string]any{"sessionId": b, "scriptPath": td(l.spin.program), "args": l.spin.args}); st.str("state") != "running" {
		t.Fatalf("start of the spinning program: %v", st)
	}
	w := c.ok("wait_for_stop", map[string]any{"sessionIds": []string{a, b}, "timeoutMs": 30000})
	if w.str("sessionId") != a || w.str("state") != "paused" || w.num("lastStop.location.line") != mcpLine(t, src, l.loop.mark) {
		t.Fatalf("the wait on %s and %s answered %v, want %s's stop at the loop", a, b, w, a)
	}
	c.ok("clear_breakpoints", map[string]any{"sessionId": a})
	mcpRunToEnd(t, c, a)
	// The spinning program runs its own code once it prints.
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if c.ok("get_output", map[string]any{"sessionId": b}).str("text") != "" {
			break
		}
	}
	p := c.ok("pause_execution", map[string]any{"all": true})
	if got := p.list("sessions"); len(got) != 1 || got[0].str("sessionId") != b {
		t.Fatalf("pause all answered %v, want one answer, %s's", p, b)
	}
	w = c.ok("wait_for_stop", map[string]any{"all": true, "timeoutMs": 30000})
	if w.str("sessionId") != b || w.str("state") != "paused" || w.str("lastStop.reason") != "pause" {
		t.Fatalf("the wait on all answered %v, want %s's pause", w, b)
	}
	if r := c.ok("continue_execution", map[string]any{"all": true}).list("sessions"); len(r) != 1 || r[0].str("state") != "running" {
		t.Fatalf("continue all answered %v, want %s running", r, b)
	}
	w = c.ok("wait_for_stop", map[string]any{"sessionIds": []string{a, b}, "timeoutMs": 300})
	if w.str("state") != "running" || !strings.Contains(w.str("message"), "no stop within") {
		t.Errorf("a short wait on both answered %v, want that they run", w)
	}
	for _, id := range []string{a, b} {
		c.ok("close_debug_session", map[string]any{"sessionId": id})
	}
	mcpNoChildren(t, c)
}

// scenarioCore makes a core file of the language's crashing program and
// opens it: the session is postmortem at the crash line, with the crash's
// signal, locals and a side-effect-free evaluation; whatever would run
// the program is refused; a binary the core is not of is refused.
func scenarioCore(t *testing.T, c *client, l *lang) {
	cc := l.core
	if cc == nil {
		t.Fatalf("the table gives %s no core fixture and no refusal", l.name)
	}
	bin := cc.build(t)
	core := makeCore(t, bin, cc.env)
	src := td(cc.src)
	line := mcpLine(t, src, cc.mark)
	s := c.ok("create_debug_session", map[string]any{"language": l.name, "coreFile": core, "program": bin})
	id := s.str("sessionId")
	if s.str("state") != "postmortem" || s.str("lastStop.location.file") != src || s.num("lastStop.location.line") != line {
		t.Fatalf("the core opened as %v, want postmortem at %s:%d", s, src, line)
	}
	if s.get("changed") != nil {
		t.Errorf("a core's stop says changed %v, want null", s.get("changed"))
	}
	mcpCheckLocals(t, mcpLocals(t, c, id), cc.locals)
	if got := c.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": cc.eval, "sideEffects": false}).str("result"); got != cc.evalWant {
		t.Errorf("%s = %q, want %q", cc.eval, got, cc.evalWant)
	}
	if mcpFrameIn(t, c, id, 0, src, line) == nil {
		t.Errorf("no frame at %s:%d in the core's stack", src, line)
	}
	ctxLines := c.ok("get_source_context", map[string]any{"sessionId": id}).list("lines")
	if len(ctxLines) == 0 {
		t.Errorf("get_source_context of the core's stop answered no lines")
	}
	var listed obj
	for _, ls := range c.ok("list_debug_sessions", nil).list("sessions") {
		if ls.str("sessionId") == id {
			listed = ls
		}
	}
	if listed.str("state") != "postmortem" || listed.str("core.signalName") != cc.signal || listed.num("pid") != 0 {
		t.Errorf("listed as %v, want postmortem, %s, no pid", listed, cc.signal)
	}
	for _, call := range []struct {
		tool string
		args map[string]any
	}{
		{"continue_execution", map[string]any{"sessionId": id}},
		{"step_over", map[string]any{"sessionId": id}},
		{"pause_execution", map[string]any{"sessionId": id}},
		{"set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": line}},
	} {
		if r := c.fail(call.tool, call.args, "INVALID_STATE"); !strings.Contains(r.Error.Message, "a core file is a snapshot") {
			t.Errorf("%s on a core answered %q", call.tool, r.Error.Message)
		}
	}
	c.ok("close_debug_session", map[string]any{"sessionId": id})
	if r := c.fail("create_debug_session", map[string]any{"language": l.name, "coreFile": core, "program": cc.other(t)}, "INVALID_ARGUMENT"); !strings.Contains(r.Error.Message, "is not the program the core was dumped from") {
		t.Errorf("a core with another binary answered %q", r.Error.Message)
	}
	mcpNoChildren(t, c)
}

// refusedCore: a language without core files answers UNSUPPORTED naming
// what reads its crashes instead.
func refusedCore(t *testing.T, c *client, l *lang, r refusal) {
	self, _ := os.Executable()
	res := c.fail("create_debug_session", map[string]any{"language": l.name, "coreFile": self, "program": self}, r.code)
	if !strings.Contains(res.Error.Message, r.says) {
		t.Errorf("a core file answered %q, want it to say %q", res.Error.Message, r.says)
	}
}

// makeCore runs bin with env until it crashes, in a folder of its own
// with the core size limit lifted, and returns its core file. Where the
// kernel writes no core there (a kernel.core_pattern that pipes cores
// elsewhere), gdb runs it to the crash and writes the core instead.
func makeCore(t *testing.T, bin string, env []string) string {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command("sh", "-c", `ulimit -c unlimited && exec "$0"`, bin)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
	var ee *exec.ExitError
	if out, err := cmd.CombinedOutput(); !errors.As(err, &ee) {
		t.Fatalf("%s ended with %v, not a crash: %s", bin, err, out)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "core*")); len(m) == 1 {
		return m[0]
	}
	gdb, err := exec.LookPath("gdb")
	if err != nil {
		t.Fatalf("%s crashed and left no core in %s (kernel.core_pattern), and no gdb writes one", bin, dir)
	}
	core := filepath.Join(dir, "core")
	g := exec.Command(gdb, "-batch", "-nx", "-ex", "run", "-ex", "generate-core-file "+core, "-ex", "kill", "--args", bin)
	g.Dir, g.Env = dir, cmd.Env
	if out, err := g.CombinedOutput(); err != nil {
		t.Fatalf("gdb could not write a core of %s: %v: %s", bin, err, out)
	}
	return core
}

// goCrash builds the Go crash fixture.
func goCrash(t *testing.T) string { return goBinary(t, td("go/crash")) }

// rustCrash builds the Rust panic fixture with panic=abort.
func rustCrash(t *testing.T) string {
	return buildOnce(t, "rustc:crash", func() (string, error) {
		out := filepath.Join(buildDir, "rust-crash")
		if b, err := exec.Command("rustc", "-g", "-C", "opt-level=0", "-C", "panic=abort", "-o", out, td("rustcore/crash.rs")).CombinedOutput(); err != nil {
			return "", errors.New(string(b))
		}
		return out, nil
	})
}

// nativeCrash builds a C or C++ crash fixture.
func nativeCrash(lang, program string) func(t *testing.T) string {
	return func(t *testing.T) string { return nativeBinary(t, lang, td(program)) }
}
