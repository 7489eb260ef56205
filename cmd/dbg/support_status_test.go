package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// supportWant is what get_debug_tools_status must say of a session's
// data breakpoints and traces.
type supportWant struct {
	lang, src, mark, program, output string
	data                             bool
	mode                             string
}

// TestMCPSupportStatus: get_debug_tools_status says, per session, whether
// set_data_breakpoint can work (and, where not, the reason the tool's
// refusal gives) and the mode add_trace's probes settle in, beside
// liveEdit; before the adapter starts, data breakpoints are not known.
func TestMCPSupportStatus(t *testing.T) {
	t.Parallel()
	c := startDbg(t)
	idle := c.ok("create_debug_session", map[string]any{"language": "mock", "name": "idle"}).str("sessionId")
	st := c.ok("get_debug_tools_status", map[string]any{"sessionId": idle})
	if st.get("sections.dataBreakpoints."+idle+".supported") != false || !strings.Contains(st.str("sections.dataBreakpoints."+idle+".reason"), "not started") {
		t.Errorf("a session not started: dataBreakpoints %v, want unsupported, not started", st.get("sections.dataBreakpoints."+idle))
	}
	c.ok("close_debug_session", map[string]any{"sessionId": idle})
	cases := []supportWant{
		{lang: "mock", src: "mock/loop.mock", mark: "let total = add(total, i)", output: "done total=6", data: true, mode: "stop"},
		{lang: "go", src: "go/loop/main.go", mark: "BREAK", program: "dir", output: "done total=3", data: true, mode: "log"},
		{lang: "python", src: "python/loop.py", mark: "BREAK", output: "done total=3", data: false, mode: "record"},
	}
	for _, w := range cases {
		t.Run(w.lang, func(t *testing.T) {
			switch w.lang {
			case "go":
				requireDelve(t)
			case "python":
				requireDebugpy(t)
			}
			src := fixture(t, w.src)
			prog := src
			if w.program == "dir" {
				prog = filepath.Dir(src)
			}
			id, _ := mcpLaunch(t, c, w.lang, src, []int{mcpLine(t, src, w.mark)}, prog, nil)
			st := c.ok("get_debug_tools_status", map[string]any{"sessionId": id})
			if got := st.get("sections.dataBreakpoints." + id + ".supported"); got != w.data {
				t.Errorf("dataBreakpoints.%s.supported = %v, want %v", id, got, w.data)
			}
			if got := st.str("sections.traces." + id + ".mode"); got != w.mode || st.get("sections.traces."+id+".supported") != true {
				t.Errorf("traces.%s = %v, want supported in mode %s", id, st.get("sections.traces."+id), w.mode)
			}
			if st.get("sections.liveEdit."+id) == nil {
				t.Errorf("the liveEdit section lacks session %s: %v", id, st.get("sections"))
			}
			if !w.data {
				reason := st.str("sections.dataBreakpoints." + id + ".reason")
				r := c.fail("set_data_breakpoint", map[string]any{"sessionId": id, "expression": "total"}, "UNSUPPORTED")
				if reason == "" || !strings.Contains(r.Error.Message, reason) {
					t.Errorf("status reason %q, refusal %q: want the refusal's reason", reason, r.Error.Message)
				}
			}
			mcpFinish(t, c, id, w.output)
		})
	}
}
