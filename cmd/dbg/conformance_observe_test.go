package main

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// The trace and watch scenarios: traces (add_trace, get_trace,
// remove_trace) and data breakpoints (set_data_breakpoint).

// traceFixture is a program with a loop whose body line takes a probe.
type traceFixture struct {
	program, src string
	args         []string // the program's arguments
	mark         string   // the probe's line
	loopVar      string   // the loop variable: counted from min to max, one value per hit
	hits         int      // passes of the loop
	min, max     string   // the loop variable's first and last values
	distinct     int      // the distinct cap asked for (below hits)
	mod3         string   // a local holding loopVar % 3, when the program has one
	lines        []string // what the program prints, in order
	done         string   // without lines: a text the program prints by its end
}

// traceLoop is the loop fixture of a language (testdata/*/trace*),
// given 2,000 passes: the probe's values, the distinct cap and the
// program's lines are those of any count (its benchmark runs 10,000).
func traceLoop(program string) traceFixture {
	return traceFixture{program: program, args: []string{"2000"}, mark: "TRACE: body", loopVar: "i", hits: 2000, min: "0", max: "1999",
		distinct: 50, mod3: "k", lines: []string{"trace-start", "at 0", "at 500", "at 1000", "at 1500", "trace-done total=1999"}}
}

// smallTrace is a trace over a language's loop fixture, whose loop
// variable runs from lo to hi, one pass each; the distinct cap is below
// the pass count.
func smallTrace(program, src, mark, loopVar string, lo, hi int, done string) traceFixture {
	return traceFixture{program: program, src: src, mark: mark, loopVar: loopVar, hits: hi - lo + 1,
		min: fmt.Sprint(lo), max: fmt.Sprint(hi), distinct: hi - lo, done: done}
}

// watchFixture is a program that writes a watched variable.
type watchFixture struct {
	program, src string
	start        map[string]any
	stopAt       string // the line to stop at before setting the watchpoint
	expr         string // what set_data_breakpoint watches
	writes       string // the writing line
	old, new     string // the value before and after that write
	output       string // printed by the end
}

func (f traceFixture) srcPath() string {
	if f.src != "" {
		return td(f.src)
	}
	return td(f.program)
}

