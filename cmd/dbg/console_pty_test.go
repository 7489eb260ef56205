package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// consoleCase is one language's console flow on a running fixture.
type consoleCase struct {
	dir, partial  string // the working directory, and a prefix Tab completes to the file
	file          string // the source file (base name) to break in
	line          int    // the breakpoint line
	top, caller   string // the functions of frames #0 and #1 ("" = no caller)
	callerLocal   string // a local of frame #1
	setVar, value string // set in frame #0 at the breakpoint
	after, want   string // an expression after `next`, and its value
	color         bool   // leave colours on (no NO_COLOR) and expect them
	// userPrefix starts the names of the user's functions; the attach's
	// stop is in one, or names the nearest ("" = no check).
	userPrefix string
}

// consoleFlow attaches to tg at the console on a pseudo-terminal and
// drives it as a person would: break (the file completed with Tab),
// continue, bt, frame 1, locals, set, next, print, list, history with
// the up arrow, Ctrl-C while the program runs, then detach; the target
// must run on.
func consoleFlow(t *testing.T, tg target, c consoleCase) {
	env := []string{"NO_COLOR=1"}
	if c.color {
		env = nil
	}
	tm := startTerm(t, c.dir, t.TempDir(), env, "attach", "--pid", fmt.Sprint(tg.cmd.Process.Pid))
	consoleFlowAttached(t, tm, tg, c)
}

// consoleFlowAttached is consoleFlow once dbg runs on tm.
func consoleFlowAttached(t *testing.T, tm *term, tg target, c consoleCase) {
	first := tm.expect("(dbg) ", 90*time.Second)
	if !strings.Contains(first, "stopped: ") {
		t.Fatalf("the attach printed no stop before the prompt:\n%s", first)
	}
	if c.userPrefix != "" && !strings.Contains(first, "nearest user frame: #") && !strings.Contains(first, " in "+c.userPrefix) {
		t.Errorf("the attach's stop neither is in nor names a user frame:\n%s", first)
	}
	if i := strings.Index(first, "nearest user frame: #"); i >= 0 && c.userPrefix != "" && !strings.Contains(first[i:], " "+c.userPrefix) {
		t.Errorf("the nearest user frame is not the user's:\n%s", first)
	}
	tm.mark -= len("(dbg) ") // the next command waits for this prompt
	tm.send("break " + c.partial + "\t")
	tm.expect(c.file+":", 10*time.Second) // Tab completed the file name
	tm.send(fmt.Sprintf("%d\r", c.line))
	tm.expect(fmt.Sprintf("breakpoint 1 at %s:%d", filepath.Join(c.dir, c.file), c.line), 30*time.Second)
	tm.command("continue")
	tm.expect("stopped: breakpoint", 60*time.Second)
	tm.expect(fmt.Sprintf("=> %4d", c.line), 10*time.Second)
	tm.command("bt")
	tm.expect("#0 "+c.top, 30*time.Second)
	if c.caller != "" {
		tm.expect("#1 "+c.caller, 10*time.Second)
		tm.command("frame 1")
		tm.expect("* #1 "+c.caller, 30*time.Second)
		tm.command("locals")
		tm.expect(c.callerLocal+" ", 30*time.Second)
		tm.command("frame 0")
		tm.expect("* #0 "+c.top, 30*time.Second)
	}
	tm.command(fmt.Sprintf("set %s = %s", c.setVar, c.value))
	tm.expect(c.setVar+" = ", 30*time.Second)
	tm.command("next")
	tm.expect("stopped: step", 60*time.Second)
	tm.command("print " + c.after)
	tm.expect(c.want+"\n", 30*time.Second)
	tm.command("list")
	tm.expect("=> ", 30*time.Second)
	// The up arrow twice brings back `print`.
	tm.expect("(dbg) ", 30*time.Second)
	tm.send("\x1b[A\x1b[A\r")
	tm.expect("print "+c.after, 10*time.Second)
	tm.expect(c.want+"\n", 30*time.Second)
	// Ctrl-C while the program runs pauses it.
	tm.command("delete")
	tm.expect("deleted every breakpoint", 30*time.Second)
	tm.command("continue")
	tm.expect("running (Ctrl-C pauses)", 30*time.Second)
	time.Sleep(300 * time.Millisecond)
	tm.send("\x03")
	tm.expect("pausing", 10*time.Second)
	tm.expect("stopped: ", 30*time.Second)
	before := strings.Count(tg.out.String(), tg.marker)
	tm.command("detach")
	tm.expect("detached; the process keeps running", 30*time.Second)
	if code := tm.exited(30 * time.Second); code != 0 {
		t.Errorf("dbg exited with %d after detach", code)
	}
	waitCount(t, tg.out, tg.marker, before, "the target does not run after detach")
	if !processAlive(tg.cmd.Process.Pid) {
		t.Fatal("the target died at detach")
	}
	if hasColor := strings.Contains(tm.out.String(), "\x1b[36m"); hasColor != c.color {
		t.Errorf("colours on the terminal: %v, want %v", hasColor, c.color)
	}
}

