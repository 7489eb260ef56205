package javadap

import (
	"fmt"
	"strings"
	"testing"
)

func TestExceptionBreakpointsCaughtAndUncaught(t *testing.T) {
	forEachJDK(t, 17, func(t *testing.T, j JDK) {
		cp := compileWith(t, j, "")
		c := newClient(t)
		throwLine := fixtureLine(t, "Exceptions.java", "throw")
		c.launch(map[string]any{"mainClass": "Exceptions", "classpath": cp, "javaHome": j.Home}, func() {
			c.req("setExceptionBreakpoints", map[string]any{"filters": []string{"caught", "uncaught"}})
		})
		s := c.stopped()
		if s.reason != "exception" || s.line != throwLine || !strings.Contains(s.text, "caught one") {
			t.Fatalf("caught exception stop %+v", s)
		}
		info := c.req("exceptionInfo", map[string]any{"threadId": s.thread})
		if info["exceptionId"] != "java.lang.IllegalStateException" || info["description"] != "caught one" || info["breakMode"] != "always" {
			t.Errorf("exceptionInfo %v", info)
		}
		// Where it is caught: main's catch clause, named as a frame is.
		caughtIn := "Exceptions.main(Exceptions.java:9)"
		if desc, _ := s.rawEvent["description"].(string); desc != "Exception: java.lang.IllegalStateException, caught in "+caughtIn {
			t.Errorf("stop description %q", desc)
		}
		c.cont(s.thread)
		s = c.stopped()
		if s.reason != "exception" || !strings.Contains(s.text, "uncaught one") {
			t.Fatalf("uncaught exception stop %+v", s)
		}
		if info := c.req("exceptionInfo", map[string]any{"threadId": s.thread}); info["breakMode"] != "unhandled" || strings.Contains(fmt.Sprint(s.rawEvent["description"]), "caught in") {
			t.Errorf("uncaught exceptionInfo %v", info)
		}
		c.cont(s.thread)
		if code := c.exited(); code != 1 {
			t.Errorf("exit code %d, want 1", code)
		}
		if out := c.Output(); !strings.Contains(out, "caught: caught one") || !strings.Contains(out, "IllegalStateException: uncaught one") {
			t.Errorf("output %q", out)
		}
	})
}

func TestExceptionBreakpointClassFilter(t *testing.T) {
	cp := compileFixtures(t)
	c := newClient(t)
	c.launch(map[string]any{"mainClass": "Exceptions", "classpath": cp}, func() {
		c.req("setExceptionBreakpoints", map[string]any{"filters": []string{}, "filterOptions": []any{
			map[string]any{"filterId": "caught", "condition": "java.lang.ArithmeticException"},
			map[string]any{"filterId": "uncaught", "condition": "RuntimeException"},
		}})
	})
	// The caught IllegalStateException does not match its filter; the
	// uncaught one matches RuntimeException, a superclass.
	s := c.stopped()
	if s.reason != "exception" || !strings.Contains(s.text, "uncaught one") {
		t.Fatalf("stop %+v", s)
	}
	c.cont(s.thread)
	c.exited()
}
