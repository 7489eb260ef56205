package adapters

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/adapters/cobol"
)

func natNeedCOBOL(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("cobc"); err != nil {
		t.Skip("cobc not installed (scripts/deps/native.sh installs gnucobol3)")
	}
	natNeed(t, NewCOBOL())
}

func TestCOBOLLaunch(t *testing.T) {
	t.Parallel()
	natNeedCOBOL(t)
	a := NewCOBOL()
	src := natRepoFile(t, "testdata/cobol/loop.cob")
	line := natLineOf(t, src, "ADD WS-SQUARE TO WS-TOTAL")
	c, st, f := natBreakAt(t, a, Target{Mode: Launch, Program: src}, src, line)
	l := c.locals(f.ID)
	want := map[string]string{"WS-TOTAL": "100", "WS-I": "0", "WS-SQUARE": "0", "WS-NAME": `"COBOL     "`, "WS-REC": `"000wABC"`}
	for k, v := range want {
		if l[k].Value != v {
			t.Errorf("%s = %q, want %q (locals %+v)", k, l[k].Value, v, l)
		}
	}
	rec := c.vars(l["WS-REC"].VariablesReference)
	if rec["WS-COUNT"].Value != "-7" || rec["WS-CODE"].Value != `"ABC"` {
		t.Errorf("WS-REC children %+v, want WS-COUNT=-7 WS-CODE=\"ABC\"", rec)
	}
	if l["WS-SQUARE"].Type != "PIC S9(5) COMP-3" {
		t.Errorf("WS-SQUARE type %q", l["WS-SQUARE"].Type)
	}
	// Next iteration: the paragraph has squared WS-I.
	c.req("continue", map[string]any{"threadId": st.ThreadID})
	st = c.stopped(30 * time.Second)
	f = c.topFrame(st.ThreadID)
	l = c.locals(f.ID)
	if l["WS-I"].Value != "1" || l["WS-SQUARE"].Value != "1" || l["WS-TOTAL"].Value != "100" {
		t.Errorf("second stop: WS-I=%q WS-SQUARE=%q WS-TOTAL=%q, want 1 1 100", l["WS-I"].Value, l["WS-SQUARE"].Value, l["WS-TOTAL"].Value)
	}
	if got := c.evaluate("ws-square", f.ID); got != "1" {
		t.Errorf("evaluate ws-square = %q, want 1", got)
	}
	c.req("next", map[string]any{"threadId": st.ThreadID})
	st2 := c.stopped(30 * time.Second)
	f2 := c.topFrame(st2.ThreadID)
	if f2.Line != line+1 || f2.Source.Path != src {
		t.Errorf("step went to %s:%d, want %s:%d (the DISPLAY)", f2.Source.Path, f2.Line, src, line+1)
	}
	if got := c.evaluate("WS-TOTAL", f2.ID); got != "101" {
		t.Errorf("after the ADD, WS-TOTAL = %q, want 101", got)
	}
	// Set items by COBOL name: the program goes on with the new values.
	l = c.locals(f2.ID)
	ws := c.scopeRef(f2.ID)
	set := c.req("setVariable", map[string]any{"variablesReference": ws, "name": "WS-TOTAL", "value": "1000"})
	if !strings.Contains(string(set.Body), `"value":"1000"`) {
		t.Errorf("setVariable WS-TOTAL answered %s", set.Body)
	}
	c.req("setVariable", map[string]any{"variablesReference": ws, "name": "WS-NAME", "value": `"HI"`})
	if _, err := c.conn.Request(context.Background(), "setVariable", map[string]any{"variablesReference": ws, "name": "WS-I", "value": "1000"}); err == nil {
		t.Error("WS-I (PIC 9(3)) accepted 1000")
	}
	if code := c.runToEnd(st.ThreadID, src); code != 0 {
		t.Errorf("exit code %d", code)
	}
	c.waitEvent("terminated", 15*time.Second, nil)
	if out := c.Output(); !strings.Contains(out, "HI         I=001 TOTAL=01000") || !strings.Contains(out, "DONE TOTAL=01029") {
		t.Errorf("output %q lacks the set values (HI ... TOTAL=01000, DONE TOTAL=01029)", out)
	}
}

// scopeRef returns the variablesReference of frame's first scope.
func (c *natClient) scopeRef(frame int) int {
	c.t.Helper()
	resp := c.req("scopes", map[string]any{"frameId": frame})
	var sc struct {
		Scopes []struct {
			VariablesReference int `json:"variablesReference"`
		} `json:"scopes"`
	}
	_ = resp.DecodeBody(&sc)
	if len(sc.Scopes) == 0 {
		c.t.Fatalf("no scopes: %s", resp.Body)
	}
	return sc.Scopes[0].VariablesReference
}

func TestCOBOLAttach(t *testing.T) {
	t.Parallel()
	natNeedCOBOL(t)
	src := natRepoFile(t, "testdata/cobol/spin.cob")
	prog, err := cobol.Build(context.Background(), src)
	if err != nil {
		t.Fatal(err)
	}
	natAttachBinary(t, NewCOBOL(), prog.Binary, Target{Mode: Attach, Program: src})
}

