package main

import (
	"fmt"
	"slices"
	"testing"
)

// TestCompoundClientServer debugs a VS Code compound of two services: a
// JavaScript client calling a Python HTTP server on loopback, with a
// breakpoint in each. debug_run_configuration starts both as one group;
// a wait on both sees the request stop first in the client, then, once
// the client goes on, in the server with the request's name; the group is
// listed, and closing one member (stopAll) closes both.
func TestCompoundClientServer(t *testing.T) {
	requireDebugpy(t)
	requireNode(t)
	t.Parallel()
	dir := fixture(t, "projects/compound")
	port := freePort(t)
	c := startDbg(t, fmt.Sprintf("COMPOUND_PORT=%d", port))
	client, server := fixture(t, "projects/compound/client.js"), fixture(t, "projects/compound/server.py")
	clientLine, serverLine := mcpLine(t, client, "BP:client"), mcpLine(t, server, "BP:server")
	res := c.ok("debug_run_configuration", map[string]any{"projectPath": dir, "configurationName": "client+server",
		"breakpoints": []map[string]any{{"file": client, "line": clientLine}, {"file": server, "line": serverLine}}})
	members := res.list("members")
	if res.str("group") != "client+server" || len(members) != 2 {
		t.Fatalf("the compound answered %v, want a group of two", res)
	}
	ids := map[string]string{}
	for _, m := range members {
		ids[m.str("configurationName")] = m.str("sessionId")
	}
	both := []string{ids["client"], ids["server"]}
	w := c.ok("wait_for_stop", map[string]any{"sessionIds": both, "timeoutMs": 60000})
	if w.str("sessionId") != ids["client"] || w.num("lastStop.location.line") != clientLine {
		t.Fatalf("the first stop is %v, want the client's at line %d", w, clientLine)
	}
	mcpCheckLocals(t, mcpLocals(t, c, ids["client"]), map[string]string{"name": `"ada"`})
	c.ok("continue_execution", map[string]any{"sessionId": ids["client"]})
	w = c.ok("wait_for_stop", map[string]any{"sessionIds": both, "timeoutMs": 60000})
	if w.str("sessionId") != ids["server"] || w.num("lastStop.location.line") != serverLine {
		t.Fatalf("the second stop is %v, want the server's at line %d", w, serverLine)
	}
	mcpCheckLocals(t, mcpLocals(t, c, ids["server"]), map[string]string{"name": "'ada'"})
	c.ok("continue_execution", map[string]any{"sessionId": ids["server"]})
	mcpOutputHas(t, c, ids["client"], "client got hello ada")
	list := c.ok("list_debug_sessions", nil)
	groups := list.list("groups")
	if len(groups) != 1 || groups[0].str("name") != "client+server" || groups[0].get("stopAll") != true {
		t.Fatalf("groups %v, want client+server with stopAll", list.get("groups"))
	}
	got := strs(groups[0].get("sessions"))
	slices.Sort(got)
	slices.Sort(both)
	if !slices.Equal(got, both) {
		t.Errorf("the group holds %v, want %v", got, both)
	}
	c.ok("close_debug_session", map[string]any{"sessionId": ids["server"]})
	if n := len(c.ok("list_debug_sessions", nil).list("sessions")); n != 0 {
		t.Errorf("%d sessions left after closing a member of a stopAll group", n)
	}
	mcpNoChildren(t, c)
}
