package javadap

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A command that forks the JVM (as a build tool's test run does): the JVM
// connects back, breakpoints stop in it, its output and the command's
// reach the client, and the command's exit code is the run's.
func TestLaunchCommandDebugsTheJVMItForks(t *testing.T) {
	cp := compileFixtures(t)
	c := newClient(t)
	loop := fixtureLine(t, "Loop.java", "loop")
	script := "echo building; java '" + JDWPAgentVar + "' -cp '" + cp + "' Loop x; echo built; exit 4"
	c.launch(map[string]any{"command": []string{"sh", "-c", script}, "classpath": cp, "sourcePaths": []string{fixtureDir(t)}}, func() {
		c.setBreakpoints("Loop.java", bp(loop))
	})
	s := c.stopped()
	if s.line != loop || s.path != filepath.Join(fixtureDir(t), "Loop.java") {
		t.Fatalf("stop %+v", s)
	}
	if l := c.locals(s.frame); l["sum"] != "0" {
		t.Errorf("locals %v", l)
	}
	c.setBreakpoints("Loop.java")
	c.cont(s.thread)
	c.waitOutput("total=5")
	if code := c.exited(); code != 4 {
		t.Errorf("exit code %d, want the command's 4", code)
	}
	if out := c.Output(); !strings.Contains(out, "building") || !strings.Contains(out, "built") {
		t.Errorf("the command's own output is missing: %q", out)
	}
}

// A command that ends before its JVM connects (a build that fails) is a
// launch error with its exit status and output.
func TestLaunchCommandThatEndsEarly(t *testing.T) {
	needJDK(t)
	c := newClient(t)
	c.initialize()
	_, err := c.try("launch", map[string]any{"command": []string{"sh", "-c", "echo 'COMPILATION ERROR' " + JDWPAgentVar + "; exit 3"}})
	if err == nil || !strings.Contains(err.Error(), "COMPILATION ERROR") || !strings.Contains(err.Error(), "exit status 3") {
		t.Fatalf("launch of a command that fails: %v", err)
	}
	if _, err := c.try("launch", map[string]any{"command": []string{"sh", "-c", "true"}}); err == nil || !strings.Contains(err.Error(), JDWPAgentVar) {
		t.Fatalf("launch of a command without %s: %v", JDWPAgentVar, err)
	}
}

// Closing the session kills the command's whole process group: the
// command and the JVM it forked.
func TestLaunchCommandGoneWithTheSession(t *testing.T) {
	cp := compileFixtures(t)
	c := newClient(t)
	script := "java '" + JDWPAgentVar + "' -cp '" + cp + "' Spin; echo after"
	c.launch(map[string]any{"command": []string{"sh", "-c", script}, "classpath": cp}, nil)
	c.waitOutput("tick 20")
	pid := int(c.lastEvent("process")["systemProcessId"].(float64))
	c.c.Close()
	deadline := time.Now().Add(20 * time.Second)
	for syscall.Kill(-pid, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("process group %d still alive after its client went away", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestCommandArgvReplacesTheAgent(t *testing.T) {
	argv, err := commandArgv([]string{"mvn", "-Dmaven.surefire.debug=" + JDWPAgentVar}, "127.0.0.1:5005")
	if err != nil || argv[1] != "-Dmaven.surefire.debug=-agentlib:jdwp=transport=dt_socket,server=n,suspend=y,address=127.0.0.1:5005" {
		t.Fatalf("commandArgv = %q, %v", argv, err)
	}
	if _, err := commandArgv(nil, "x"); err == nil {
		t.Fatal("an empty command is accepted")
	}
}
