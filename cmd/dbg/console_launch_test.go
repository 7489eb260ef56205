package main

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// An exception stop prints the exception's message at the user's line,
// and the console selects that frame under the runtime's panic frames.
func TestConsoleLaunchException(t *testing.T) {
	t.Parallel()
	requireDelve(t)
	prog := fixture(t, "go/panic/main.go")
	cmd := exec.Command(dbgBinary, "launch", prog)
	cmd.Env = append(cmd.Environ(), "DBG_STATE_DIR="+t.TempDir())
	cmd.Stdin = strings.NewReader("bt\nprint i\nup\nlocals\nquit\n")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	line := mcpLine(t, prog, "return xs[i]")
	for _, want := range []string{"stopped: exception", "in main.pick at " + prog + ":" + itoa(line), "index out of range [5] with length 3",
		"=>    " + itoa(line) + "  \treturn xs[i]", "\n5\n", "xs []int = []int len: 3, cap: 3, [1,2,3]", "closed"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if !regexp.MustCompile(`\* #\d+ main\.pick at `).Match(out) || !regexp.MustCompile(`\* #\d+ main\.main at `).Match(out) {
		t.Errorf("bt does not select main.pick, or up does not reach main.main:\n%s", out)
	}
}