func TestConsoleGo(t *testing.T) {
	t.Parallel()
	requireDelve(t)
	tg := goServerTarget(t)
	src := fixture(t, "go/server/main.go")
	consoleFlow(t, tg, consoleCase{dir: filepath.Dir(src), partial: "mai", file: "main.go", line: mcpLine(t, src, "// TICK"),
		top: "main.tick", caller: "main.main", callerLocal: "n", setVar: "n", value: "41", after: "n", want: "41", color: true, userPrefix: "main."})
}

func TestConsoleC(t *testing.T) {
	t.Parallel()
	requireLLDB(t)
	tg := nativeTarget("c", "c/loop.c", "loop.c")(t)
	src := fixture(t, "c/loop.c")
	consoleFlow(t, tg, consoleCase{dir: filepath.Dir(src), partial: "loo", file: "loop.c", line: mcpLine(t, src, "int result = x * x"),
		top: "square", caller: "main", callerLocal: "total", setVar: "x", value: "7", after: "result", want: "49"})
}

func TestConsoleNode(t *testing.T) {
	t.Parallel()
	requireNode(t)
	cmd, out := nodeTicker(t, fmt.Sprintf("--inspect-port=127.0.0.1:%d", freePort(t)))
	script := cmd.Args[len(cmd.Args)-1]
	consoleFlow(t, target{cmd: cmd, out: out, marker: "tick"}, consoleCase{dir: filepath.Dir(script), partial: "tick", file: "ticker.js",
		line: mcpLine(t, script, "n++"), top: "", setVar: "n", value: "41", after: "n", want: "42"})
}

