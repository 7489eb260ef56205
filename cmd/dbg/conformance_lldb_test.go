package main

import (
	"maps"
	"slices"
	"testing"
)

// TestConformanceLLDB runs the conformance scenarios of the LLDB-based
// languages again on each older LLDB the table's run does not use
// (Debian's default LLDB 14; TestConformance runs the newest), picked
// with DBG_LLDB. A version that is not installed must be refused with
// its name: TestMCPNativeCValueKinds checks that refusal.
func TestConformanceLLDB(t *testing.T) {
	t.Parallel()
	for _, v := range lldbVersions[1:] {
		t.Run("lldb-"+v, func(t *testing.T) {
			t.Parallel()
			if !lldbInstalled(v) {
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
