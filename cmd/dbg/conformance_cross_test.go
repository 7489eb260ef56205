package main

import (
	"testing"
	"time"
)

// Checks across languages: several languages' sessions in one server,
// the language list, and a client that goes away.

// TestMCPClientGoneLeavesNothing stops java, javascript, ruby and c
// programs at breakpoints, then the MCP client goes away: the server
// exits and every adapter and debuggee with it.
func TestMCPClientGoneLeavesNothing(t *testing.T) {
	t.Parallel()
	requireLLDB(t)
	requireJava(t)
	requireNode(t)
	requireRdbg(t)
	c := startDbg(t)
	for _, p := range []struct{ lang, file, marker string }{
		{"c", fixture(t, "c/loop.c"), "BREAK: loop body"},
		{"java", fixture(t, "java/Loop.java"), "BP:loop"},
		{"javascript", fixture(t, "javascript/loop.js"), "BP:loop"},
		{"ruby", fixture(t, "ruby/loop.rb"), "BREAK: loop body"},
	} {
		mcpLaunch(t, c, p.lang, p.file, []int{mcpLine(t, p.file, p.marker)}, p.file, nil)
	}
	server := c.cmd.Process.Pid
	kids := childrenOf(server)
	if len(kids) < 4 {
		t.Fatalf("only %d processes under the server with four sessions: %v", len(kids), kids)
	}
	c.close()
	waitGone(t, 20*time.Second, append(kids, server)...)
}

// TestMCPLanguagesListed checks list_supported_languages for the
// languages these tests debug (directly or as an alias): found, with what
// each can do.
func TestMCPLanguagesListed(t *testing.T) {
	t.Parallel()
	requireLLDB(t)
	requireJava(t)
	requireNode(t)
	requireRdbg(t)
	requireCOBOL(t)
	c := startDbg(t)
	got := map[string]obj{}
	for _, l := range c.ok("list_supported_languages", nil).list("languages") {
		got[l.str("language")] = l
		if as, ok := l.get("aliases").([]any); ok {
			for _, a := range as {
				if name, ok := a.(string); ok {
					got[name] = l
				}
			}
		}
	}
	for lang, want := range map[string][2]bool{ // attach by pid, by port
		"java": {true, true}, "javascript": {true, true}, "typescript": {true, true},
		"c": {true, false}, "cpp": {true, false}, "rust": {true, false},
		"ruby": {false, true}, "cobol": {true, false},
	} {
		l, ok := got[lang]
		if !ok {
			t.Errorf("%s is not listed", lang)
			continue
		}
		if l.get("found") != true || l.get("launch") != true || l.str("adapter") == "" {
			t.Errorf("%s listed as %v", lang, l)
		}
		if l.get("attachByPid") != want[0] || l.get("attachByPort") != want[1] {
			t.Errorf("%s attach by pid %v, by port %v; want %v", lang, l.get("attachByPid"), l.get("attachByPort"), want)
		}
	}
}

// TestMCPSessionsOfManyLanguages debugs javascript, java and c programs at
// once in one server: each session keeps its own stop and values.
func TestMCPSessionsOfManyLanguages(t *testing.T) {
	t.Parallel()
	requireNode(t)
	requireJava(t)
	requireLLDB(t)
	c := startDbg(t)
	js := fixture(t, "javascript/loop.js")
	java := fixture(t, "java/Loop.java")
	cs := fixture(t, "c/loop.c")
	type sess struct {
		id, file string
		line     int
		output   string
	}
	all := []*sess{
		{file: js, line: mcpLine(t, js, "BP:loop"), output: "done 10"},
		{file: java, line: mcpLine(t, java, "BP:loop"), output: "total=5"},
		{file: cs, line: mcpLine(t, cs, "BREAK: loop body"), output: "done total=30"},
	}
	langs := []string{"javascript", "java", "c"}
	for i, s := range all {
		s.id, _ = mcpLaunch(t, c, langs[i], s.file, []int{s.line}, s.file, nil)
	}
	if n := c.ok("list_debug_sessions", nil).num("count"); n != 3 {
		t.Fatalf("%d sessions, want 3", n)
	}
	// Move each to its second pass, then read all three.
	for _, s := range all {
		st := mcpPaused(t, c, s.id, c.ok("continue_execution", map[string]any{"sessionId": s.id}))
		if st.num("lastStop.location.line") != s.line {
			t.Fatalf("%s: stop %v", s.id, st)
		}
	}
	for _, s := range all {
		mcpTop(t, c, s.id, s.file, s.line)
		if got := c.ok("evaluate_expression", map[string]any{"sessionId": s.id, "expression": "i"}).str("result"); got != "1" {
			t.Errorf("%s: i = %q on the second pass", s.id, got)
		}
	}
	for _, s := range all {
		c.ok("clear_breakpoints", map[string]any{"sessionId": s.id})
		c.ok("continue_execution", map[string]any{"sessionId": s.id})
	}
	for _, s := range all {
		if end := c.ok("wait_for_stop", map[string]any{"sessionId": s.id, "timeoutMs": 60000}); end.str("state") != "terminated" {
			t.Fatalf("%s: %v", s.id, end)
		}
		mcpOutputHas(t, c, s.id, s.output)
		c.ok("close_debug_session", map[string]any{"sessionId": s.id})
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(childrenOf(c.cmd.Process.Pid)) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("processes left after closing every session: %v", childrenOf(c.cmd.Process.Pid))
		}
		time.Sleep(50 * time.Millisecond)
	}
}