// Python attaches by pid through gdb's or lldb's inferior calls where
// one works on this machine (dbg adapters says which); where none does,
// the attach is refused before the target is touched, and the target
// runs on.
func TestConsolePython(t *testing.T) {
	t.Parallel()
	requireDebugpy(t)
	cmd, out := startTarget(t, "ready", "python3", fixture(t, "python/server.py"))
	tg := target{cmd: cmd, out: out, marker: "tick"}
	src := fixture(t, "python/server.py")
	state := t.TempDir()
	via, why := cliPythonPIDAttach(t, state)
	tm := startTerm(t, filepath.Dir(src), state, []string{"NO_COLOR=1"}, "attach", "--pid", fmt.Sprint(cmd.Process.Pid))
	deadline := time.Now().Add(120 * time.Second)
	for {
		text := tm.text()
		if strings.Contains(text, "ATTACH_FAILED") {
			if via != "" {
				t.Fatalf("attach by pid goes through %s here, and was refused:\n%s", via, text)
			}
			t.Logf("no injector works here (%s): the refusal is the answer", why)
			if !strings.Contains(text, "--listen") {
				t.Errorf("the refusal names no alternative:\n%s", text)
			}
			if code := tm.exited(30 * time.Second); code == 0 {
				t.Error("a refused attach exited 0")
			}
			before := strings.Count(out.String(), "tick")
			waitCount(t, out, "tick", before, "the target does not run after the refused attach")
			return
		}
		if strings.Contains(text, "(dbg) ") {
			if via == "" {
				t.Fatalf("no injector works here (%s), and the attach went on:\n%s", why, text)
			}
			// The adapter's progress reached the terminal's stderr.
			if !strings.Contains(text, "with debugpy") || !strings.Contains(text, "through "+via) {
				t.Errorf("no progress line from the adapter before the prompt:\n%s", text)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no prompt and no refusal:\n%s", text)
		}
		time.Sleep(50 * time.Millisecond)
	}
	tm.mark = 0
	consoleFlowAttached(t, tm, tg, consoleCase{dir: filepath.Dir(src), partial: "serv", file: "server.py", line: mcpLine(t, src, "# TICK"),
		top: "tick", caller: "main", callerLocal: "n", setVar: "n", value: "41", after: "nxt", want: "42"})
}

// dbg attach alone, on a terminal, lists the user's debuggable processes
// with their language and attaches to the one picked.
func TestConsolePicker(t *testing.T) {
	t.Parallel()
	requireDelve(t)
	tg := goServerTarget(t)
	pid := fmt.Sprint(tg.cmd.Process.Pid)
	tm := startTerm(t, t.TempDir(), t.TempDir(), []string{"NO_COLOR=1"}, "attach")
	list := tm.expect("attach to (# or pid, empty to cancel): ", 60*time.Second)
	found := false
	for _, l := range strings.Split(list, "\n") {
		if f := strings.Fields(l); len(f) >= 3 && f[1] == pid && f[2] == "go" {
			found = true
		}
	}
	if !found {
		t.Fatalf("the picker does not list %s as go:\n%s", pid, list)
	}
	tm.send(pid + "\r")
	tm.expect("stopped: ", 90*time.Second)
	// Ctrl-C at the prompt drops the line typed so far.
	// The line editor redraws the prompt as keys arrive, so each wait is
	// for what only the step it follows prints.
	tm.expect("(dbg) ", 30*time.Second)
	tm.send("bogus-half-typed\x03")
	tm.expect("^C", 30*time.Second)
	tm.command("threads")
	if screen := tm.expect("\n* ", 30*time.Second); strings.Contains(screen, "unknown command") {
		t.Fatalf("Ctrl-C did not clear the line:\n%s", screen)
	}
	tm.expect("(dbg) ", 30*time.Second)
	// Ctrl-D asks before detaching.
	tm.send("\x04")
	tm.expect("Detach (the process keeps running) and quit? (y or n) ", 10*time.Second)
	tm.send("n\r")
	tm.expect("(dbg) ", 10*time.Second)
	tm.send("\x04")
	tm.expect("Detach (the process keeps running) and quit? (y or n) ", 10*time.Second)
	tm.send("y\r")
	if code := tm.exited(30 * time.Second); code != 0 {
		t.Errorf("dbg exited with %d", code)
	}
	before := strings.Count(tg.out.String(), tg.marker)
	waitCount(t, tg.out, tg.marker, before, "the target does not run after detach")
}

// SIGTERM at the prompt ends dbg at once, detaching: the target runs on.
func TestConsoleSIGTERM(t *testing.T) {
	t.Parallel()
	requireDelve(t)
	tg := goServerTarget(t)
	tm := startTerm(t, t.TempDir(), t.TempDir(), []string{"NO_COLOR=1"}, "attach", "--pid", fmt.Sprint(tg.cmd.Process.Pid))
	tm.expect("(dbg) ", 90*time.Second)
	before := strings.Count(tg.out.String(), tg.marker)
	if err := tm.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	tm.exited(15 * time.Second)
	waitCount(t, tg.out, tg.marker, before, "the target does not run after dbg ended")
}

// A launched program at the console: Ctrl-D asks, then ends it; the
// history of one run is there in the next.
func TestConsoleLaunchHistory(t *testing.T) {
	t.Parallel()
	prog := fixture(t, "mock/loop.mock")
	state := t.TempDir()
	launch := func() *term {
		tm := startTerm(t, t.TempDir(), state, []string{"NO_COLOR=1"}, "launch", "--break", prog+":10", prog)
		tm.expect("stopped: breakpoint", 60*time.Second)
		return tm
	}
	tm := launch()
	tm.command("print total + 100")
	tm.expect("100\n", 30*time.Second)
	tm.expect("(dbg) ", 30*time.Second)
	tm.send("\x04")
	tm.expect("End the program and quit? (y or n) ", 10*time.Second)
	tm.send("y\r")
	if code := tm.exited(30 * time.Second); code != 0 {
		t.Fatalf("dbg exited with %d", code)
	}
	tm = launch()
	tm.expect("(dbg) ", 30*time.Second)
	tm.send("\x1b[A\r")
	tm.expect("print total + 100", 10*time.Second)
	tm.expect("100\n", 30*time.Second)
	tm.command("quit")
	tm.expect("closed", 30*time.Second)
	tm.exited(30 * time.Second)
}
