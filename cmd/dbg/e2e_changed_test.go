package main

import (
	"fmt"
	"reflect"
	"testing"
)

// changedCase is the fixture of the changed scenario: a function whose
// locals change and appear between stops (testdata/<lang>/changed.*). The
// flow stops at "CHANGED: start", runs to "CHANGED: after", then steps
// over; after names what each of these stops must report.
type changedCase struct {
	program string
	// after is what run_to_line reports, then each step_over (at least
	// two steps).
	after [][]changedWant
}

// changedWant is one local a stop's changed must name: in values with old
// and new, or, when old is "", in new with the value new. old "*" is any
// earlier value (an uninitialised C local), found in values or in new.
type changedWant struct {
	name, old, new string
}

// scenarioChanged checks the changed field of stop answers. Every
// language: the first stop of a frame says null ("no earlier view"), and
// the next pass of a loop names the loop variable's old and new value.
// Languages with a changed fixture also check changes and new locals
// after run_to_line and steps, changed:false (no field, and the next stop
// of the frame is null again), a repeated wait_for_stop that repeats the
// answer, and that the answers once the program ended describe no stop
// from before the last resume.
func scenarioChanged(t *testing.T, c *client, l *lang) {
	t.Run("loop", func(t *testing.T) {
		c := scenarioClient(t, c)
		h := l.hitFixture()
		src := h.srcPath()
		line := mcpLine(t, src, h.mark)
		id, st := mcpLaunch(t, c, l.name, src, []int{line}, td(h.program), nil)
		checkChangedNull(t, st, "the first stop")
		next := mcpPaused(t, c, id, c.ok("continue_execution", map[string]any{"sessionId": id, "waitMs": 30000}))
		if next.num("lastStop.location.line") != line {
			t.Fatalf("second stop %v, want line %d", next.get("lastStop"), line)
		}
		checkChanged(t, next, "the second pass", []changedWant{{h.loopVar, h.passes[0], h.passes[1]}})
		c.ok("close_debug_session", map[string]any{"sessionId": id})
	})
	cc := l.changed
	if cc == nil {
		return
	}
	t.Run("fixture", func(t *testing.T) {
		c := scenarioClient(t, c)
		src := td(cc.program)
		start, after := mcpLine(t, src, "CHANGED: start"), mcpLine(t, src, "CHANGED: after")
		id, st := mcpLaunch(t, c, l.name, src, []int{start}, src, nil)
		checkChangedNull(t, st, "the first stop")
		st = c.ok("run_to_line", map[string]any{"sessionId": id, "file": src, "line": after})
		if st.num("lastStop.location.line") != after {
			t.Fatalf("run_to_line stopped at %v, want line %d", st.get("lastStop"), after)
		}
		checkChanged(t, st, "run_to_line", cc.after[0])
		for i, want := range cc.after[1:] {
			st = mcpPaused(t, c, id, c.ok("step_over", map[string]any{"sessionId": id}))
			checkChanged(t, st, fmt.Sprintf("step %d", i+1), want)
		}
		again := c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 1000})
		if !reflect.DeepEqual(again.get("changed"), st.get("changed")) {
			t.Errorf("wait_for_stop at the same stop says changed %v; the step said %v", again.get("changed"), st.get("changed"))
		}
		off := mcpPaused(t, c, id, c.ok("step_over", map[string]any{"sessionId": id, "changed": false}))
		if _, ok := off["changed"]; ok {
			t.Errorf("step_over with changed:false answered changed %v", off["changed"])
		}
		on := mcpPaused(t, c, id, c.ok("step_over", map[string]any{"sessionId": id}))
		checkChangedNull(t, on, "the stop after a changed:false answer")

		// The program ends: no answer from here on describes the stop
		// before the last resume.
		c.ok("clear_breakpoints", map[string]any{"sessionId": id})
		pids := mcpPIDs(t, c)
		end := c.ok("continue_execution", map[string]any{"sessionId": id, "waitMs": 30000})
		end = mcpEnded(t, c, id, end)
		checkNoStop(t, end, "the answer of the program's end")
		checkNoStop(t, c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 1000}), "wait_for_stop after the end")
		mcpOutputHas(t, c, id, "work=22")
		mcpClose(t, c, id, pids)
	})
}

// checkChangedNull checks that st says changed: null for a frame's first
// stop: with no note (a compact answer's null says it), where another
// reason (locals that could not be read) would have one.
func checkChangedNull(t *testing.T, st obj, what string) {
	t.Helper()
	v, ok := st["changed"]
	if !ok || v != nil {
		t.Fatalf("%s: changed is %v (present: %v), want null", what, v, ok)
	}
	if note, ok := st["changedNote"]; ok {
		t.Errorf("%s: changedNote %q, want none: a first stop's null says there is no earlier view", what, note)
	}
}

// checkChanged checks that st's changed names every wanted local.
func checkChanged(t *testing.T, st obj, what string, want []changedWant) {
	t.Helper()
	ch, ok := st.get("changed").(map[string]any)
	if !ok {
		t.Fatalf("%s: changed is %v, want an object (%s)", what, st.get("changed"), st.str("changedNote"))
	}
	got := obj(ch)
	values := map[string]obj{}
	for _, v := range got.list("values") {
		values[v.str("name")] = v
	}
	added := map[string]string{}
	for _, v := range got.list("new") {
		added[v.str("name")] = v.str("value")
	}
	for _, w := range want {
		v, changed := values[w.name]
		nv, isNew := added[w.name]
		switch {
		case w.old == "*" && changed && v.str("new") == w.new:
		case w.old == "*" && isNew && nv == w.new:
		case w.old == "" && isNew && nv == w.new:
		case w.old != "" && changed && v.str("old") == w.old && v.str("new") == w.new:
		default:
			t.Errorf("%s: changed %v does not have %s %q → %q", what, ch, w.name, w.old, w.new)
		}
	}
}

// checkNoStop checks that an answer after the program's end describes no
// stop.
func checkNoStop(t *testing.T, st obj, what string) {
	t.Helper()
	if st.str("state") != "terminated" {
		t.Fatalf("%s: state %q, want terminated (%v)", what, st.str("state"), st)
	}
	for _, k := range []string{"lastStop", "changed", "source"} {
		if v, ok := st[k]; ok {
			t.Errorf("%s: %s is %v, from a stop before the program resumed", what, k, v)
		}
	}
}
