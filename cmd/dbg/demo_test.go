package main

import (
	"strings"
	"testing"
)

// TestDemoMock runs `dbg demo` on the mock adapter: the whole flow goes
// through the tools, in process.
func TestDemoMock(t *testing.T) {
	t.Parallel()
	prog := fixture(t, "mock/loop.mock")
	out, errOut, err := runCLI(t, "demo", "--language", "mock", "--program", prog, "--line", "10")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	for _, want := range []string{
		"session mock-1 (mock): breakpoint 1 at loop.mock:10",
		"\nstopped (breakpoint) at " + prog + ":10",
		"\nstack:\n  #0 ",
		"locals:\n",
		"\nstep_over → line 11",
		"\nprogram output:\n",
		"done total=6",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if _, _, err := runCLI(t, "demo", "--language", "mock", "--program", prog); err == nil || !strings.Contains(err.Error(), "no line marked BREAK") {
		t.Fatalf("no marker: %v", err)
	}
}
