package main

import (
	"strings"
	"testing"
	"time"
)

// childCase is a program that starts a child process which stops at a
// breakpoint in the child's code.
type childCase struct {
	name    string
	program string   // the parent, under testdata
	args    []string // its arguments
	argsFn  func(t *testing.T) []string
	file    string // the file holding the child's breakpoint, under testdata
	cmdline string // a text of the child's command line
	mark    string // the breakpoint's line
	locals  map[string]string
	output  []string // the parent's output once all ended
}

// childStop launches cc's program with a breakpoint in the child's code,
// waits on the parent and checks the stop is the child's, in a session of
// its own named by the answer, at the line, with the child's locals and
// listed with its parent, pid and command line. It returns the parent's
// and the child's session ids.
func childStop(t *testing.T, c *client, lang string, cc childCase, create map[string]any) (string, string) {
	t.Helper()
	file := fixture(t, cc.file)
	line := mcpLine(t, file, cc.mark)
	args := map[string]any{"language": lang, "name": "children-" + cc.name}
	for k, v := range create {
		args[k] = v
	}
	parent := c.ok("create_debug_session", args).str("sessionId")
	c.ok("set_breakpoint", map[string]any{"sessionId": parent, "file": file, "line": line})
	start := map[string]any{"sessionId": parent, "scriptPath": fixture(t, cc.program)}
	if len(cc.args) > 0 {
		start["args"] = cc.args
	}
	if cc.argsFn != nil {
		start["args"] = cc.argsFn(t)
	}
	c.ok("start_debugging", start)
	st := c.ok("wait_for_stop", map[string]any{"sessionId": parent, "timeoutMs": 60000})
	child := st.str("sessionId")
	if st.str("state") != "paused" || child == "" || child == parent {
		t.Fatalf("the wait on %s answered %v, want a stop in a child session", parent, st)
	}
	if st.str("lastStop.location.file") != file || st.num("lastStop.location.line") != line {
		t.Fatalf("child stop at %s:%d, want %s:%d (%v)", st.str("lastStop.location.file"), st.num("lastStop.location.line"), file, line, st)
	}
	mcpCheckLocals(t, mcpLocals(t, c, child), cc.locals)
	var listed obj
	for _, s := range c.ok("list_debug_sessions", nil).list("sessions") {
		if s.str("sessionId") == child {
			listed = s
		}
	}
	if listed == nil || listed.str("parentSessionId") != parent || listed.num("pid") <= 0 {
		t.Fatalf("child session %s listed as %v, want parentSessionId %s and a pid", child, listed, parent)
	}
	if cmd := listed.get("command"); cmd == nil || !strings.Contains(strings.Join(strs(cmd), " "), cc.cmdline) {
		t.Errorf("child %s lists command %v", child, cmd)
	}
	return parent, child
}

