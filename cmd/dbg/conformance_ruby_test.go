package main

import (
	"strings"
	"testing"
)

// The Ruby row's own values and flows: Ruby expressions, stepping into a
// method and out, a changed string; continue after an attach that
// paused.

func rubyValues() []valueCase {
	return []valueCase{
		{name: "inspect", program: "ruby/loop.rb", marks: []string{"BREAK: loop body", `puts "#{forever`}, stops: []valueStop{
			{mark: "BREAK: loop body", evals: map[string]string{`label * 2 + i.to_s`: `"sumsum0"`},
				check: stepIn("result = x * x", "square", "x", "0", false)},
			// The same pass, on: a changed label is what it prints.
			{mark: `puts "#{forever`, sets: []valueSet{{name: "label", value: `"changed"`, evals: map[string]string{"label": `"changed"`}}}},
		}, output: "changed i=0 total=0"},
	}
}

// rubyAttachContinue attaches by port (the program pauses), then
// continues: the program runs on and does not stop again, three times.
func rubyAttachContinue(t *testing.T, c *client, l *lang) {
	for round := 0; round < 3; round++ {
		tg := rubyTarget(t)
		s := c.ok("create_debug_session", tg.attachArgs(l.name, "port"))
		id := s.str("sessionId")
		mcpPaused(t, c, id, s)
		c.ok("continue_execution", map[string]any{"sessionId": id})
		if st := c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 1500}); st.str("state") != "running" {
			t.Fatalf("round %d: stopped again after continue: %v", round, st.get("lastStop"))
		}
		before := strings.Count(tg.out.String(), "tick")
		waitCount(t, tg.out, "tick", before+1, "the program does not run after continue")
		c.ok("close_debug_session", map[string]any{"sessionId": id})
	}
}
