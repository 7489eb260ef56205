package main

import (
	"maps"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// lldbVersions are the LLDB versions the native rows run on: the newest
// (TestConformance's) first.
var lldbVersions = []string{"16", "14"}

// lldbInstalled reports whether LLDB major's DAP adapter is in PATH.
func lldbInstalled(major string) bool {
	for _, name := range []string{"lldb-dap-" + major, "lldb-vscode-" + major} {
		if _, err := exec.LookPath(name); err == nil {
			return true
		}
	}
	return false
}

// lldbRefused: a server asked for an LLDB version that is not installed
// refuses to start a session, naming the version.
func lldbRefused(t *testing.T, v string) {
	requireLLDB(t)
	c := startDbg(t, "DBG_LLDB="+v)
	src := td("c/loop.c")
	id := c.ok("create_debug_session", map[string]any{"language": "c"}).str("sessionId")
	c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": mcpLine(t, src, "BREAK: loop body")})
	r := c.call("start_debugging", map[string]any{"sessionId": id, "scriptPath": src})
	if r.Success || !strings.Contains(r.Error.Message, "LLDB "+v) {
		t.Fatalf("LLDB %s is not installed, yet start answered %+v", v, r)
	}
}

// TestConformanceLLDB runs the conformance scenarios of the LLDB-based
// languages again on each older LLDB the table's run does not use
// (Debian's default LLDB 14; TestConformance runs the newest), picked
// with DBG_LLDB. A version that is not installed must be refused with
// its name.
func TestConformanceLLDB(t *testing.T) {
	t.Parallel()
	for _, v := range lldbVersions[1:] {
		t.Run("lldb-"+v, func(t *testing.T) {
			t.Parallel()
			if !lldbInstalled(v) {
				lldbRefused(t, v)
				t.Skipf("LLDB %s is not installed (scripts/deps/native.sh installs it)", v)
			}
			for _, l := range languages() {
				if !slices.Contains([]string{"c", "cpp", "rust", "cobol"}, l.name) {
					continue
				}
				t.Run(l.name, func(t *testing.T) {
					t.Parallel()
					l.require(t)
					conformTurn(t)
					if v == "14" {
						// LLDB 14 names no watchpoint in its stops: dbg refuses them there.
						l.cannot = maps.Clone(l.cannot)
						if l.cannot == nil {
							l.cannot = map[string]refusal{}
						}
						l.cannot["watch"] = refusal{code: "UNSUPPORTED", says: "supportsDataBreakpoints"}
					}
					conformLanguage(t, l, "DBG_LLDB="+v)
				})
			}
		})
	}
}
