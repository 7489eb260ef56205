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
	requireLLDB(t)
	prog := fixture(t, "c/watch.c")
	set, writes := mcpLine(t, prog, "WATCH: set"), mcpLine(t, prog, "WATCH: writes")
	tm := startTerm(t, t.TempDir(), t.TempDir(), []string{"NO_COLOR=1"}, "launch", "--break", fmt.Sprintf("%s:%d", prog, set), prog)
	tm.expect("stopped: breakpoint", 90*time.Second)
	tm.command("delete")
	tm.expect("deleted every breakpoint", 30*time.Second)
	tm.command("watch counter")
	tm.expect("watchpoint on counter", 30*time.Second)
	tm.command("continue")
	tm.expect("stopped: data breakpoint", 60*time.Second)
	tm.expect(fmt.Sprintf(": counter 1 → 5 (in bump at watch.c:%d)", writes), 10*time.Second)
	tm.expect(fmt.Sprintf("=> %4d", writes), 10*time.Second)
	tm.command("quit")
	tm.expect("closed", 30*time.Second)
	tm.exited(30 * time.Second)
}

// Each step at the console names, in one line, the locals that changed
// since the frame's previous stop.
func TestConsoleChangedC(t *testing.T) {
	requireLLDB(t)
	prog := fixture(t, "c/changed.c")
	start := mcpLine(t, prog, "CHANGED: start")
	tm := startTerm(t, t.TempDir(), t.TempDir(), []string{"NO_COLOR=1"}, "launch", "--break", fmt.Sprintf("%s:%d", prog, start), prog)
	tm.expect("stopped: breakpoint", 90*time.Second)
	tm.command("next")
	tm.expect("stopped: step", 60*time.Second)
	tm.expect("changed: count 1 → 2", 10*time.Second)
	tm.command("next")
	tm.expect("stopped: step", 60*time.Second)
	tm.command("next")
	tm.expect("stopped: step", 60*time.Second)
	tm.expect("changed: count 2 → 20", 10*time.Second)
	tm.command("quit")
	tm.expect("closed", 30*time.Second)
	tm.exited(30 * time.Second)
}
