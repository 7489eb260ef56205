package main

import (
	"os/exec"
	"strings"
	"testing"
	"time"
)

// scenario is one language's walk through the core debugging tools.
type scenario struct {
	language  string
	program   string
	breakLine int
	nextLine  int               // the line after a step over
	locals    map[string]string // at the first stop
	evalExpr  string            // evaluated after the step
	evalWant  string
	output    string // printed by the end of the program
}

func runScenario(t *testing.T, sc scenario) {
	c := startDbg(t)
	s := c.ok("create_debug_session", map[string]any{"language": sc.language, "name": "e2e"})
	id := s.str("sessionId")
	if id == "" || s.str("state") != "created" {
		t.Fatalf("create: %v", s)
	}
	bp := c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": sc.program, "line": sc.breakLine})
	if bp.num("line") != sc.breakLine || bp.str("lineText") == "" {
		t.Fatalf("set_breakpoint: %v", bp)
	}
	st := c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": sc.program})
	if st.str("state") != "paused" {
		st = c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 30000})
	}
	if st.str("state") != "paused" || st.str("lastStop.reason") != "breakpoint" {
		t.Fatalf("first stop: %v", st)
	}
	if got := st.num("lastStop.location.line"); got != sc.breakLine {
		t.Fatalf("stopped at line %d, want %d", got, sc.breakLine)
	}

	stack := c.ok("get_stack_trace", map[string]any{"sessionId": id})
	top := stack.list("stackFrames")[0]
	if top.num("line") != sc.breakLine || top.str("file") != sc.program {
		t.Fatalf("top frame %v, want %s:%d", top, sc.program, sc.breakLine)
	}
	scopes := c.ok("get_scopes", map[string]any{"sessionId": id, "frameId": top.num("id")})
	if len(scopes.list("scopes")) == 0 || scopes.num("scopes.0.variablesReference") == 0 {
		t.Fatalf("scopes: %v", scopes)
	}
	vars := c.ok("get_variables", map[string]any{"sessionId": id, "scope": scopes.num("scopes.0.variablesReference")})
	if len(vars.list("variables")) == 0 {
		t.Fatalf("no variables in the first scope: %v", vars)
	}
	locals := c.ok("get_local_variables", map[string]any{"sessionId": id})
	got := map[string]string{}
	for _, v := range locals.list("variables") {
		got[v.str("name")] = v.str("value")
	}
	for name, want := range sc.locals {
		if got[name] != want {
			t.Errorf("local %s = %q, want %q (all: %v)", name, got[name], want, got)
		}
	}

	step := c.ok("step_over", map[string]any{"sessionId": id})
	if step.str("state") != "paused" || step.num("lastStop.location.line") != sc.nextLine {
		t.Fatalf("step_over: %v, want line %d", step, sc.nextLine)
	}
	if len(step.list("source")) == 0 {
		t.Errorf("step_over answered no source context: %v", step)
	}
	ev := c.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": sc.evalExpr})
	if ev.str("result") != sc.evalWant {
		t.Fatalf("evaluate %s = %q, want %q", sc.evalExpr, ev.str("result"), sc.evalWant)
	}

	info := c.ok("list_debug_sessions", nil).list("sessions")[0]
	pids := []int{info.num("pid"), info.num("adapterPid")}

	c.ok("clear_breakpoints", map[string]any{"sessionId": id})
	c.ok("continue_execution", map[string]any{"sessionId": id})
	end := c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 30000})
	if end.str("state") != "terminated" {
		t.Fatalf("after continue: %v", end)
	}
	out := c.ok("get_output", map[string]any{"sessionId": id})
	if !strings.Contains(out.str("text"), sc.output) {
		t.Fatalf("output %q does not contain %q", out.str("text"), sc.output)
	}
	c.ok("close_debug_session", map[string]any{"sessionId": id})
	waitGone(t, 5*time.Second, pids...)
	if kids := childrenOf(c.cmd.Process.Pid); len(kids) > 0 {
		t.Errorf("the server still has child processes after close: %v", kids)
	}
	c.fail("close_debug_session", map[string]any{"sessionId": id}, "SESSION_NOT_FOUND")
}

func TestMockScenario(t *testing.T) {
	runScenario(t, scenario{
		language: "mock", program: fixture(t, "mock/loop.mock"), breakLine: 10, nextLine: 11,
		locals:   map[string]string{"total": "0", "i": "1"},
		evalExpr: "total + 10", evalWant: "11", output: "done total=6",
	})
}

func requireTool(t *testing.T, name string, args ...string) {
	t.Helper()
	if err := exec.Command(name, args...).Run(); err != nil {
		t.Skipf("%s is not installed (scripts/install-test-deps.sh installs it): %v", name, err)
	}
}

func TestGoScenario(t *testing.T) {
	requireDelve(t)
	prog := fixture(t, "go/loop/main.go")
	line := markedLineT(t, prog, "BREAK")
	runScenario(t, scenario{
		language: "go", program: prog, breakLine: line, nextLine: line + 1,
		locals:   map[string]string{"total": "0", "i": "0"},
		evalExpr: "total + 10", evalWant: "10", output: "done total=3",
	})
}

func TestPythonScenario(t *testing.T) {
	requireDebugpy(t)
	prog := fixture(t, "python/loop.py")
	line := markedLineT(t, prog, "BREAK")
	runScenario(t, scenario{
		language: "python", program: prog, breakLine: line, nextLine: line + 1,
		locals:   map[string]string{"total": "0", "i": "0"},
		evalExpr: "total + 10", evalWant: "10", output: "done total=3",
	})
}

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

func requireDebugpy(t *testing.T) {
	t.Helper()
	requireTool(t, "python3", "-c", "import debugpy")
}