// scenarioTrace traces the loop body from before the start: the program
// runs to its end without a stop, and get_trace counts every pass in one
// call, with the loop variable's range and the distinct cap.
func scenarioTrace(t *testing.T, c *client, l *lang) {
	f := l.trace
	if f.program == "" {
		t.Fatalf("%s declares no trace fixture", l.name)
	}
	src := f.srcPath()
	line := mcpLine(t, src, f.mark)
	exprs := []string{f.loopVar}
	if f.mod3 != "" {
		exprs = append(exprs, f.mod3)
	}
	id := c.ok("create_debug_session", map[string]any{"language": l.name}).str("sessionId")
	tr := c.ok("add_trace", map[string]any{"sessionId": id, "distinct": f.distinct,
		"probes": []any{map[string]any{"file": src, "line": line, "expressions": exprs}}})
	traceID := tr.str("traceId")
	if traceID == "" || tr.num("probes.0.hits") != 0 {
		t.Fatalf("add_trace answered %v", tr)
	}
	c.fail("get_trace", map[string]any{"sessionId": id, "traceId": "nosuch"}, "INVALID_ARGUMENT")
	st := c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": td(f.program), "args": f.args})
	// Wait for the end while the hits grow: a loaded machine runs a
	// probe of every pass slowly, but a stuck one stops counting.
	for last := -1; st.str("state") != "terminated"; {
		if st.str("state") == "paused" {
			t.Fatalf("the traced program stopped: %v", st)
		}
		st = c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 60000})
		if st.str("state") != "running" {
			continue
		}
		hits := c.ok("get_trace", map[string]any{"sessionId": id, "traceId": traceID}).num("probes.0.hits")
		if hits <= last {
			t.Fatalf("the traced program has not ended, and its probe counted nothing in a minute (%d hits): %v", hits, st)
		}
		last = hits
	}
	r := c.ok("get_trace", map[string]any{"sessionId": id, "traceId": traceID, "recent": 3})
	p := r.list("probes")[0]
	if p.num("hits") != f.hits {
		t.Errorf("hits = %d, want %d (mode %s)", p.num("hits"), f.hits, p.str("mode"))
	}
	if p.str("firstHit") == "" || p.str("lastHit") == "" || p.str("lastHit") < p.str("firstHit") {
		t.Errorf("hit times first %q last %q", p.str("firstHit"), p.str("lastHit"))
	}
	iv := p.list("expressions")[0]
	if iv.str("first") != f.min || iv.str("last") != f.max || iv.str("min") != f.min || iv.str("max") != f.max {
		t.Errorf("%s: first %q last %q min %q max %q, want %s..%s", f.loopVar, iv.str("first"), iv.str("last"), iv.str("min"), iv.str("max"), f.min, f.max)
	}
	if n := len(iv.list("distinct")); n != f.distinct || iv.get("distinctCapped") != true || iv.num("others") != f.hits-f.distinct {
		t.Errorf("%s: %d distinct values (capped %v, others %d), want the cap %d and %d others", f.loopVar, n, iv.get("distinctCapped"), iv.num("others"), f.distinct, f.hits-f.distinct)
	}
	if d := iv.list("distinct"); len(d) > 0 && (d[0].str("value") != f.min || d[0].num("count") != 1) {
		t.Errorf("%s: first distinct value %v, want %s once", f.loopVar, d[0], f.min)
	}
	if f.mod3 != "" {
		kv := p.list("expressions")[1]
		got := map[string]int{}
		for _, d := range kv.list("distinct") {
			got[d.str("value")] = d.num("count")
		}
		want := map[string]int{"0": (f.hits + 2) / 3, "1": (f.hits + 1) / 3, "2": f.hits / 3}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: distinct %v, want %v", f.mod3, got, want)
		}
	}
	stacks := p.list("stacks")
	if s := p.get("stacks.0.0.line"); len(stacks) == 0 || int(s.(float64)) != line {
		t.Errorf("sampled stacks %v, want the probe's line %d on top", p.get("stacks"), line)
	}
	if rec := r.list("recent"); len(rec) != 3 || rec[2].str("values.0") != f.max {
		t.Errorf("recent hits %v, want the last 3 ending at %s", r.get("recent"), f.max)
	}
	// The program's output is whole and in order, with no probe text in it.
	all := c.ok("get_output", map[string]any{"sessionId": id}).str("text")
	if strings.Contains(all, "dbgtrace") || strings.Contains(all, "\x1e") {
		t.Errorf("probe messages leaked into the output: %q", clip(all))
	}
	out := c.ok("get_output", map[string]any{"sessionId": id, "category": "stdout"}).str("text")
	var got []string
	for _, ln := range strings.Split(out, "\n") {
		// Only the program's own lines: an adapter may print its own
		// (delve's "Building …").
		if ln = strings.TrimSpace(ln); strings.HasPrefix(ln, "trace-") || strings.HasPrefix(ln, "at ") {
			got = append(got, ln)
		}
	}
	if f.lines == nil {
		if !strings.Contains(out, f.done) {
			t.Errorf("stdout %q lacks %q", clip(out), f.done)
		}
	} else if want := f.lines; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("stdout lines %q, want %q", got, want)
	}
	fin := c.ok("remove_trace", map[string]any{"sessionId": id, "traceId": traceID})
	if fin.num("probes.0.hits") != f.hits {
		t.Errorf("remove_trace's report: %d hits, want %d", fin.num("probes.0.hits"), f.hits)
	}
	c.fail("get_trace", map[string]any{"sessionId": id, "traceId": traceID}, "INVALID_ARGUMENT")
	mcpClose(t, c, id, nil)
}

