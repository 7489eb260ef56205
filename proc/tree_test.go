package proc

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/internal/dbgtest"
)

// waitFor polls f for up to five seconds.
func waitFor(t *testing.T, what string, f func() bool) {
	t.Helper()
	dbgtest.WaitFor(t, 5*time.Second, what, f)
}

func TestDescendantsAndTheirFiles(t *testing.T) {
	cmd, _ := started(t, "sleep 30 & (sleep 31 & wait) & wait", "DBG_PROC_TEST=here")
	root := cmd.Process.Pid
	var kids []int
	sleeps := func() (n int) {
		for _, k := range kids {
			if c, _ := Comm(k); c == "sleep" {
				n++
			}
		}
		return n
	}
	waitFor(t, "two sleeps under the shell", func() bool { kids = Descendants(root); return sleeps() == 2 })
	if slices.Contains(kids, root) {
		t.Fatalf("Descendants(%d) = %v includes the root", root, kids)
	}
	slices.Sort(kids)
	if byParent := descendantsOf(root, childrenByParent()); !slices.Equal(byParent, kids) {
		t.Errorf("the parent table finds %v, the task files %v", byParent, kids)
	}
	var args []string
	for _, k := range kids {
		st, err := ReadStat(k)
		if err != nil {
			t.Fatal(err)
		}
		if st.PGID != root {
			t.Errorf("%d is in group %d, want the shell's %d", k, st.PGID, root)
		}
		if st.PPID != root && !slices.Contains(kids, st.PPID) {
			t.Errorf("%d has parent %d, outside the tree %v", k, st.PPID, kids)
		}
		if c, _ := Comm(k); c == "sleep" {
			a, err := Cmdline(k)
			if err != nil {
				t.Fatal(err)
			}
			args = append(args, strings.Join(a, " "))
			env, err := Environ(k)
			if err != nil || !slices.Contains(env, "DBG_PROC_TEST=here") {
				t.Errorf("environment of %d lacks DBG_PROC_TEST: %v", k, err)
			}
		}
	}
	slices.Sort(args)
	if strings.Join(args, ",") != "sleep 30,sleep 31" {
		t.Errorf("command lines %q", args)
	}
	if got := Descendants(missingPID); got != nil {
		t.Errorf("descendants of a missing process: %v", got)
	}
}

// descendantsOf walks the tree with the given children function, sorted.
func descendantsOf(root int, children func(int) []int) []int {
	var out []int
	queue := []int{root}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children(p) {
			out = append(out, c)
			queue = append(queue, c)
		}
	}
	slices.Sort(out)
	return out
}
