package main

import (
	"fmt"
	"testing"
	"time"
)

// At the console under lldb, `watch counter` then `continue` stops where
// bump writes counter and prints the expression, its old and new values
// and the writing frame, then the source with the writing line marked.
func TestConsoleWatchC(t *testing.T) {
	t.Parallel()
	requireLLDB(t)
	prog := fixture(t, "c/watch.c")
	writes := mcpLine(t, prog, "WATCH: writes")
	tm := consoleLaunchAt(t, prog, "WATCH: set")
	tm.command("delete")
	tm.expect("deleted every breakpoint", 30*time.Second)
	tm.command("watch counter")
	tm.expect("watchpoint on counter", 30*time.Second)
	tm.command("continue")
	tm.expect("stopped: data breakpoint", 60*time.Second)
	tm.expect(fmt.Sprintf(": counter 1 → 5 (in bump at watch.c:%d)", writes), 10*time.Second)
	tm.expect(fmt.Sprintf("=> %4d", writes), 10*time.Second)
	consoleQuit(tm)
}

// Each step at the console names, in one line, the locals that changed
// since the frame's previous stop.
func TestConsoleChangedC(t *testing.T) {
	t.Parallel()
	requireLLDB(t)
	tm := consoleLaunchAt(t, fixture(t, "c/changed.c"), "CHANGED: start")
	for _, want := range []string{"changed: count 1 → 2", "", "changed: count 2 → 20"} {
		tm.command("next")
		tm.expect("stopped: step", 60*time.Second)
		if want != "" {
			tm.expect(want, 10*time.Second)
		}
	}
	consoleQuit(tm)
}

// consoleLaunchAt launches prog at the console, stopped at the line
// marked mark.
func consoleLaunchAt(t *testing.T, prog, mark string) *term {
	tm := startTerm(t, t.TempDir(), t.TempDir(), []string{"NO_COLOR=1"}, "launch", "--break", fmt.Sprintf("%s:%d", prog, mcpLine(t, prog, mark)), prog)
	tm.expect("stopped: breakpoint", 90*time.Second)
	return tm
}

// consoleQuit quits the console, which ends the launched program.
func consoleQuit(tm *term) {
	tm.command("quit")
	tm.expect("closed", 30*time.Second)
	if code := tm.exited(30 * time.Second); code != 0 {
		tm.t.Errorf("dbg exited with %d after quit", code)
	}
}
