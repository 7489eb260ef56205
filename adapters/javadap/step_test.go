package javadap

import (
	"strings"
	"syscall"
	"testing"
)

func TestJVMExitsDuringStep(t *testing.T) {
	cp := compileFixtures(t)
	c := newClient(t)
	print := fixtureLine(t, "Loop.java", "print")
	c.launch(map[string]any{"mainClass": "Loop", "classpath": cp}, func() {
		c.setBreakpoints("Loop.java", bp(print))
	})
	s := c.stopped()
	// stepIn on a line that calls only JDK methods stays in user code
	// (justMyCode): it lands on the next line of main.
	c.req("stepIn", map[string]any{"threadId": s.thread})
	s = c.stopped()
	if s.line != print+1 || s.name != "Loop.main" {
		t.Fatalf("after stepIn over JDK code %+v", s)
	}
	c.req("next", map[string]any{"threadId": s.thread}) // to the end of main
	s = c.stopped()
	// Stepping past the end of main ends the program: no stop, an exit.
	if _, err := c.try("next", map[string]any{"threadId": s.thread}); err != nil {
		t.Fatalf("next at the end of main: %v", err)
	}
	if code := c.exited(); code != 0 {
		t.Errorf("exit code %d", code)
	}
	c.waitOutput("done\n")
	if _, err := c.try("next", map[string]any{"threadId": s.thread}); err == nil {
		t.Error("step after exit succeeded")
	}
	if th := c.req("threads", nil); len(th["threads"].([]any)) != 0 {
		t.Errorf("threads after exit: %v", th)
	}
}

func TestTwoThreads(t *testing.T) {
	forEachJDK(t, 17, func(t *testing.T, j JDK) {
		cp := compileWith(t, j, "")
		c := newClient(t)
		worker, mainLine := fixtureLine(t, "Threads.java", "worker"), fixtureLine(t, "Threads.java", "main")
		c.launch(map[string]any{"mainClass": "Threads", "classpath": cp, "javaHome": j.Home}, func() {
			c.setBreakpoints("Threads.java", bp(worker), bp(mainLine))
		})
		s := c.stopped()
		if s.line != worker {
			t.Fatalf("worker stop %+v", s)
		}
		th := c.req("threads", nil)
		names := map[string]int{}
		for _, x := range th["threads"].([]any) {
			m := x.(map[string]any)
			names[m["name"].(string)] = int(m["id"].(float64))
		}
		if names["worker-1"] != s.thread || names["main"] == 0 {
			t.Fatalf("threads %v, stopped thread %d", names, s.thread)
		}
		if l := c.locals(s.frame); l["local"] != "10" {
			t.Errorf("worker locals %v", l)
		}
		// The main thread is suspended too: in t.start() or t.join() (the
		// worker may reach its breakpoint before start returns in main).
		st := c.req("stackTrace", map[string]any{"threadId": names["main"]})
		frames := st["stackFrames"].([]any)
		if len(frames) == 0 {
			t.Fatal("main has no stack")
		}
		if bottom := frames[len(frames)-1].(map[string]any); bottom["name"] != "Threads.main" || (bottom["line"] != float64(mainLine-2) && bottom["line"] != float64(mainLine-1)) {
			t.Errorf("main stack %v; want Threads.main at line %d or %d at its bottom", frames, mainLine-2, mainLine-1)
		}
		c.cont(s.thread)
		s = c.stopped()
		if s.line != mainLine || s.thread != names["main"] {
			t.Fatalf("main stop %+v", s)
		}
		if got := c.eval(s.frame, "shared"); got != "10" {
			t.Errorf("shared = %s", got)
		}
		c.cont(s.thread)
		c.waitOutput("shared=10")
		c.exited()
	})
}

func TestPauseAndStopOnEntry(t *testing.T) {
	cp := compileFixtures(t)
	c := newClient(t)
	c.launch(map[string]any{"mainClass": "Spin", "classpath": cp, "stopOnEntry": true}, nil)
	s := c.stopped()
	if s.reason != "entry" || s.name != "Spin.main" || s.line != 3 {
		t.Fatalf("entry stop %+v", s)
	}
	c.cont(s.thread)
	c.waitOutput("tick 20")
	c.req("pause", map[string]any{"threadId": s.thread})
	s = c.stopped()
	if s.reason != "pause" {
		t.Fatalf("pause stop %+v", s)
	}
	st := c.req("stackTrace", map[string]any{"threadId": s.thread})
	found := false
	for _, f := range st["stackFrames"].([]any) {
		if f.(map[string]any)["name"] == "Spin.main" {
			found = true
		}
	}
	if !found {
		t.Errorf("Spin.main not on the paused stack: %v", st)
	}
	c.cont(s.thread)
	c.req("disconnect", map[string]any{})
	c.exited()
}

func TestJVMKilledWhileStopped(t *testing.T) {
	cp := compileFixtures(t)
	c := newClient(t)
	loop := fixtureLine(t, "Loop.java", "loop")
	c.launch(map[string]any{"mainClass": "Loop", "classpath": cp}, func() {
		c.setBreakpoints("Loop.java", bp(loop))
	})
	s := c.stopped()
	pid := int(c.lastEvent("process")["systemProcessId"].(float64))
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if code := c.exited(); code == 0 {
		t.Errorf("exit code 0 after SIGKILL")
	}
	if _, err := c.try("evaluate", map[string]any{"expression": "sum", "frameId": s.frame}); err == nil {
		t.Error("evaluate on a dead JVM succeeded")
	}
	if th := c.req("threads", nil); len(th["threads"].([]any)) != 0 {
		t.Errorf("threads of a dead JVM: %v", th)
	}
}

func TestStepIntoLambdaThroughProxy(t *testing.T) {
	forEachJDK(t, 17, func(t *testing.T, j JDK) {
		cp := compileWith(t, j, "")
		c := newClient(t)
		call, lambda := fixtureLine(t, "Inner.java", "calltwice"), fixtureLine(t, "Inner.java", "lambda")
		c.launch(map[string]any{"mainClass": "Inner", "classpath": cp, "javaHome": j.Home}, func() {
			c.setBreakpoints("Inner.java", bp(call))
		})
		s := c.stopped()
		if s.line != call {
			t.Fatalf("stop %+v", s)
		}
		c.req("stepIn", map[string]any{"threadId": s.thread})
		s = c.stopped()
		if s.line != lambda || !strings.Contains(s.name, "lambda$") {
			t.Fatalf("stepIn through the lambda's proxy class: %+v", s)
		}
		c.cont(s.thread)
		c.exited()
	})
}
