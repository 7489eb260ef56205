package nodedap

import (
	"strings"
	"testing"
)

func TestLaunchLoop(t *testing.T) {
	c := newClient(t)
	script := fixture(t, "loop.js")
	line := lineOf(t, script, "BP:loop")
	c.launch(map[string]any{"program": script})
	bps := c.setBreakpoints(script, map[string]any{"line": line})
	if len(bps) != 1 || !bps[0].Verified || bps[0].Line != line {
		t.Fatalf("breakpoints %+v", bps)
	}
	c.req("setExceptionBreakpoints", map[string]any{"filters": []string{"uncaught"}})
	c.req("configurationDone", nil)

	st := c.stopped()
	want(t, "reason", st.Reason, "breakpoint")
	if len(st.HitBreakpointIDs) != 1 || st.HitBreakpointIDs[0] != bps[0].ID {
		t.Fatalf("hitBreakpointIds %v, want [%d]", st.HitBreakpointIDs, bps[0].ID)
	}
	f := c.frames()[0]
	want(t, "path", f.Source.Path, script)
	want(t, "line", f.Line, line)
	loc := c.locals()
	want(t, "i", loc["i"].Value, "0")
	want(t, "total", loc["total"].Value, "0")

	c.req("continue", map[string]any{"threadId": 1})
	want(t, "reason", c.stopped().Reason, "breakpoint")
	f = c.frames()[0]
	want(t, "i", c.locals()["i"].Value, "1")
	want(t, "i*10", c.eval("i * 10", f.ID).Value, "10")
	want(t, "string", c.eval("`t=${total}`", f.ID).Value, `"t=0"`)

	// setVariable changes what the program computes next.
	ref := c.scopes(f.ID)["Local"]
	m := c.req("setVariable", map[string]any{"variablesReference": ref, "name": "i", "value": "3"})
	want(t, "setVariable", body[struct{ Value string }](t, m).Value, "3")

	// Step over: the next line of the loop body.
	c.req("next", map[string]any{"threadId": 1})
	want(t, "reason", c.stopped().Reason, "step")
	want(t, "line after next", c.frames()[0].Line, line+1)

	c.setBreakpoints(script)
	c.req("continue", map[string]any{"threadId": 1})
	ex := body[struct{ ExitCode int }](t, c.event("exited"))
	want(t, "exit code", ex.ExitCode, 0)
	c.event("terminated")
	out := c.outputText()
	for _, s := range []string{"i=3 total=3", "i=4 total=7", "done 7"} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q: %q", s, out)
		}
	}
	if strings.Contains(out, "Debugger") {
		t.Errorf("inspector noise in output: %q", out)
	}
}