func TestCOBOLBuildError(t *testing.T) {
	t.Parallel()
	natNeedCOBOL(t)
	_, err := NewCOBOL().LaunchArgs(context.Background(), Target{Mode: Launch, Program: natRepoFile(t, "testdata/cobol/broken.cob")})
	if err == nil || !strings.Contains(err.Error(), "broken.cob:") || !strings.Contains(strings.ToLower(err.Error()), "error") {
		t.Errorf("error %v lacks cobc's message", err)
	}
}

func TestCOBOLMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	natWantMissing(t, NewCOBOL(), Target{Mode: Launch, Program: "x.cob"})
}

// TestCOBOLAttachNames attaches to a running COBOL program with
// stopOnEntry and reads its WORKING-STORAGE by COBOL name in the COBOL
// frame of the paused stack.
func TestCOBOLAttachNames(t *testing.T) {
	t.Parallel()
	natNeedCOBOL(t)
	src := natRepoFile(t, "testdata/cobol/spin.cob")
	t.Run("source given", func(t *testing.T) { cobolAttachNames(t, src, src) })
	// Without the source, the layout is found beside the running binary.
	t.Run("by pid only", func(t *testing.T) { cobolAttachNames(t, src, "") })
}

func cobolAttachNames(t *testing.T, src, program string) {
	a := NewCOBOL()
	prog, err := cobol.Build(context.Background(), src)
	if err != nil {
		t.Fatal(err)
	}
	cmd := natSpin(t, prog.Binary)
	time.Sleep(300 * time.Millisecond)
	target := Target{Mode: Attach, PID: cmd.Process.Pid, Program: program, StopOnEntry: true}
	c := natAttach(t, a, target)
	st := c.stopped(30 * time.Second)
	if st.Reason != "pause" {
		t.Errorf("attach stop reason %q, want pause", st.Reason)
	}
	resp := c.req("stackTrace", map[string]any{"threadId": st.ThreadID, "startFrame": 0, "levels": 30})
	var body struct {
		StackFrames []natFrame `json:"stackFrames"`
	}
	_ = resp.DecodeBody(&body)
	var frame *natFrame
	for i := range body.StackFrames {
		if body.StackFrames[i].Source.Path == src {
			frame = &body.StackFrames[i]
			break
		}
	}
	if frame == nil {
		t.Fatalf("no frame in %s: %+v", src, body.StackFrames)
	}
	tick := c.locals(frame.ID)["WS-TICK"].Value
	if tick == "" || tick == "0" || strings.Trim(tick, "0123456789") != "" {
		t.Errorf("WS-TICK = %q, want a positive count", tick)
	}
	c.req("disconnect", map[string]any{"terminateDebuggee": false})
	c.close()
	time.Sleep(200 * time.Millisecond)
	if natIsZombie(cmd.Process.Pid) {
		t.Error("program died after detach")
	}
}

func TestCOBOLRuntimeError(t *testing.T) {
	t.Parallel()
	natNeedCOBOL(t)
	src := natRepoFile(t, "testdata/cobol/crash.cob")
	natExceptionScenario(t, NewCOBOL(), Target{Mode: Launch, Program: src}, src, natLineOf(t, src, `CALL "NOSUCHPROG"`), 1)
}

// TestCOBOLStepOutOfParagraph steps out of a PERFORMed paragraph: the
// stop is the PERFORM statement, not the end of the program.
func TestCOBOLStepOutOfParagraph(t *testing.T) {
	t.Parallel()
	natNeedCOBOL(t)
	a := NewCOBOL()
	src := natRepoFile(t, "testdata/cobol/loop.cob")
	compute := natLineOf(t, src, "COMPUTE WS-SQUARE")
	perform := natLineOf(t, src, "PERFORM SQUARE-PARA")
	c, st, _ := natBreakAt(t, a, Target{Mode: Launch, Program: src}, src, compute)
	c.req("setBreakpoints", map[string]any{"source": map[string]any{"path": src}, "breakpoints": []any{}})
	c.req("stepOut", map[string]any{"threadId": st.ThreadID})
	st = c.stopped(30 * time.Second)
	f := c.topFrame(st.ThreadID)
	if st.Reason != "step" || f.Line != perform || f.Source.Path != src {
		t.Fatalf("step out stopped (%s, %q) at %s:%d, want a step at %s:%d", st.Reason, st.Description, f.Source.Path, f.Line, src, perform)
	}
	if got := c.evaluate("WS-SQUARE", f.ID); got != "0" {
		t.Errorf("WS-SQUARE = %q after the paragraph for WS-I=0", got)
	}
	c.req("next", map[string]any{"threadId": st.ThreadID})
	st = c.stopped(30 * time.Second)
	if f := c.topFrame(st.ThreadID); f.Line != perform+1 {
		t.Errorf("next after step out went to line %d, want %d", f.Line, perform+1)
	}
	// The program runs to its end.
	c.req("continue", map[string]any{"threadId": st.ThreadID})
	c.waitEvent("terminated", 30*time.Second, nil)
}

