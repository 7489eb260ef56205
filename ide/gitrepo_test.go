package ide

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

func TestFindRepositoriesSkipsHeavyFolders(t *testing.T) {
	isolateGit(t)
	dir := t.TempDir()
	gitT(t, dir, "init", "-q", "-b", "main")
	for _, sub := range []string{"libs/a", "node_modules/pkg", "target/x"} {
		p := filepath.Join(dir, sub)
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		gitT(t, p, "init", "-q", "-b", "main")
	}
	locs, err := findRepositories(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	var roots []string
	for _, l := range locs {
		roots = append(roots, l.root)
	}
	if len(roots) != 2 || roots[0] != dir || roots[1] != filepath.Join(dir, "libs", "a") {
		t.Errorf("roots = %v", roots)
	}
	// A folder inside a repository belongs to it.
	sub := filepath.Join(dir, "src")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	locs, _ = findRepositories(context.Background(), sub)
	if len(locs) != 1 || locs[0].root != dir {
		t.Errorf("from a sub-folder: %+v", locs)
	}
}

func TestLocateGitFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "wt", ".git"), "gitdir: ../main/.git/worktrees/wt\n")
	writeFile(t, filepath.Join(dir, "main", ".git", "worktrees", "wt", "commondir"), "../..\n")
	loc, err := locateGit(filepath.Join(dir, "wt"))
	if err != nil {
		t.Fatal(err)
	}
	if loc.kind != RepoWorktree || loc.commonDir != filepath.Join(dir, "main", ".git") || mainRootOf(loc) != filepath.Join(dir, "main") {
		t.Errorf("loc = %+v", loc)
	}
	writeFile(t, filepath.Join(dir, "bad", ".git"), "nonsense")
	if _, err := locateGit(filepath.Join(dir, "bad")); err == nil {
		t.Error("a .git file without gitdir was accepted")
	}
}
