package main

import (
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestCLILaunchPrompt(t *testing.T) {
	prog := fixture(t, "mock/loop.mock")
	cmd := exec.Command(dbgBinary, "launch", "--break", prog+":10", prog)
	cmd.Env = append(cmd.Environ(), "DBG_STATE_DIR="+t.TempDir())
	cmd.Stdin = strings.NewReader("locals\nnext\nprint total + 100\nbt\nbogus\nquit\n")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"stopped: breakpoint", "=>   10", "total int = 0", "stopped: step", "101", "#0 main at " + prog + ":11", `unknown command "bogus"`, "closed"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// dbg attach --pid detects the language, pauses, answers JSON, and
// leaves the process running when it detaches.
func TestCLIAttachPID(t *testing.T) {
	requireDebugpy(t)
	target, out := startTarget(t, "ready", "python3", fixture(t, "python/server.py"))
	cmd := exec.Command(dbgBinary, "attach", "--pid", itoa(target.Process.Pid), "--json")
	cmd.Env = append(cmd.Environ(), "DBG_STATE_DIR="+t.TempDir())
	cmd.Stdin = strings.NewReader("bt\ndetach\n")
	got, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, got)
	}
	if !strings.Contains(string(got), `"state": "paused"`) || !strings.Contains(string(got), "server.py") {
		t.Fatalf("attach output:\n%s", got)
	}
	before := strings.Count(out.String(), "tick")
	deadline := time.Now().Add(10 * time.Second)
	for strings.Count(out.String(), "tick") <= before {
		if time.Now().After(deadline) {
			t.Fatal("the target stopped after dbg attach detached")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
