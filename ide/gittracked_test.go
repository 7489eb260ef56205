package ide

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestGitTracks(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed (scripts/deps/ide.sh installs it)")
	}
	repo := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+repo)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	tracked, untracked := filepath.Join(repo, "sub", "a.json"), filepath.Join(repo, "sub", "b.json")
	if err := os.MkdirAll(filepath.Dir(tracked), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{tracked, untracked} {
		if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("add", "sub/a.json")
	git("commit", "-q", "-m", "config")
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