// strs reads a JSON list of strings.
func strs(v any) []string {
	var out []string
	l, _ := v.([]any)
	for _, e := range l {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// childFinish continues the child, waits on the parent until every
// session of the family ended, checks the parent's output and closes
// the parent, which leaves no session and no process.
func childFinish(t *testing.T, c *client, parent, child string, cc childCase) {
	t.Helper()
	c.ok("continue_execution", map[string]any{"sessionId": child})
	end := c.ok("wait_for_stop", map[string]any{"sessionId": parent, "timeoutMs": 60000})
	if end.str("state") != "terminated" {
		t.Fatalf("after the child's continue the family answered %v, want its end", end)
	}
	for _, want := range cc.output {
		mcpOutputHas(t, c, parent, want)
	}
	mcpOutputHas(t, c, parent, "child session "+child+" ended")
	c.ok("close_debug_session", map[string]any{"sessionId": parent})
	if n := len(c.ok("list_debug_sessions", nil).list("sessions")); n != 0 {
		t.Errorf("%d sessions left after closing the parent", n)
	}
	mcpNoChildren(t, c)
}

// pythonChildCases are the ways a Python program starts another.
var pythonChildCases = []childCase{
	{name: "subprocess", program: "python/children/subproc.py", file: "python/children/child.py", mark: "BP:child", cmdline: "child.py",
		locals: map[string]string{"n": "7", "square": "49", "label": "'child'"},
		output: []string{"child child square=49", "parent saw child exit 0"}},
	{name: "multiprocessing-fork", program: "python/children/mp.py", args: []string{"fork"}, file: "python/children/mp.py", mark: "BP:worker", cmdline: "mp.py",
		locals: map[string]string{"n": "6", "square": "36", "label": "'worker'"},
		output: []string{"worker worker square=36", "parent saw worker exit 0"}},
	{name: "multiprocessing-spawn", program: "python/children/mp.py", args: []string{"spawn"}, file: "python/children/mp.py", mark: "BP:worker", cmdline: "multiprocessing",
		locals: map[string]string{"n": "6", "square": "36", "label": "'worker'"},
		output: []string{"worker worker square=36", "parent saw worker exit 0"}},
	{name: "os.fork", program: "python/children/osfork.py", file: "python/children/osfork.py", mark: "BP:fork", cmdline: "osfork.py",
		locals: map[string]string{"n": "5", "square": "25", "label": "'forked'"},
		output: []string{"forked forked square=25", "parent saw fork exit 0"}},
	{name: "reloader", program: "python/children/reloader.py", file: "python/children/reloader.py", mark: "BP:app", cmdline: "reloader.py",
		locals: map[string]string{"port": "8000", "handled": "8001", "label": "'app'"},
		output: []string{"app serving handled=8001", "reloader saw app exit 0"}},
}

// TestPythonChildSessions: each way a Python program starts a child
// (subprocess of sys.executable, multiprocessing fork and spawn, os.fork,
// a reloader that re-executes itself) gives a child session that stops
// at the child's breakpoint with the child's locals; the parent's wait
// names it, the parent's output tells its end, and closing the parent
// leaves nothing running.
func TestPythonChildSessions(t *testing.T) {
	requireDebugpy(t)
	t.Parallel()
	c := startDbg(t)
	for _, cc := range pythonChildCases {
		t.Run(cc.name, func(t *testing.T) {
			parent, child := childStop(t, c.with(t), "python", cc, nil)
			childFinish(t, c.with(t), parent, child, cc)
		})
	}
}

// TestPythonChildStopAnswersTheStart: a launch that waits for its first
// stop answers the stop of a child session, naming the child, when the
// child stops before the program does.
func TestPythonChildStopAnswersTheStart(t *testing.T) {
	requireDebugpy(t)
	t.Parallel()
	c := startDbg(t)
	cc := pythonChildCases[0]
	file := fixture(t, cc.file)
	line := mcpLine(t, file, cc.mark)
	parent := c.ok("create_debug_session", map[string]any{"language": "python"}).str("sessionId")
	c.ok("set_breakpoint", map[string]any{"sessionId": parent, "file": file, "line": line})
	st := c.ok("start_debugging", map[string]any{"sessionId": parent, "scriptPath": fixture(t, cc.program), "waitMs": 120000})
	if st.str("state") != "paused" || st.str("lastStop.location.file") != file || st.num("lastStop.location.line") != line {
		t.Fatalf("the start answered %v, want the child's stop at %s:%d", st, file, line)
	}
	var child string
	for _, s := range c.ok("list_debug_sessions", nil).list("sessions") {
		if s.str("parentSessionId") == parent {
			child = s.str("sessionId")
		}
	}
	if child == "" || !strings.Contains(st.str("message"), "child session "+child) {
		t.Fatalf("the start's message %q does not name the child session %q", st.str("message"), child)
	}
	mcpCheckLocals(t, mcpLocals(t, c, child), cc.locals)
	childFinish(t, c, parent, child, cc)
}

// TestPythonChildProcessesOff: with childProcesses: false the child runs
// undebugged: its breakpoint never stops it, and the program ends.
func TestPythonChildProcessesOff(t *testing.T) {
	requireDebugpy(t)
	t.Parallel()
	c := startDbg(t)
	cc := pythonChildCases[0]
	file := fixture(t, cc.file)
	id := c.ok("create_debug_session", map[string]any{"language": "python", "childProcesses": false}).str("sessionId")
	c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": file, "line": mcpLine(t, file, cc.mark)})
	st := c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": fixture(t, cc.program)})
	mcpEnded(t, c, id, st)
	mcpOutputHas(t, c, id, "parent saw child exit 0")
	if n := len(c.ok("list_debug_sessions", nil).list("sessions")); n != 1 {
		t.Errorf("%d sessions with childProcesses false, want 1", n)
	}
	c.ok("close_debug_session", map[string]any{"sessionId": id})
	mcpNoChildren(t, c)
}

// goChildCase is a Go program that execs a Go child built for debugging.
var goChildCase = childCase{name: "exec", program: "go/children/parent",
	argsFn: func(t *testing.T) []string { return []string{goBinary(t, td("go/children/child"))} },
	file:   "go/children/child/main.go", mark: "BP:child", cmdline: "go-child 7",
	locals: map[string]string{"n": "7", "square": "49", "label": `"child"`},
	output: []string{"child child square=49", "parent saw child exit 0"}}

// TestGoChildSession: delve follows the child a Go program execs; the
// child, built with -N -l, stops at its breakpoint in a child session.
func TestGoChildSession(t *testing.T) {
	requireDelve(t)
	t.Parallel()
	c := startDbg(t)
	parent, child := childStop(t, c, "go", goChildCase, nil)
	childFinish(t, c, parent, child, goChildCase)
}

// nodeChildCase is a node program that forks another.
var nodeChildCase = childCase{name: "fork", program: "javascript/children/parent.js", args: []string{"fork"},
	file: "javascript/children/child.js", mark: "BP:child", cmdline: "child.js",
	locals: map[string]string{"how": `"fork"`},
	output: []string{"child says fork child 42", "child exit 0"}}

// nodeChildCases are the ways a node program starts another node.
var nodeChildCases = []childCase{
	nodeChildCase,
	{name: "spawn", program: "javascript/children/parent.js", args: []string{"spawn"},
		file: "javascript/children/child.js", mark: "BP:child", cmdline: "child.js",
		locals: map[string]string{"how": `"spawn"`}, output: []string{"child says spawn child 42", "child exit 0"}},
	{name: "cluster", program: "javascript/children/cluster.js", file: "javascript/children/cluster.js", mark: "BP:cluster",
		cmdline: "cluster.js", locals: map[string]string{"id": "1"}, output: []string{"cluster worker 1 total 42", "worker exit 0"}},
}

// TestNodeChildSessions: a node program's fork, spawn of node and
// cluster worker each stop at their breakpoint in a child session.
func TestNodeChildSessions(t *testing.T) {
	requireNode(t)
	t.Parallel()
	c := startDbg(t)
	for _, cc := range nodeChildCases {
		t.Run(cc.name, func(t *testing.T) {
			parent, child := childStop(t, c.with(t), "javascript", cc, nil)
			childFinish(t, c.with(t), parent, child, cc)
		})
	}
}

// TestNodeWorkerThread: a worker thread is a thread of its program's
// session, and stops there at its breakpoint with its values.
func TestNodeWorkerThread(t *testing.T) {
	requireNode(t)
	t.Parallel()
	c := startDbg(t)
	file := fixture(t, "javascript/children/threads.js")
	line := mcpLine(t, file, "BP:thread")
	id, st := mcpLaunch(t, c, "javascript", file, []int{line}, file, nil)
	if st.num("lastStop.location.line") != line || answerSession(st, id) != id || st.num("lastStop.threadId") == 1 {
		t.Fatalf("the worker's stop %v, want line %d in the session itself", st, line)
	}
	if got := mcpEval(t, c, id, "workerData * 2"); got != "12" {
		t.Errorf("workerData * 2 = %q in the worker, want 12", got)
	}
	c.ok("clear_breakpoints", map[string]any{"sessionId": id})
	mcpRunToEnd(t, c, id)
	mcpOutputHas(t, c, id, "main got 36")
	c.ok("close_debug_session", map[string]any{"sessionId": id})
	mcpNoChildren(t, c)
}

// TestNodeChildProcessesOff: with childProcesses: false a forked child
// runs at once, undebugged, and the program ends.
func TestNodeChildProcessesOff(t *testing.T) {
	requireNode(t)
	t.Parallel()
	c := startDbg(t)
	file := fixture(t, "javascript/children/child.js")
	id := c.ok("create_debug_session", map[string]any{"language": "javascript", "childProcesses": false}).str("sessionId")
	c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": file, "line": mcpLine(t, file, "BP:child")})
	start := time.Now()
	st := c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": fixture(t, "javascript/children/parent.js"), "args": []string{"fork"}})
	mcpEnded(t, c, id, st)
	mcpOutputHas(t, c, id, "child exit 0")
	if d := time.Since(start); d > 8*time.Second {
		t.Errorf("the undebugged child took %s: it waited for a debugger", d)
	}
	if n := len(c.ok("list_debug_sessions", nil).list("sessions")); n != 1 {
		t.Errorf("%d sessions with childProcesses false, want 1", n)
	}
	c.ok("close_debug_session", map[string]any{"sessionId": id})
	mcpNoChildren(t, c)
}
