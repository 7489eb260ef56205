package javadap

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestLaunchJavaSourceFile(t *testing.T) {
	needJDK(t)
	c := newClient(t)
	loop := fixtureLine(t, "Loop.java", "loop")
	c.launch(map[string]any{"program": filepath.Join(fixtureDir(t), "Loop.java"), "args": []string{"x"}}, func() {
		c.setBreakpoints("Loop.java", bp(loop))
	})
	s := c.stopped()
	if s.line != loop || s.path != filepath.Join(fixtureDir(t), "Loop.java") {
		t.Fatalf("stop %+v", s)
	}
	if l := c.locals(s.frame); l["sum"] != "0" || l["label"] != `"total"` {
		t.Errorf("locals of a .java program %v", l)
	}
	if got := c.eval(s.frame, "args.length"); got != "1" {
		t.Errorf("args.length = %s", got)
	}
	c.setBreakpoints("Loop.java")
	c.cont(s.thread)
	c.waitOutput("total=5")
	c.exited()
}

func TestLaunchJar(t *testing.T) {
	cp := compileFixtures(t)
	jarTool, err := exec.LookPath("jar")
	if err != nil {
		t.Skip("jar not installed (scripts/deps/java.sh installs the JDK)")
	}
	jar := filepath.Join(t.TempDir(), "loop.jar")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if b, err := exec.CommandContext(ctx, jarTool, "cfe", jar, "Loop", "-C", cp, "Loop.class").CombinedOutput(); err != nil {
		t.Fatalf("jar: %v\n%s", err, b)
	}
	c := newClient(t)
	square := fixtureLine(t, "Loop.java", "square")
	c.launch(map[string]any{"program": jar, "sourcePaths": []string{fixtureDir(t)}}, func() {
		c.setBreakpoints("Loop.java", map[string]any{"line": square, "hitCondition": "3"})
	})
	s := c.stopped()
	if s.line != square {
		t.Fatalf("stop %+v", s)
	}
	if got := c.eval(s.frame, "x"); got != "2" {
		t.Errorf("x on the third hit = %s", got)
	}
	c.cont(s.thread)
	c.exited()
}

func TestLaunchErrors(t *testing.T) {
	cp := compileFixtures(t)
	bad := filepath.Join(t.TempDir(), "Broken.java")
	if err := os.WriteFile(bad, []byte("public class Broken { void f() { int x = ; } }"), 0o600); err != nil {
		t.Fatal(err)
	}
	c := newClient(t)
	c.initialize()
	if _, err := c.try("launch", map[string]any{"program": bad}); err == nil || !strings.Contains(err.Error(), "Broken.java:1") {
		t.Errorf("launch of a file that does not compile: %v", err)
	}
	if _, err := c.try("launch", map[string]any{}); err == nil || !strings.Contains(err.Error(), "mainClass") {
		t.Errorf("launch without a program: %v", err)
	}
	// A main class that does not exist: the JVM starts, then fails.
	c2 := newClient(t)
	c2.launch(map[string]any{"mainClass": "NoSuchMain", "classpath": cp}, nil)
	if code := c2.exited(); code == 0 {
		t.Errorf("exit code 0 for a missing main class")
	}
	if !strings.Contains(c2.Output(), "NoSuchMain") {
		t.Errorf("output %q", c2.Output())
	}
}

func TestMainClassOfSource(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "A.java")
	src := "// class Fake {}\npackage a.b;\n/* class Nope */\nimport java.util.*;\n@SuppressWarnings(\"x\")\nfinal class First { class Inner {} }\npublic class A {}\n"
	if err := os.WriteFile(p, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := mainClassOfSource(p); got != "a.b.First" {
		t.Errorf("mainClassOfSource = %q", got)
	}
}

func TestLaunchPackagedClasses(t *testing.T) {
	needJDK(t)
	dir := filepath.Join(fixtureDir(t), "demo", "app")
	out := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if b, err := exec.CommandContext(ctx, "javac", "-g", "-d", out, filepath.Join(dir, "Main.java"), filepath.Join(dir, "Helper.java")).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, b)
	}
	c := newClient(t)
	helper := fixtureLine(t, "demo/app/Helper.java", "helper")
	c.launch(map[string]any{"mainClass": "demo.app.Main", "classpath": out, "args": []string{"pkg"}, "stopOnEntry": true}, func() {
		c.setBreakpoints("demo/app/Helper.java", bp(helper))
	})
	s := c.stopped()
	if s.reason != "entry" || s.name != "Main.main" || s.path != filepath.Join(dir, "Main.java") {
		t.Fatalf("entry %+v", s)
	}
	c.cont(s.thread)
	s = c.stopped()
	if s.line != helper || s.name != "Helper.greet" || s.path != filepath.Join(dir, "Helper.java") {
		t.Fatalf("helper stop %+v", s)
	}
	if got := c.eval(s.frame, "name"); got != `"pkg"` {
		t.Errorf("name = %s", got)
	}
	c.req("stepOut", map[string]any{"threadId": s.thread})
	s = c.stopped()
	if s.name != "Main.main" || s.line != fixtureLine(t, "demo/app/Main.java", "pkgmain") {
		t.Fatalf("after stepOut %+v", s)
	}
	c.cont(s.thread)
	c.waitOutput("hello, pkg")
	c.exited()
}

func TestClientGoneKillsLaunchedJVM(t *testing.T) {
	cp := compileFixtures(t)
	c := newClient(t)
	c.launch(map[string]any{"mainClass": "Spin", "classpath": cp}, nil)
	c.waitOutput("tick 20")
	pid := int(c.lastEvent("process")["systemProcessId"].(float64))
	c.c.Close() // no disconnect: the client just goes away
	deadline := time.Now().Add(20 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("JVM %d still alive after its client went away", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
