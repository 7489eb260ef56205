package ide

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestGitTracks(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed (scripts/deps/ide.sh installs it)")
	}
	repo := t.TempDir()
	tracked, untracked := filepath.Join(repo, "sub", "a.json"), filepath.Join(repo, "sub", "b.json")
	if err := os.MkdirAll(filepath.Dir(tracked), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{tracked, untracked} {
		if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Only the index matters: the file is added, never committed.
	for _, args := range [][]string{{"init", "-q"}, {"add", "sub/a.json"}} {
		if out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	ctx := context.Background()
	for path, want := range map[string]bool{
		tracked:                                true,
		untracked:                              false,
		filepath.Join(repo, "nope", "c.json"):  false,
		filepath.Join(t.TempDir(), "mcp.json"): false, // outside any repository
	} {
		if got, err := GitTracks(ctx, path); err != nil || got != want {
			t.Errorf("%s: %v, %v; want %v", path, got, err, want)
		}
	}
}
