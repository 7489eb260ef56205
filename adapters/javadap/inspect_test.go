package javadap

import (
	"strings"
	"testing"
)

func TestGraphVariablesAndEvaluate(t *testing.T) {
	forEachJDK(t, 17, func(t *testing.T, j JDK) {
		cp := compileWith(t, j, "")
		c := newClient(t)
		line, total := fixtureLine(t, "Graph.java", "graph"), fixtureLine(t, "Graph.java", "total")
		c.launch(map[string]any{"mainClass": "Graph", "classpath": cp, "javaHome": j.Home}, func() {
			c.setBreakpoints("Graph.java", bp(line), bp(total))
		})
		s := c.stopped()
		if s.line != line {
			t.Fatalf("stop %+v", s)
		}
		vars := c.localVars(s.frame)
		want := map[string]string{
			"a": "3", "b": "4", "message": `"hello"`,
			"list": `ArrayList size=2 ["a", "b"]`,
			"map":  `HashMap size=1 {"k"=5}`,
			"arr":  "int[250]",
		}
		for k, v := range want {
			if got, _ := vars[k]["value"].(string); got != v {
				t.Errorf("%s = %q, want %q", k, got, v)
			}
		}
		// Arrays page.
		arr := vars["arr"]
		if arr["indexedVariables"].(float64) != 250 {
			t.Errorf("arr indexedVariables %v", arr["indexedVariables"])
		}
		page := c.vars(arr["variablesReference"], map[string]any{"start": 100, "count": 3})
		if len(page) != 3 || page["[100]"]["value"] != "10000" || page["[102]"]["value"] != "10404" {
			t.Errorf("arr page %v", page)
		}
		// Collections by content.
		elems := c.vars(vars["list"]["variablesReference"], nil)
		if elems["[0]"]["value"] != `"a"` || elems["[1]"]["value"] != `"b"` {
			t.Errorf("list elements %v", elems)
		}
		entries := c.vars(vars["map"]["variablesReference"], nil)
		if entries[`"k"`]["value"] != "5" {
			t.Errorf("map entries %v", entries)
		}
		// Object fields, boxed primitives.
		g := c.vars(vars["g"]["variablesReference"], nil)
		if g["name"]["value"] != `"root"` || g["boxed"]["value"] != "42" || g["numbers"]["value"] != "int[3]" {
			t.Errorf("g fields %v", g)
		}
		// Statics scope.
		sc := c.req("scopes", map[string]any{"frameId": s.frame})
		scopes := sc["scopes"].([]any)
		if len(scopes) < 2 {
			t.Fatalf("scopes %v", scopes)
		}
		staticRef := scopes[1].(map[string]any)["variablesReference"]
		st := c.vars(staticRef, nil)
		if st["counter"]["value"] != "7" {
			t.Errorf("statics %v", st)
		}
		if r := c.req("setVariable", map[string]any{"variablesReference": staticRef, "name": "counter", "value": "counter + 2"}); r["value"] != "9" {
			t.Errorf("setVariable counter: %v", r)
		}
		if r := c.req("setVariable", map[string]any{"variablesReference": arr["variablesReference"], "name": "[12]", "value": "-1"}); r["value"] != "-1" {
			t.Errorf("setVariable arr[12]: %v", r)
		}
		if r := c.req("setVariable", map[string]any{"variablesReference": vars["g"]["variablesReference"], "name": "boxed", "value": "43"}); r["value"] != "43" {
			t.Errorf("setVariable g.boxed: %v", r)
		}

		for expr, want := range map[string]string{
			"list.size()":                   "2",
			`map.get("k")`:                  "5",
			"a + b * 2":                     "11",
			"g.name":                        `"root"`,
			"(a + b) * 2":                   "14",
			"a < b && b >= 4":               "true",
			"a == 3":                        "true",
			`message + " world"`:            `"hello world"`,
			`"n=" + a`:                      `"n=3"`,
			"arr[12]":                       "-1",
			"arr.length":                    "250",
			"g.items.get(1)":                `"b"`,
			"g.total()":                     "6",
			"counter * 2":                   "18",
			"g.boxed + 1":                   "44",
			"list.toString()":               `"[a, b]"`,
			"10 / 4":                        "2",
			"10.0 / 4":                      "2.5",
			"-a":                            "-3",
			"!(a > b)":                      "true",
			"Math.max(a, b)":                "4",
			"a > b ? a : b":                 "4",
			"(double) a / b":                "0.75",
			"(int) 3.9":                     "3",
			"(byte) 300":                    "44",
			"((String) message).length()":   "5",
			"(java.util.List) list == list": "true",
			`message.length()`:              "5",
			`message.charAt(1)`:             `'e'`,
			`map.containsKey("k")`:          "true",
			`Integer.valueOf(7)`:            "7",
			`message.equals("hello")`:       "true",
		} {
			if got := c.eval(s.frame, expr); got != want {
				t.Errorf("evaluate %s = %s, want %s", expr, got, want)
			}
		}
		if r := c.req("evaluate", map[string]any{"expression": "g", "frameId": s.frame}); !strings.HasPrefix(r["result"].(string), "Graph@") || r["variablesReference"].(float64) == 0 {
			t.Errorf("evaluate g: %v", r)
		}
		for expr, wantErr := range map[string]string{
			"nosuch":            "nosuch is not a local variable",
			"a +":               "cannot parse",
			"g.missing":         "has no field missing",
			"list.nosuch()":     "has no method nosuch",
			"a / 0":             "by zero",
			"arr[999]":          "out of bounds",
			"g.items.get(5)":    "IndexOutOfBoundsException",
			"(Integer) message": "ClassCastException",
		} {
			_, err := c.try("evaluate", map[string]any{"expression": expr, "frameId": s.frame})
			if err == nil || !strings.Contains(err.Error(), wantErr) {
				t.Errorf("evaluate %s: err %v, want %q", expr, err, wantErr)
			}
		}
		// Evaluate with no frameId uses the stopped thread's top frame.
		if r := c.req("evaluate", map[string]any{"expression": "b"}); r["result"] != "4" {
			t.Errorf("evaluate without frame: %v", r)
		}
		// g.total() above ran over a breakpoint in total(): it was skipped
		// then, and stops now that the program calls it.
		if !strings.Contains(c.Output(), "hit while evaluating") {
			t.Errorf("no note about the breakpoint skipped during evaluation: %q", c.Output())
		}
		c.cont(s.thread)
		s = c.stopped()
		if s.line != total || s.name != "Graph.total" {
			t.Fatalf("stop in total %+v", s)
		}
		if got := c.eval(s.frame, "t"); got != "6" {
			t.Errorf("t = %s", got)
		}
		c.cont(s.thread)
		c.waitOutput("message=hello a=3 r=6")
		c.exited()
	})
}
