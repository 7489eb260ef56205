package sessiontools

import (
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
)

// A name that is no argument is refused naming the closest; id is taken
// where dbg's own list answers call the value id; reveal, which the
// toolbox reads itself, passes.
func TestArgumentNames(t *testing.T) {
	cs := connect(t)
	_, file, _, _ := runtime.Caller(0)
	prog := filepath.Join(filepath.Dir(file), "..", "..", "testdata", "mock", "loop.mock")
	id := call[sessionOut](t, cs, "create_debug_session", map[string]any{"language": "mock"}).SessionID
	bp := call[breakpointOut](t, cs, "set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 10})
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"remove_breakpoint", map[string]any{"sessionId": id, "breakpoint": bp.ID}, "breakpointId"},
		{"set_breakpoint", map[string]any{"sessionId": id, "path": prog, "line": 10}, ""},
		{"set_breakpoint", map[string]any{"sessionId": id, "file": prog, "lineNumber": 10}, "line"},
		{"evaluate_expression", map[string]any{"sessionId": id, "expr": "i"}, "expression"},
		{"close_debug_session", map[string]any{"session": id}, "sessionId"},
	} {
		env := callEnv(t, cs, c.tool, c.args)
		if env.Success || env.Error.Code != toolkit.CodeInvalidArgument || !strings.Contains(env.Error.Message, "unknown argument") {
			t.Errorf("%s %v: %+v", c.tool, c.args, env.Error)
			continue
		}
		if c.want != "" && (!slices.Equal(env.Error.AvailableOptions, []string{c.want}) || !strings.Contains(env.Error.Message, `"`+c.want+`"`)) {
			t.Errorf("%s %v: %s, options %v; want %q named", c.tool, c.args, env.Error.Message, env.Error.AvailableOptions, c.want)
		}
		if c.want == "" && !slices.Contains(env.Error.AvailableOptions, "file") {
			t.Errorf("%s %v: options %v, want the tool's arguments", c.tool, c.args, env.Error.AvailableOptions)
		}
	}
	if st := call[sessionOut](t, cs, "start_debugging", map[string]any{"sessionId": id, "scriptPath": prog}); st.State != sessions.StatePaused {
		t.Fatalf("start %+v", st)
	}
	frames := call[stackOut](t, cs, "get_stack_trace", map[string]any{"sessionId": id, "id": 1})
	if len(frames.StackFrames) == 0 {
		t.Fatal("no frames")
	}
	locals := call[localsOut](t, cs, "get_local_variables", map[string]any{"sessionId": id, "id": frames.StackFrames[0].ID, "reveal": true})
	if i := slices.IndexFunc(locals.Variables, func(v sessions.Variable) bool { return v.Name == "i" }); i < 0 || locals.Variables[i].Value != "1" {
		t.Fatalf("locals of frame id %d: %+v", frames.StackFrames[0].ID, locals.Variables)
	}
	if r := call[okOut](t, cs, "remove_breakpoint", map[string]any{"sessionId": id, "id": bp.ID}); !strings.Contains(r.Message, "removed") {
		t.Fatalf("remove_breakpoint {id}: %+v", r)
	}
	if l := call[breakpointsOut](t, cs, "list_breakpoints", map[string]any{"sessionId": id}); len(l.Breakpoints) != 0 {
		t.Fatalf("breakpoints after remove_breakpoint {id: %d}: %+v", bp.ID, l.Breakpoints)
	}
}