func clip(s string) string {
	if len(s) > 400 {
		return s[:200] + " … " + s[len(s)-200:]
	}
	return s
}

// scenarioWatch stops where the watched variable is in scope, sets a
// data breakpoint on it and continues: the program stops at the writing
// line, and the stop says the old and the new value. list_breakpoints
// shows it; remove_breakpoint removes it, and the program runs to its end.
func scenarioWatch(t *testing.T, c *client, l *lang) {
	f := l.watch
	program, src := fixtureFiles(t, l, "watch", f.program, f.src)
	id, _ := mcpLaunch(t, c, l.name, src, []int{mcpLine(t, src, f.stopAt)}, program, f.start)
	c.ok("clear_breakpoints", map[string]any{"sessionId": id})
	// A bare name is an expression of the stopped frame.
	key := "expression"
	if identRE.MatchString(f.expr) {
		key = "name"
	}
	bp := c.ok("set_data_breakpoint", map[string]any{"sessionId": id, key: f.expr, "accessType": "write"})
	if bp.str("kind") != "data" || bp.get("verified") != true {
		t.Fatalf("set_data_breakpoint answered %v", bp)
	}
	listed := c.ok("list_breakpoints", map[string]any{"sessionId": id}).list("breakpoints")
	if len(listed) != 1 || listed[0].num("id") != bp.num("id") || listed[0].str("expression") != f.expr {
		t.Errorf("list_breakpoints %v, want the data breakpoint %d", listed, bp.num("id"))
	}
	st := mcpPaused(t, c, id, c.ok("continue_execution", map[string]any{"sessionId": id, "waitMs": 30000}))
	want := mcpLine(t, src, f.writes)
	if st.str("lastStop.reason") != "data breakpoint" || st.num("lastStop.location.line") != want {
		t.Fatalf("stop %v, want a data breakpoint at line %d", st.get("lastStop"), want)
	}
	if st.str("lastStop.data.old") != f.old || st.str("lastStop.data.new") != f.new {
		t.Errorf("the stop says %v, want %s → %s", st.get("lastStop.data"), f.old, f.new)
	}
	if st.num("lastStop.data.frame.line") != want {
		t.Errorf("writing frame %v, want line %d", st.get("lastStop.data.frame"), want)
	}
	c.ok("remove_breakpoint", map[string]any{"sessionId": id, "breakpointId": bp.num("id")})
	if n := len(c.ok("list_breakpoints", map[string]any{"sessionId": id}).list("breakpoints")); n != 0 {
		t.Errorf("%d breakpoints left after remove_breakpoint", n)
	}
	mcpEnd(t, c, id, f.output)
}

// identRE matches a bare name.
var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// refusedWatch: a language that cannot watch answers the
// refusal's code naming what its adapter lacks, at a stop where the loop
// variable is in scope.
func refusedWatch(t *testing.T, c *client, l *lang, r refusal) {
	src := l.loop.srcPath()
	id, _ := mcpLaunch(t, c, l.name, src, []int{mcpLine(t, src, l.loop.mark)}, td(l.loop.program), nil)
	res := c.fail("set_data_breakpoint", map[string]any{"sessionId": id, "expression": l.loop.loopVar}, r.code)
	if !strings.Contains(res.Error.Message, r.says) {
		t.Errorf("refusal %q does not say %q", res.Error.Message, r.says)
	}
	// What the adapter cannot do is said whatever the arguments.
	if r.code == "UNSUPPORTED" {
		res := c.fail("set_data_breakpoint", map[string]any{"sessionId": id, "name": l.loop.loopVar, "accessType": "sometimes"}, r.code)
		if !strings.Contains(res.Error.Message, r.says) {
			t.Errorf("refusal of bad arguments %q does not say %q", res.Error.Message, r.says)
		}
	}
	mcpFinish(t, c, id, l.loop.output)
}
