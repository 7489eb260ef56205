package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The reload scenario: hot_reload of a running program (its ticker
// fixture), and the live-edit flow of a stopped one (its fix fixture,
// testdata/java/Price.java and its kin). Each edit goes to a copy of the
// fixture.

// reloadCase is a language's two reload fixtures. copy's program prints
// a greeting over and over from a function the scenario replaces while
// the program runs: the line marked "RELOAD: greeting" returns 'old ' +
// n, the edit makes it 'new '.
type reloadCase struct {
	copy func(t *testing.T) string // copies the program; returns the copy of the edited source
	fix  fixCase
}

// fixCase is a program whose total, at the line marked "BP:wrong",
// returns one too many (qty * unit is 12): stopped there, the copy is
// fixed and reloaded with the frame restarted; then an edit the runtime
// cannot replace is refused, and the program prints the right total.
// Before total, main (at "BP:main") evaluates without side effects and
// countdown(3) restarts its frame in the middle of its loop (at
// "BP:loop"), where the fixture declares them.
type fixCase struct {
	copy         func(t *testing.T) string // copies the program; returns the copy of the edited source
	first        string                    // a text on total's first line
	bad, good    string                    // the bug, and its fix
	right, wrong string                    // printed once fixed, and while not
	refuse       []edit                    // an edit the runtime cannot replace
	says         []string                  // texts of its refusal
	named        bool                      // the refused hot_reload names the file (default: none, all changed since the start)
	safe         *safeCase                 // at "BP:main" (nil: no main stop)
	restart      string                    // a text on countdown's first line ("": no countdown)
	output       string                    // printed too by the program's end
}

// edit replaces old with new in a file.
type edit struct{ old, new string }

// copied copies one testdata file into a temporary folder.
func copied(rel string) func(t *testing.T) string {
	return func(t *testing.T) string { return copyFixture(t, rel) }
}

// copyFixture copies testdata files into a temporary folder and returns
// the copy of the first.
func copyFixture(t *testing.T, rels ...string) string {
	t.Helper()
	dir := t.TempDir()
	var first string
	for _, rel := range rels {
		b, err := os.ReadFile(td(rel))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, filepath.Base(rel))
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if first == "" {
			first = p
		}
	}
	return first
}

