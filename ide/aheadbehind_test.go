package ide

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// makeHistory writes n linear commits on main with git fast-import.
func makeHistory(t testing.TB, dir string, n int) {
	t.Helper()
	var b strings.Builder
	for i := 1; i <= n; i++ {
		msg := fmt.Sprintf("commit %d\n", i)
		content := fmt.Sprintf("%d\n", i)
		fmt.Fprintf(&b, "commit refs/heads/main\nmark :%d\ncommitter T <t@example.com> %d +0000\ndata %d\n%s", i, 1700000000+i, len(msg), msg)
		if i > 1 {
			fmt.Fprintf(&b, "from :%d\n", i-1)
		}
		fmt.Fprintf(&b, "M 644 inline f.txt\ndata %d\n%s\n", len(content), content)
	}
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(b.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("fast-import: %v\n%s", err, out)
	}
}

func TestAheadBehindWalksOnlyTheDivergence(t *testing.T) {
	isolateGit(t)
	dir := t.TempDir()
	gitT(t, dir, "init", "-q", "-b", "main")
	makeHistory(t, dir, 10000)
	gitT(t, dir, "reset", "-q", "--hard", "main")
	// The upstream is 5 commits behind, and has one commit of its own.
	gitT(t, dir, "branch", "up", "main~5")
	gitT(t, dir, "worktree", "add", "-q", filepath.Join(dir, "..", "up-wt"), "up")
	commitFile(t, filepath.Join(dir, "..", "up-wt"), "g.txt", "g\n", "upstream only")
	gitT(t, dir, "config", "branch.main.remote", ".")
	gitT(t, dir, "config", "branch.main.merge", "refs/heads/up")

	start := time.Now()
	loc, _ := locateGit(dir)
	rep := readRepository(loc, readOptions{aheadBehindBudget: 100, cache: &aheadBehindCache{}})
	if deref(rep.Ahead) != 5 || deref(rep.Behind) != 1 {
		t.Fatalf("ahead/behind = %v/%v within a 100-commit budget (upstream %s)", deref(rep.Ahead), deref(rep.Behind), rep.Upstream)
	}
	t.Logf("read with ahead/behind over 10,000 commits: %v", time.Since(start))

	// Over budget: unknown, not wrong.
	r, _ := openRepo(dir)
	var c aheadBehindCache
	if _, _, ok := c.get(r, gitT(t, dir, "rev-parse", "main"), gitT(t, dir, "rev-parse", "main~3000"), 100); ok {
		t.Error("a 3000-commit walk fit in a budget of 100")
	}
	if a, b, ok := c.get(r, gitT(t, dir, "rev-parse", "main"), gitT(t, dir, "rev-parse", "main~3000"), 10000); !ok || a != 3000 || b != 0 {
		t.Errorf("full walk = %d/%d %v", a, b, ok)
	}
}
