package main

import (
	"context"
	"testing"

	"github.com/spf13/cobra"
)

// The live edits themselves (hot_reload, restart_frame, goto_line,
// evaluation without side effects) are flows of the conformance table:
// conformance_live_test.go and conformance_reload_test.go. Here, the
// flag that makes evaluation side-effect free by default.

// TestFlagsNoSideEffects: dbg mcp and dbg serve take --no-side-effects,
// and the session manager they build then evaluates without side
// effects unless a call asks for them.
func TestFlagsNoSideEffects(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		newCmd func(f *factory, flags **serverFlags) *cobra.Command
	}{
		{"mcp", func(f *factory, flags **serverFlags) *cobra.Command {
			return newCmdMCP(f, func(_ context.Context, o *mcpOptions) error { *flags = o.server; return nil })
		}},
		{"serve", func(f *factory, flags **serverFlags) *cobra.Command {
			return newCmdServe(f, func(_ context.Context, o *serveOptions) error { *flags = o.server; return nil })
		}},
	} {
		for _, set := range []bool{false, true} {
			f, _, _ := cliFactory(t)
			var flags *serverFlags
			cmd := tc.newCmd(f, &flags)
			args := []string{}
			if set {
				args = append(args, "--no-side-effects")
			}
			cmd.SetArgs(args)
			if err := cmd.Execute(); err != nil {
				t.Fatalf("%s %v: %v", tc.name, args, err)
			}
			m := f.newManager(t.TempDir(), *flags, nil)
			if got := m.SideEffectsByDefault(); got == set {
				t.Errorf("%s %v: side effects by default = %v", tc.name, args, got)
			}
		}
	}
}