// tsProject copies the files of testdata/javascript/livets (paths under
// it) and its tsconfig.json into a project of its own, whose compiler is
// node_modules/.bin/tsc as in a real project, builds it and returns the
// copy of the first file.
func tsProject(t *testing.T, files ...string) string {
	t.Helper()
	dir := os.Getenv("DBG_TS_DIR")
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".cache", "dbg-test", "ts")
	}
	modules := filepath.Join(dir, "node_modules")
	if _, err := os.Stat(filepath.Join(modules, ".bin", "tsc")); err != nil {
		t.Skipf("tsc is not installed in %s (scripts/deps/node.sh installs it)", dir)
	}
	project := t.TempDir()
	for _, rel := range append([]string{"tsconfig.json"}, files...) {
		b, err := os.ReadFile(td("javascript/livets/" + rel))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(project, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(modules, filepath.Join(project, "node_modules")); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(filepath.Join(modules, ".bin", "tsc"), "-p", project).CombinedOutput(); err != nil {
		t.Fatalf("tsc: %v\n%s", err, out)
	}
	return filepath.Join(project, files[0])
}

// editFile replaces old with new in path.
func editFile(t *testing.T, path, old, new string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s has no %q", path, old)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// scenarioReload runs the running and the stopped flows.
func scenarioReload(t *testing.T, c *client, l *lang) {
	t.Run("running", func(t *testing.T) { reloadRunning(t, scenarioClient(t, c), l) })
	t.Run("stopped", func(t *testing.T) { reloadStopped(t, scenarioClient(t, c), l) })
}

// reloadRunning: hot_reload while the program runs replaces the code,
// the calls after it print the new greeting, and the program never
// stopped; restartFrames, which needs a stop, is refused while it runs.
func reloadRunning(t *testing.T, c *client, l *lang) {
	if l.reload.copy == nil {
		t.Fatalf("%s declares no reload fixture", l.name)
	}
	src := l.reload.copy(t)
	id := c.ok("create_debug_session", map[string]any{"language": l.name}).str("sessionId")
	if st := c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src}); st.str("state") != "running" {
		t.Fatalf("start: %v, want running", st)
	}
	pids := mcpPIDs(t, c)
	mcpOutputHas(t, c, id, "old ")
	r := c.fail("hot_reload", map[string]any{"sessionId": id, "restartFrames": true}, "INVALID_STATE")
	if !strings.Contains(r.Error.Message, "restartFrames") {
		t.Errorf("restartFrames while running: %q, want it to name restartFrames", r.Error.Message)
	}
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	at := mcpLine(t, src, "RELOAD: greeting") - 1
	lines[at] = strings.Replace(lines[at], "old ", "new ", 1)
	if err := os.WriteFile(src, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	hr := c.ok("hot_reload", map[string]any{"sessionId": id, "files": []string{src}})
	if len(hr.list("replaced")) == 0 || len(hr.list("refused")) != 0 || hr.str("now.state") != "running" {
		t.Fatalf("hot_reload while running answered %v, want the code replaced and the program running", hr)
	}
	mcpOutputHas(t, c, id, "new ")
	if st := c.ok("list_debug_sessions", nil).list("sessions")[0]; st.str("state") != "running" || st.get("lastStop") != nil {
		t.Errorf("after hot_reload the session is %v, want running and never stopped", st)
	}
	mcpClose(t, c, id, pids)
}

// reloadStopped is the fix fixture's flow, in one launch: main's
// evaluations without side effects, countdown's restarted frame, total
// fixed and its frame restarted, the refused edit; then the program runs
// to its end printing the right total.
func reloadStopped(t *testing.T, c *client, l *lang) {
	f := l.reload.fix
	if f.copy == nil {
		t.Fatalf("%s declares no fix fixture", l.name)
	}
	src := f.copy(t)
	wrong := mcpLine(t, src, "BP:wrong")
	lines := []int{wrong}
	if f.safe != nil {
		lines = append(lines, mcpLine(t, src, "BP:main"))
	}
	loop := 0
	if f.restart != "" {
		loop = mcpLine(t, src, "BP:loop")
		lines = append(lines, loop)
	}
	id, st := mcpLaunch(t, c, l.name, src, lines, src, nil)
	at := func(line int) {
		t.Helper()
		if st.num("lastStop.location.line") != line {
			t.Fatalf("stop %v, want line %d", st.get("lastStop"), line)
		}
	}
	if f.safe != nil {
		at(mcpLine(t, src, "BP:main"))
		checkSafe(t, c, id, *f.safe)
		st = mcpPaused(t, c, id, c.ok("continue_execution", map[string]any{"sessionId": id}))
	}
	if f.restart != "" {
		at(loop)
		restartCountdown(t, c, id, src, f.restart)
		removeBreakpointAt(t, c, id, loop)
		st = mcpPaused(t, c, id, c.ok("continue_execution", map[string]any{"sessionId": id}))
	}
	at(wrong)
	if got := mcpEval(t, c, id, "sum"); got != "12" {
		t.Fatalf("sum = %q at the stop, want 12", got)
	}
	first := mcpLine(t, src, f.first)
	editFile(t, src, f.bad, f.good)
	r := c.ok("hot_reload", map[string]any{"sessionId": id, "files": []string{src}, "restartFrames": true})
	if len(r.list("replaced")) == 0 || len(r.list("refused")) != 0 {
		t.Fatalf("hot_reload answered %v, want the file replaced and nothing refused", r)
	}
	if !strings.Contains(r.str("restartedFrame"), "total") || r.str("now.state") != "paused" {
		t.Fatalf("hot_reload answered %v, want the frame restarted and stopped", r)
	}
	if got := r.num("now.lastStop.location.line"); got != first {
		t.Errorf("the restarted frame stopped at line %d, want its first line %d (%v)", got, first, r.get("now"))
	}
	reloadRefused(t, c, id, src, f)
	mcpTop(t, c, id, src, first)
	c.ok("clear_breakpoints", map[string]any{"sessionId": id})
	pids := mcpPIDs(t, c)
	mcpRunToEnd(t, c, id)
	mcpOutputHas(t, c, id, f.right)
	mcpOutputHas(t, c, id, f.output)
	if out := c.ok("get_output", map[string]any{"sessionId": id}).str("text"); strings.Contains(out, f.wrong) {
		t.Errorf("output %q contains %q: the fixed code did not run", out, f.wrong)
	}
	mcpClose(t, c, id, pids)
}

// reloadRefused makes the edit the runtime cannot replace: hot_reload
// (no files, everything changed since the session started, unless the
// case names its file) fails naming what it refused, nothing replaced,
// still paused. The source is then
// put back as it runs.
func reloadRefused(t *testing.T, c *client, id, src string, f fixCase) {
	t.Helper()
	fixed, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range f.refuse {
		editFile(t, src, e.old, e.new)
	}
	args := map[string]any{"sessionId": id, "restartFrames": true}
	if f.named {
		args["files"] = []string{src}
	}
	r := c.fail("hot_reload", args, "UNSUPPORTED")
	for _, s := range f.says {
		if !strings.Contains(r.Error.Message, s) {
			t.Errorf("refusal %q does not say %q", r.Error.Message, s)
		}
	}
	d := obj(r.Data)
	if len(d.list("replaced")) != 0 || len(d.list("refused")) == 0 || d.str("now.state") != "paused" {
		t.Errorf("refused hot_reload answered %v, want nothing replaced, the refusal listed, still paused", d)
	}
	if err := os.WriteFile(src, fixed, 0o644); err != nil {
		t.Fatal(err)
	}
}

// removeBreakpointAt removes the session's breakpoint at line.
func removeBreakpointAt(t *testing.T, c *client, id string, line int) {
	t.Helper()
	for _, bp := range c.ok("list_breakpoints", map[string]any{"sessionId": id}).list("breakpoints") {
		if bp.num("line") == line {
			c.ok("remove_breakpoint", map[string]any{"sessionId": id, "breakpointId": bp.num("id")})
			return
		}
	}
	t.Fatalf("no breakpoint at line %d", line)
}

// refusedReload: the language has no hot reload; a running program's
// hot_reload says so, and names restart_debugging to run an edit.
func refusedReload(t *testing.T, c *client, l *lang, r refusal) {
	id := c.ok("create_debug_session", map[string]any{"language": l.name}).str("sessionId")
	if st := c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": td(l.spin.program), "args": l.spin.args}); st.str("state") != "running" {
		t.Fatalf("start: %v, want running", st)
	}
	pids := mcpPIDs(t, c)
	got := c.fail("hot_reload", map[string]any{"sessionId": id}, r.code)
	checkRefusal(t, got, r)
	if !strings.Contains(got.Error.Hint, "restart_debugging") {
		t.Errorf("hot_reload refusal %+v, want it to name restart_debugging", got.Error)
	}
	mcpClose(t, c, id, pids)
}