// TestCOBOLStepOverPerform steps over a PERFORM: the paragraph runs and
// the stop is the next statement, not the paragraph's first line.
func TestCOBOLStepOverPerform(t *testing.T) {
	t.Parallel()
	natNeedCOBOL(t)
	a := NewCOBOL()
	src := natRepoFile(t, "testdata/cobol/loop.cob")
	perform := natLineOf(t, src, "PERFORM SQUARE-PARA")
	c, st, _ := natBreakAt(t, a, Target{Mode: Launch, Program: src}, src, perform)
	c.req("continue", map[string]any{"threadId": st.ThreadID})
	st = c.stopped(30 * time.Second)
	f := c.topFrame(st.ThreadID)
	if f.Line != perform || c.evaluate("WS-I", f.ID) != "1" {
		t.Fatalf("second stop at line %d (WS-I %s), want line %d with WS-I 1", f.Line, c.evaluate("WS-I", f.ID), perform)
	}
	c.req("setBreakpoints", map[string]any{"source": map[string]any{"path": src}, "breakpoints": []any{}})
	c.req("next", map[string]any{"threadId": st.ThreadID})
	st = c.stopped(30 * time.Second)
	f = c.topFrame(st.ThreadID)
	if st.Reason != "step" || f.Line != perform+1 {
		t.Fatalf("next over the PERFORM stopped (%s) at line %d, want a step at %d", st.Reason, f.Line, perform+1)
	}
	if got := c.evaluate("WS-SQUARE", f.ID); got != "1" {
		t.Errorf("WS-SQUARE = %q after stepping over the PERFORM, want 1", got)
	}
	c.req("continue", map[string]any{"threadId": st.ThreadID})
	c.waitEvent("terminated", 30*time.Second, nil)
}

// TestCOBOLConditions sets breakpoints whose condition and log message
// speak COBOL names.
func TestCOBOLConditions(t *testing.T) {
	t.Parallel()
	natNeedCOBOL(t)
	a := NewCOBOL()
	src := natRepoFile(t, "testdata/cobol/loop.cob")
	add := natLineOf(t, src, "ADD WS-SQUARE TO WS-TOTAL")
	display := natLineOf(t, src, `DISPLAY WS-NAME " I="`)
	compute := natLineOf(t, src, "COMPUTE WS-SQUARE")
	target := Target{Mode: Launch, Program: src}
	c, args := natLaunch(t, a, target)
	call, _ := c.open("launch", args)
	resp := c.req("setBreakpoints", map[string]any{"source": map[string]any{"path": src}, "breakpoints": []any{
		map[string]any{"line": add, "condition": "WS-I >= 1", "hitCondition": "2"},
		map[string]any{"line": display, "logMessage": "log i={ws-i} total={WS-TOTAL}"},
		map[string]any{"line": compute, "condition": "WS-NOPE = 1"},
	}})
	var bps struct {
		Breakpoints []struct {
			Verified bool   `json:"verified"`
			Message  string `json:"message"`
		} `json:"breakpoints"`
	}
	_ = resp.DecodeBody(&bps)
	if len(bps.Breakpoints) != 3 || !bps.Breakpoints[0].Verified || bps.Breakpoints[2].Verified || !strings.Contains(bps.Breakpoints[2].Message, "WS-NOPE") {
		t.Errorf("setBreakpoints answered %s", resp.Body)
	}
	c.configured(call, 30*time.Second)
	st := c.stopped(30 * time.Second)
	f := c.topFrame(st.ThreadID)
	// The second time WS-I >= 1 holds: WS-I = 2.
	if f.Line != add || c.evaluate("WS-I", f.ID) != "2" {
		t.Fatalf("stopped at line %d with WS-I %s, want line %d with WS-I 2", f.Line, c.evaluate("WS-I", f.ID), add)
	}
	// A new condition replaces the old one.
	c.req("setBreakpoints", map[string]any{"source": map[string]any{"path": src}, "breakpoints": []any{
		map[string]any{"line": add, "condition": "WS-I = 4 AND WS-NAME = \"COBOL\""},
		map[string]any{"line": display, "logMessage": "log i={ws-i} total={WS-TOTAL}"},
	}})
	c.req("continue", map[string]any{"threadId": st.ThreadID})
	st = c.stopped(30 * time.Second)
	f = c.topFrame(st.ThreadID)
	if f.Line != add || c.evaluate("WS-I", f.ID) != "4" {
		t.Errorf("second stop at line %d with WS-I %s, want line %d with WS-I 4", f.Line, c.evaluate("WS-I", f.ID), add)
	}
	c.runToEnd(st.ThreadID, src)
	c.waitEvent("terminated", 30*time.Second, nil)
	logs := c.outputLines("log i=")
	want := []string{"log i=0 total=100", "log i=1 total=101", "log i=2 total=105", "log i=3 total=114"}
	if strings.Join(logs, "|") != strings.Join(want, "|") {
		t.Errorf("log points printed %q, want %q", logs, want)
	}
	if !strings.Contains(c.Output(), "DONE TOTAL=00130") {
		t.Errorf("output %q", c.Output())
	}
}
