package javadap

import (
	"strings"
	"testing"
)

func TestInnerLambdaAnonymousBreakpoints(t *testing.T) {
	forEachJDK(t, 17, func(t *testing.T, j JDK) {
		cp := compileWith(t, j, "")
		c := newClient(t)
		inner, lambda, anon := fixtureLine(t, "Inner.java", "inner"), fixtureLine(t, "Inner.java", "lambda"), fixtureLine(t, "Inner.java", "anon")
		c.launch(map[string]any{"mainClass": "Inner", "classpath": cp, "javaHome": j.Home}, func() {
			// Before any class loads: verified from Inner.class, Inner$1.class
			// and Inner$Counter.class.
			wantVerified(t, "Inner.java", answers(c.setBreakpoints("Inner.java", bp(inner), bp(lambda), bp(anon))), inner, lambda, anon)
		})
		s := c.stopped()
		if s.line != inner || s.name != "Inner$Counter.bump" {
			t.Fatalf("inner class stop %+v", s)
		}
		if l := c.locals(s.frame); l["by"] != "2" || !strings.HasPrefix(l["this"], "Inner$Counter@") {
			t.Errorf("inner locals %v", l)
		}
		if got := c.eval(s.frame, "count + by"); got != "2" {
			t.Errorf("count + by = %s", got)
		}
		if j.Feature() < 18 {
			if got := c.eval(s.frame, "tag"); got != `"outer"` {
				t.Errorf("field of the enclosing instance: tag = %s", got)
			}
		} else if _, err := c.try("evaluate", map[string]any{"expression": "tag", "frameId": s.frame, "context": "repl"}); err == nil || !strings.Contains(err.Error(), "tag") {
			// javac 18 and later leave out the enclosing instance of an
			// inner class that does not use it: there is no tag to read.
			t.Errorf("tag in an inner class without an enclosing instance: %v", err)
		}
		c.cont(s.thread)
		s = c.stopped()
		if s.line != anon || s.name != "Inner$1.run" {
			t.Fatalf("anonymous class stop %+v", s)
		}
		c.cont(s.thread)
		s = c.stopped()
		if s.line != lambda || !strings.Contains(s.name, "lambda$") {
			t.Fatalf("lambda stop %+v", s)
		}
		if l := c.locals(s.frame); l["x"] != "21" {
			t.Errorf("lambda locals %v", l)
		}
		c.cont(s.thread)
		c.waitOutput("twice=42")
		c.exited()
	})
}

func TestConditionHitCountLogpointAndFunctionBreakpoints(t *testing.T) {
	cp := compileFixtures(t)
	c := newClient(t)
	loop, square := fixtureLine(t, "Loop.java", "loop"), fixtureLine(t, "Loop.java", "square")
	c.launch(map[string]any{"mainClass": "Loop", "classpath": cp}, func() {
		c.setBreakpoints("Loop.java",
			map[string]any{"line": loop, "logMessage": "sum is {sum} at i={i}"},
			map[string]any{"line": square, "condition": "x == 2"})
		r := c.req("setFunctionBreakpoints", map[string]any{"breakpoints": []any{
			map[string]any{"name": "Loop.square", "hitCondition": "== 2"},
			map[string]any{"name": "nodot"},
		}})
		bps := r["breakpoints"].([]any)
		if len(bps) != 2 || bps[1].(map[string]any)["verified"] != false || !strings.Contains(bps[1].(map[string]any)["message"].(string), "Class.method") {
			t.Errorf("function breakpoints %v", bps)
		}
	})
	// Second call of square: x == 1, stopped by the function breakpoint.
	s := c.stopped()
	if s.reason != "function breakpoint" || s.name != "Loop.square" {
		t.Fatalf("function breakpoint stop %+v\n%s", s, c.Output())
	}
	if l := c.locals(s.frame); l["x"] != "1" {
		t.Errorf("hit count 2 should stop at x=1: %v", l)
	}
	c.cont(s.thread)
	s = c.stopped()
	if s.reason != "breakpoint" || s.line != square {
		t.Fatalf("conditional stop %+v", s)
	}
	if l := c.locals(s.frame); l["x"] != "2" {
		t.Errorf("condition x == 2 stopped at %v", l)
	}
	c.cont(s.thread)
	c.exited()
	out := c.Output()
	for _, want := range []string{"sum is 0 at i=0\n", "sum is 0 at i=1\n", "sum is 1 at i=2\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("log point output missing %q in %q", want, out)
		}
	}
}

func TestBreakpointInClassNeverLoaded(t *testing.T) {
	cp := compileFixtures(t)
	c := newClient(t)
	line, mainLine := fixtureLine(t, "Never.java", "unused"), fixtureLine(t, "Never.java", "nevermain")
	var got []any
	c.launch(map[string]any{"mainClass": "Never", "classpath": cp}, func() {
		got = c.setBreakpoints("Never.java", bp(line), bp(mainLine))
	})
	s := c.stopped()
	if s.line != mainLine {
		t.Fatalf("stop %+v", s)
	}
	// The main class loaded (it shares the source file) but the nested
	// class never does: its class file is on the class path, so the
	// breakpoint is verified all the same. (A class found nowhere stays
	// pending: TestBreakpointsVerifiedBeforeClassLoads.)
	b := c.setBreakpoints("Never.java", bp(line), bp(mainLine))[0].(map[string]any)
	if b["verified"] != true || int(b["line"].(float64)) != line {
		t.Errorf("breakpoint in a class never loaded: %v", b)
	}
	if got[0].(map[string]any)["id"] != b["id"] {
		t.Errorf("re-setting a breakpoint on the same line changed its id: %v vs %v", got[0], b)
	}
	c.cont(s.thread)
	c.waitOutput("never-main ran")
	if code := c.exited(); code != 0 {
		t.Errorf("exit code %d", code)
	}
}

func TestNextStatementLine(t *testing.T) {
	lines := strings.Split("class A {\n\n    // note\n    /* a\n       b */\n    int x = 1;\n}\n", "\n")
	for _, tc := range [][2]int{{1, 1}, {2, 6}, {3, 6}, {4, 6}, {6, 6}, {7, 7}, {99, 99}, {0, 0}, {-3, -3}} {
		if got := nextStatementLine(lines, tc[0]); got != tc[1] {
			t.Errorf("nextStatementLine(%d) = %d, want %d", tc[0], got, tc[1])
		}
	}
}

func TestBreakpointOnMethodDeclaration(t *testing.T) {
	cp := compileFixtures(t)
	c := newClient(t)
	square := fixtureLine(t, "Loop.java", "square")
	decl := square - 1 // "static int square(int x) {"
	c.launch(map[string]any{"mainClass": "Loop", "classpath": cp}, func() {
		got := c.setBreakpoints("Loop.java", bp(decl))
		if b := got[0].(map[string]any); b["verified"] != true || int(b["line"].(float64)) != square {
			t.Errorf("declaration breakpoint %v", b)
		}
	})
	s := c.stopped()
	if s.line != square || s.name != "Loop.square" {
		t.Fatalf("stop %+v", s)
	}
	c.setBreakpoints("Loop.java")
	c.cont(s.thread)
	c.exited()
}
