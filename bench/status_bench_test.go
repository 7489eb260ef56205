package bench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/ide"
	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit/mcpbind"
)

// The status benchmarks of the Git and run-configuration contributors:
//
//	go test -run XXX -bench StatusGit ./bench/
//
// BenchmarkStatusGitLargeRepo: get_debug_tools_status (Manager.BuildStatus)
// on a project whose repository has 10,000 commits (made with git
// fast-import), a branch 5 commits ahead of and 1 behind its upstream, a
// dirty file, and saved run configurations. The first call fills the
// caches; the timed calls are what an agent polling status sees.

// gitBench runs git in dir with a configuration of its own.
func gitBench(b *testing.B, dir string, stdin string, args ...string) string {
	b.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=B", "GIT_AUTHOR_EMAIL=b@example.com", "GIT_COMMITTER_NAME=B", "GIT_COMMITTER_EMAIL=b@example.com")
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		b.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// largeRepo makes a project with an n-commit history.
func largeRepo(b *testing.B, n int) string {
	b.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git is not installed (scripts/deps/ide.sh installs it)")
	}
	dir := filepath.Join(b.TempDir(), "big")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	gitBench(b, dir, "", "init", "-q", "-b", "main")
	var s strings.Builder
	for i := 1; i <= n; i++ {
		msg := fmt.Sprintf("commit %d\n", i)
		content := fmt.Sprintf("%d\n", i)
		fmt.Fprintf(&s, "commit refs/heads/main\nmark :%d\ncommitter B <b@example.com> %d +0000\ndata %d\n%s", i, 1700000000+i, len(msg), msg)
		if i > 1 {
			fmt.Fprintf(&s, "from :%d\n", i-1)
		}
		fmt.Fprintf(&s, "M 644 inline f%d.txt\ndata %d\n%s\n", i%200, len(content), content)
	}
	gitBench(b, dir, s.String(), "fast-import", "--quiet")
	gitBench(b, dir, "", "reset", "-q", "--hard", "main")
	// An upstream 5 behind with one commit of its own.
	gitBench(b, dir, "", "update-ref", "refs/remotes/origin/main", "main~5")
	gitBench(b, dir, "", "remote", "add", "origin", "https://user:tok@example.invalid/big.git")
	gitBench(b, dir, "", "config", "branch.main.remote", "origin")
	gitBench(b, dir, "", "config", "branch.main.merge", "refs/heads/main")
	if err := os.WriteFile(filepath.Join(dir, "f1.txt"), []byte("dirty\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".run"), 0o755); err != nil {
		b.Fatal(err)
	}
	cfg := `<component name="ProjectRunConfigurationManager"><configuration name="app" type="PythonConfigurationType" factoryName="Python"><option name="SCRIPT_NAME" value="$PROJECT_DIR$/app.py"/></configuration></component>`
	if err := os.WriteFile(filepath.Join(dir, ".run", "app.run.xml"), []byte(cfg), 0o644); err != nil {
		b.Fatal(err)
	}
	return dir
}

func BenchmarkStatusGitLargeRepo(b *testing.B) {
	dir := largeRepo(b, 10000)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m := sessions.NewManager(sessions.Config{Project: dir})
	tb := mcpbind.NewToolbox(mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "0"}, nil), nil)
	ide.New(m, ide.Options{Context: ctx}).Register(tb)

	st, err := m.BuildStatus(ctx, tb.Status(), "", "")
	if err != nil {
		b.Fatal(err)
	}
	sec, ok := st.Sections["git"].(ide.GitSection)
	if !ok || len(sec.Repositories) != 1 {
		b.Fatalf("git section: %#v", st.Sections["git"])
	}
	r := sec.Repositories[0]
	if r.Ahead == nil || *r.Ahead != 5 || r.Dirty == nil || !*r.Dirty {
		b.Fatalf("repository: %+v", r)
	}
	b.Logf("first status (cold caches): %.1f ms", st.ElapsedMs)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := m.BuildStatus(ctx, tb.Status(), "", ""); err != nil {
			b.Fatal(err)
		}
	}
}
