package javadap

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bpAnswer is one breakpoint of a setBreakpoints answer.
type bpAnswer struct {
	verified bool
	line     int
	message  string
}

func answers(raw []any) []bpAnswer {
	var out []bpAnswer
	for _, r := range raw {
		m := r.(map[string]any)
		a := bpAnswer{verified: m["verified"] == true}
		if l, ok := m["line"].(float64); ok {
			a.line = int(l)
		}
		a.message, _ = m["message"].(string)
		out = append(out, a)
	}
	return out
}

// wantVerified fails unless every answer is verified at the wanted line.
func wantVerified(t *testing.T, what string, got []bpAnswer, lines ...int) {
	t.Helper()
	if len(got) != len(lines) {
		t.Fatalf("%s: %d answers for %d breakpoints: %+v", what, len(got), len(lines), got)
	}
	for i, l := range lines {
		if !got[i].verified || got[i].line != l {
			t.Errorf("%s: breakpoint %d = %+v, want verified at line %d", what, i, got[i], l)
		}
	}
}

// TestBreakpointsVerifiedBeforeClassLoads sets breakpoints before any
// class of the program loads: those in classes found on the class path
// (one that never loads included) are verified at once at their lines;
// one in a source file with no class anywhere stays pending with a
// message. Inner, anonymous and lambda classes:
// TestInnerLambdaAnonymousBreakpoints.
func TestBreakpointsVerifiedBeforeClassLoads(t *testing.T) {
	forEachJDK(t, 17, func(t *testing.T, j JDK) {
		cp := compileWith(t, j, "")
		ghost := filepath.Join(t.TempDir(), "Ghost.java")
		if err := os.WriteFile(ghost, []byte("public class Ghost {\n    static int f() {\n        return 1;\n    }\n}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		c := newClient(t)
		mainLine, unused := fixtureLine(t, "Never.java", "nevermain"), fixtureLine(t, "Never.java", "unused")
		c.launch(map[string]any{"mainClass": "Never", "classpath": cp, "javaHome": j.Home}, func() {
			wantVerified(t, "Never.java", answers(c.setBreakpoints("Never.java", bp(mainLine), bp(unused))), mainLine, unused)
			body := c.req("setBreakpoints", map[string]any{"source": map[string]any{"path": ghost}, "breakpoints": []any{bp(3)}})
			g := answers(body["breakpoints"].([]any))
			if len(g) != 1 || g[0].verified || !strings.Contains(g[0].message, "pending") || !strings.Contains(g[0].message, "Ghost.java") {
				t.Errorf("breakpoint in a class that cannot be found: %+v", g)
			}
		})
		s := c.stopped()
		if s.line != mainLine || s.name != "Never.main" {
			t.Fatalf("stop %+v", s)
		}
		c.cont(s.thread)
		c.waitOutput("never-main ran")
		c.exited()
		if out := c.Output(); !strings.Contains(out, "Java: ") || !strings.Contains(out, j.Version) || !strings.Contains(out, j.Home) {
			t.Errorf("the session does not say which JDK it runs (want %s at %s): %q", j.Version, j.Home, out)
		}
	})
}

// TestRecordsEnumsAndLambda launches Modern.java, which the adapter
// compiles with the chosen JDK's javac: breakpoints are verified against
// those class files at once (a blank line and a closing brace move to the
// next line with code), and records, enums and a lambda read by value.
func TestRecordsEnumsAndLambda(t *testing.T) {
	forEachJDK(t, 17, func(t *testing.T, j JDK) {
		c := newClient(t)
		src := filepath.Join(fixtureDir(t), "Modern.java")
		lambda, area, brace, print := fixtureLine(t, "Modern.java", "lambda"), fixtureLine(t, "Modern.java", "area"),
			fixtureLine(t, "Modern.java", "brace"), fixtureLine(t, "Modern.java", "print")
		blank := brace - 3 // the empty line before "if (total > 0) {"
		c.launch(map[string]any{"program": src, "javaHome": j.Home}, func() {
			got := answers(c.setBreakpoints("Modern.java", bp(lambda), bp(blank), bp(area), bp(brace)))
			wantVerified(t, "Modern.java", got, lambda, blank+1, area, print)
		})
		s := c.stopped()
		if s.line != lambda || !strings.Contains(s.name, "lambda$main") {
			t.Fatalf("lambda stop %+v", s)
		}
		if l := c.locals(s.frame); l["x"] != "2" {
			t.Errorf("lambda locals %v", l)
		}
		c.cont(s.thread)
		s = c.stopped()
		if s.line != blank+1 || s.name != "Modern.main" {
			t.Fatalf("stop on the moved blank line %+v", s)
		}
		vars := c.localVars(s.frame)
		want := map[string]string{"item": "Item[name=a, qty=2]", "color": "RED", "total": "4",
			"order": "Order[item=Item[name=a, qty=2], color=GREEN]"}
		for name, v := range want {
			if got, _ := vars[name]["value"].(string); got != v {
				t.Errorf("%s = %q, want %q", name, got, v)
			}
		}
		if typ, _ := vars["color"]["type"].(string); typ != "Modern$Color" {
			t.Errorf("color's type %q", typ)
		}
		item := c.vars(vars["item"]["variablesReference"], nil)
		if len(item) != 2 || item["name"]["value"] != `"a"` || item["qty"]["value"] != "2" {
			t.Errorf("record components of item: %v", item)
		}
		if item["name"]["evaluateName"] != "item.name" {
			t.Errorf("component evaluateName %v", item["name"]["evaluateName"])
		}
		order := c.vars(vars["order"]["variablesReference"], nil)
		if order["item"]["value"] != "Item[name=a, qty=2]" || order["color"]["value"] != "GREEN" {
			t.Errorf("nested record components: %v", order)
		}
		if got := c.eval(s.frame, "order.color"); got != "GREEN" {
			t.Errorf("evaluate order.color = %s", got)
		}
		c.cont(s.thread)
		s = c.stopped()
		if s.line != area || s.name != "Modern.area" {
			t.Fatalf("stop in area %+v", s)
		}
		if l := c.locals(s.frame); l["s"] != "Box[w=2, h=3]" || l["b"] != "Box[w=2, h=3]" {
			t.Errorf("sealed interface pattern locals %v", l)
		}
		c.cont(s.thread)
		s = c.stopped()
		if s.line != print {
			t.Fatalf("stop after the moved closing brace %+v", s)
		}
		if l := c.locals(s.frame); l["total"] != "10" {
			t.Errorf("total at print: %v", l)
		}
		c.cont(s.thread)
		c.waitOutput("Order[item=Item[name=a, qty=2], color=GREEN] RED total=10")
		if code := c.exited(); code != 0 {
			t.Errorf("exit code %d", code)
		}
	})
}

// TestVirtualThreadStop stops in a task of a virtual-thread executor: the
// stopped virtual thread is listed in threads by its name.
func TestVirtualThreadStop(t *testing.T) {
	forEachJDK(t, 21, func(t *testing.T, j JDK) {
		cp := compileWith(t, j, "jdk21")
		c := newClient(t)
		work, tick, many := fixtureLine(t, "jdk21/Vt.java", "work"), fixtureLine(t, "jdk21/Vt.java", "tick"), fixtureLine(t, "jdk21/Vt.java", "many")
		c.launch(map[string]any{"mainClass": "Vt", "classpath": cp, "javaHome": j.Home}, func() {
			got := answers(c.setBreakpoints("jdk21/Vt.java", bp(work), map[string]any{"line": tick, "logMessage": "tick {i}"}, bp(many)))
			wantVerified(t, "Vt.java", got, work, tick, many)
		})
		s := c.stopped()
		if s.line != work || s.name != "Vt.work" {
			t.Fatalf("stop %+v", s)
		}
		names := map[int]string{}
		for _, th := range c.req("threads", nil)["threads"].([]any) {
			m := th.(map[string]any)
			names[int(m["id"].(float64))] = m["name"].(string)
		}
		if names[s.thread] != "vt-0" {
			t.Errorf("stopped virtual thread %d listed as %q in %v", s.thread, names[s.thread], names)
		}
		if !containsValue(names, "main") {
			t.Errorf("platform threads missing: %v", names)
		}
		if l := c.locals(s.frame); l["job"] != "Job[label=first, n=21]" {
			t.Errorf("locals %v", l)
		}
		c.req("next", map[string]any{"threadId": s.thread})
		if s = c.stopped(); s.reason != "step" || c.locals(s.frame)["v"] != "42" {
			t.Errorf("step in the virtual thread: %+v %v", s, c.locals(s.frame))
		}
		c.cont(s.thread)
		c.waitOutput("vt sum=42")
		// 80 live virtual threads hit the log point: the list is capped
		// and says so.
		s = c.stopped()
		if s.line != many || s.name != "Vt.main" {
			t.Fatalf("stop at many %+v", s)
		}
		body := c.req("threads", nil)
		virtual := 0
		for _, th := range body["threads"].([]any) {
			if strings.HasPrefix(th.(map[string]any)["name"].(string), "vt-") {
				virtual++
			}
		}
		note, _ := body["note"].(string)
		if virtual != maxVirtualThreads || !strings.Contains(note, fmt.Sprintf("%d more virtual threads", 80-maxVirtualThreads)) {
			t.Errorf("%d virtual threads listed, note %q", virtual, note)
		}
		if !strings.Contains(c.Output(), note) || !strings.Contains(c.Output(), "tick 79") {
			t.Errorf("cap note or log points missing from the output: %q", c.Output())
		}
		c.cont(s.thread)
		c.waitOutput("vt done")
		c.exited()
	})
}

// TestPatternSwitchStop stops inside a pattern switch over a sealed
// interface and reads its pattern variables.
func TestPatternSwitchStop(t *testing.T) {
	forEachJDK(t, 21, func(t *testing.T, j JDK) {
		cp := compileWith(t, j, "jdk21")
		c := newClient(t)
		square := fixtureLine(t, "jdk21/Shapes.java", "square")
		c.launch(map[string]any{"mainClass": "Shapes", "classpath": cp, "javaHome": j.Home}, func() {
			wantVerified(t, "Shapes.java", answers(c.setBreakpoints("jdk21/Shapes.java", bp(square))), square)
		})
		s := c.stopped()
		if s.line != square || s.name != "Shapes.describe" {
			t.Fatalf("stop %+v", s)
		}
		l := c.locals(s.frame)
		if l["shape"] != "Square[side=3.0]" || l["q"] != "Square[side=3.0]" || l["area"] != "9.0" {
			t.Errorf("pattern switch locals %v", l)
		}
		c.cont(s.thread)
		c.waitOutput("square 9.0")
		c.exited()
	})
}

func containsValue(m map[int]string, v string) bool {
	for _, x := range m {
		if x == v {
			return true
		}
	}
	return false
}
