package main

import (
	"strings"
	"testing"
)

// TestCrashStaysInspectable: a launched program that dies of a signal or
// a fatal panic stops at the crash, with its stack and locals, before it
// is reaped; continued, it ends, and the end names the signal.
func TestCrashStaysInspectable(t *testing.T) {
	t.Parallel()
	for _, cc := range []struct {
		lang, name string
		require    func(*testing.T)
		program    func(t *testing.T) string
		env        map[string]string
		src, mark  string
		locals     map[string]string
		signal     string // named by the end
	}{
		{lang: "c", name: "segv", require: requireLLDB, program: func(*testing.T) string { return td("c/crash.c") },
			src: "c/crash.c", mark: "CRASH", locals: map[string]string{"k": "7"}, signal: "SIGSEGV"},
		{lang: "rust", name: "panic-abort", require: requireCargo, program: rustCrash,
			src: "rustcore/crash.rs", mark: "CRASH", locals: map[string]string{"amount": "5", "left": "-4"}, signal: "SIGABRT"},
		{lang: "go", name: "gotraceback-crash", require: requireDelve, program: func(*testing.T) string { return td("go/crash") },
			env: map[string]string{"GOTRACEBACK": "crash"}, src: "go/crash/main.go", mark: "CRASH",
			locals: map[string]string{"amount": "5", "label": `"rent"`}, signal: "SIGABRT"},
	} {
		t.Run(cc.lang+"/"+cc.name, func(t *testing.T) {
			cc.require(t)
			t.Parallel()
			c := startDbg(t)
			id := c.ok("create_debug_session", map[string]any{"language": cc.lang}).str("sessionId")
			st := c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": cc.program(t), "env": cc.env, "waitMs": 30000})
			src, line := td(cc.src), mcpLine(t, td(cc.src), cc.mark)
			st = mcpPaused(t, c, id, st)
			if st.str("lastStop.reason") != "exception" || st.str("lastStop.location.file") != src || st.num("lastStop.location.line") != line {
				t.Fatalf("the crash stopped at %v, want an exception stop at %s:%d", st.get("lastStop"), src, line)
			}
			mcpCheckLocals(t, mcpLocals(t, c, id), cc.locals)
			if mcpFrameIn(t, c, id, 0, src, line) == nil {
				t.Errorf("no frame at the crash line in the stack")
			}
			end := c.ok("continue_execution", map[string]any{"sessionId": id, "waitMs": 30000})
			for end.str("state") == "paused" { // a panic's stop, then the signal's
				end = c.ok("continue_execution", map[string]any{"sessionId": id, "waitMs": 30000})
			}
			end = mcpEnded(t, c, id, end)
			if !strings.Contains(end.str("reason"), "killed by "+cc.signal) {
				t.Errorf("the end says %q, want it killed by %s", end.str("reason"), cc.signal)
			}
			c.ok("close_debug_session", map[string]any{"sessionId": id})
			mcpNoChildren(t, c)
		})
	}
}
