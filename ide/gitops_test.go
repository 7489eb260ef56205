package ide

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/toolkit"
)

func needGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed (scripts/deps/ide.sh installs it)")
	}
}

// isolateGit keeps the user's and the system's git configuration out of
// the test, for the test's own git calls and for dbg's.
func isolateGit(t *testing.T) {
	t.Helper()
	needGit(t)
	empty := filepath.Join(t.TempDir(), "gitconfig")
	if err := os.WriteFile(empty, []byte("[user]\n\tname = Test\n\temail = test@example.com\n[protocol \"file\"]\n\tallow = always\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_CONFIG_GLOBAL", empty)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_AUTHOR_DATE", "")
	t.Setenv("GIT_COMMITTER_DATE", "")
}

func gitT(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
	}
	return strings.TrimSpace(string(out))
}

func commitFile(t *testing.T, dir, name, content, msg string) string {
	t.Helper()
	writeFile(t, filepath.Join(dir, name), content)
	gitT(t, dir, "add", name)
	gitT(t, dir, "commit", "-q", "-m", msg)
	return gitT(t, dir, "rev-parse", "HEAD")
}

// gitWorld is a bare "remote", a seed clone that pushes to it, and a work
// clone (the project) tracking origin/main.
type gitWorld struct {
	remote, seed, work string
}

func newGitWorld(t *testing.T) gitWorld {
	t.Helper()
	isolateGit(t)
	base := t.TempDir()
	w := gitWorld{remote: filepath.Join(base, "remote.git"), seed: filepath.Join(base, "seed"), work: filepath.Join(base, "work")}
	gitT(t, base, "init", "-q", "--bare", "-b", "main", w.remote)
	gitT(t, base, "clone", "-q", w.remote, w.seed)
	gitT(t, w.seed, "checkout", "-q", "-b", "main")
	commitFile(t, w.seed, "a.txt", "one\ntwo\nthree\n", "first")
	gitT(t, w.seed, "push", "-q", "-u", "origin", "main")
	gitT(t, base, "clone", "-q", w.remote, w.work)
	return w
}

// seedCommit adds a commit to the remote through the seed clone.
func (w gitWorld) seedCommit(t *testing.T, name, content string) {
	t.Helper()
	gitT(t, w.seed, "pull", "-q", "--rebase")
	commitFile(t, w.seed, name, content, "seed "+name)
	gitT(t, w.seed, "push", "-q", "origin", "main")
}

func repoByRoot(t *testing.T, reps []Repository, root string) Repository {
	t.Helper()
	for _, r := range reps {
		if r.Root == root {
			return r
		}
	}
	t.Fatalf("no repository %s in %+v", root, reps)
	return Repository{}
}

func TestGitRepositoriesWorktreesAndSubmodules(t *testing.T) {
	w := newGitWorld(t)
	c := newToolClient(t, w.work, Options{})
	var res RepositoriesResult
	c.ok(t, "get_git_repositories", nil, &res)
	r := repoByRoot(t, res.Repositories, w.work)
	if r.Kind != RepoMain || r.State != StateNormal || r.Branch != "main" || r.Upstream != "origin/main" || r.Dirty == nil || *r.Dirty {
		t.Errorf("work repo = %+v", r)
	}
	if r.Head != gitT(t, w.work, "rev-parse", "HEAD") || len(r.Remotes) != 1 || r.Remotes[0] != "origin" {
		t.Errorf("head/remotes = %s %v", r.Head, r.Remotes)
	}
	if r.Ahead == nil || *r.Ahead != 0 || *r.Behind != 0 {
		t.Errorf("ahead/behind = %v/%v", r.Ahead, r.Behind)
	}

	// Local commits, a remote commit, a dirty file, a linked worktree
	// and a submodule.
	commitFile(t, w.work, "b.txt", "b\n", "local 1")
	commitFile(t, w.work, "c.txt", "c\n", "local 2")
	w.seedCommit(t, "d.txt", "d\n")
	gitT(t, w.work, "fetch", "-q")
	writeFile(t, filepath.Join(w.work, "a.txt"), "changed\n")
	wt := filepath.Join(filepath.Dir(w.work), "wt")
	gitT(t, w.work, "worktree", "add", "-q", "-b", "feature", wt)
	gitT(t, w.work, "submodule", "add", "-q", w.remote, "sub")

	c.ok(t, "get_git_repositories", nil, &res)
	r = repoByRoot(t, res.Repositories, w.work)
	if r.Dirty == nil || !*r.Dirty {
		t.Errorf("work should be dirty: %+v", r)
	}
	if r.Ahead == nil || *r.Ahead != 2 || *r.Behind != 1 {
		t.Errorf("ahead/behind = %v/%v, want 2/1", deref(r.Ahead), deref(r.Behind))
	}
	wr := repoByRoot(t, res.Repositories, wt)
	if wr.Kind != RepoWorktree || wr.Branch != "feature" || wr.MainRoot != w.work || wr.Upstream != "" {
		t.Errorf("worktree = %+v", wr)
	}
	sr := repoByRoot(t, res.Repositories, filepath.Join(w.work, "sub"))
	if sr.Kind != RepoSubmodule || sr.Branch != "main" || sr.Head == "" {
		t.Errorf("submodule = %+v", sr)
	}
	if res.Repositories[0].Root != w.work {
		t.Errorf("the project's repository comes first: %v", res.Repositories[0].Root)
	}
	// Several repositories: a Git tool needs repositoryRoot.
	te, _ := c.fail(t, "git_fetch", nil, toolkit.CodeInvalidArgument)
	if len(te.AvailableOptions) != 3 {
		t.Errorf("options = %v", te.AvailableOptions)
	}
	c.ok(t, "git_fetch", map[string]any{"repositoryRoot": w.work}, nil)
	c.fail(t, "git_fetch", map[string]any{"repositoryRoot": "/elsewhere"}, toolkit.CodeInvalidArgument)
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestGitRemotesRedactsCredentials(t *testing.T) {
	w := newGitWorld(t)
	gitT(t, w.work, "remote", "add", "mirror", "https://alice:tok-SECRET1@example.invalid/x.git?access_token=SECRET2&ref=main")
	gitT(t, w.work, "config", "remote.mirror.pushurl", "https://bob:SECRET3@push.example.invalid/x.git")
	gitT(t, w.work, "remote", "add", "scp", "git@example.invalid:team/x.git")
	c := newToolClient(t, w.work, Options{})
	var res RemotesResult
	text := c.ok(t, "get_git_remotes", nil, &res)
	for _, s := range []string{"SECRET1", "SECRET2", "SECRET3", "alice", "bob"} {
		if strings.Contains(text, s) {
			t.Errorf("%q leaked: %s", s, text)
		}
	}
	got := map[string]Remote{}
	for _, r := range res.Remotes {
		got[r.Name] = r
	}
	if m := got["mirror"]; len(m.FetchURLs) != 1 || m.FetchURLs[0] != "https://***@example.invalid/x.git?access_token=***&ref=main" ||
		len(m.PushURLs) != 1 || m.PushURLs[0] != "https://***@push.example.invalid/x.git" {
		t.Errorf("mirror = %+v", m)
	}
	if o := got["origin"]; len(o.PushURLs) != 1 || o.PushURLs[0] != w.remote || o.FetchURLs[0] != w.remote {
		t.Errorf("origin = %+v", o)
	}
	if s := got["scp"]; s.FetchURLs[0] != "git@example.invalid:team/x.git" {
		t.Errorf("scp = %+v", s)
	}

	// A fetch from the token URL fails without showing the token.
	gitT(t, w.work, "remote", "set-url", "mirror", "https://alice:tok-SECRET1@127.0.0.1:9/x.git?private_token=SECRET2")
	_, text = c.fail(t, "git_fetch", map[string]any{"remote": "mirror"}, toolkit.CodeGitFailed)
	for _, s := range []string{"SECRET1", "SECRET2", "alice"} {
		if strings.Contains(text, s) {
			t.Errorf("%q leaked by fetch: %s", s, text)
		}
	}
	// Unknown remotes and URLs are refused.
	c.fail(t, "git_fetch", map[string]any{"remote": "https://example.invalid/x.git"}, toolkit.CodeInvalidArgument)
	c.fail(t, "git_push", map[string]any{"remote": "--force"}, toolkit.CodeInvalidArgument)
}

func TestGitPullStrategies(t *testing.T) {
	w := newGitWorld(t)
	c := newToolClient(t, w.work, Options{})

	// Behind only: ff_only fast-forwards.
	w.seedCommit(t, "r1.txt", "r1\n")
	var res OpResult
	c.ok(t, "git_pull", nil, &res)
	if res.Updated == nil || !*res.Updated || res.HeadAfter != gitT(t, w.seed, "rev-parse", "HEAD") || res.Strategy != PullFFOnly {
		t.Fatalf("ff pull = %+v", res)
	}

	// Diverged: ff_only refused; rebase and merge both work.
	local := commitFile(t, w.work, "l1.txt", "l1\n", "local")
	w.seedCommit(t, "r2.txt", "r2\n")
	te, _ := c.fail(t, "git_pull", map[string]any{"strategy": "ff_only"}, toolkit.CodeGitFailed)
	if !strings.Contains(te.Message, "diverged") || strings.Join(te.AvailableOptions, ",") != "rebase,merge" {
		t.Errorf("ff_only refusal = %+v", te)
	}
	if head := gitT(t, w.work, "rev-parse", "HEAD"); head != local {
		t.Fatalf("refused pull moved HEAD")
	}
	c.ok(t, "git_pull", map[string]any{"strategy": "rebase"}, &res)
	remoteHead := gitT(t, w.seed, "rev-parse", "HEAD")
	if gitT(t, w.work, "rev-parse", "HEAD~1") != remoteHead || gitT(t, w.work, "log", "-1", "--format=%s") != "local" {
		t.Errorf("rebase did not replay the local commit on %s", remoteHead)
	}

	commitFile(t, w.work, "l2.txt", "l2\n", "local 2")
	w.seedCommit(t, "r3.txt", "r3\n")
	c.ok(t, "git_pull", map[string]any{"strategy": "merge"}, &res)
	if parents := strings.Fields(gitT(t, w.work, "log", "-1", "--format=%P")); len(parents) != 2 {
		t.Errorf("merge pull made no merge commit: %v", parents)
	}
	c.fail(t, "git_pull", map[string]any{"strategy": "force"}, toolkit.CodeInvalidArgument)
}

func TestGitPullConflictLeavesRepository(t *testing.T) {
	for _, strategy := range []string{PullMerge, PullRebase} {
		t.Run(strategy, func(t *testing.T) {
			w := newGitWorld(t)
			c := newToolClient(t, w.work, Options{})
			commitFile(t, w.work, "a.txt", "one\nLOCAL\nthree\n", "local edit")
			gitT(t, w.seed, "pull", "-q")
			commitFile(t, w.seed, "a.txt", "one\nREMOTE\nthree\n", "remote edit")
			gitT(t, w.seed, "push", "-q", "origin", "main")
			te, _ := c.fail(t, "git_pull", map[string]any{"strategy": strategy}, toolkit.CodeGitFailed)
			wantState, abort := StateMerging, "git merge --abort"
			if strategy == PullRebase {
				wantState, abort = StateRebasing, "git rebase --abort"
			}
			if !strings.Contains(te.Message, "conflict") || !strings.Contains(te.Hint, abort) {
				t.Errorf("error = %+v", te)
			}
			d, _ := te.Details.(map[string]any)
			if files, _ := d["conflictedFiles"].([]any); len(files) != 1 || files[0] != "a.txt" || d["state"] != wantState {
				t.Errorf("details = %v", te.Details)
			}
			var res RepositoriesResult
			c.ok(t, "get_git_repositories", nil, &res)
			if st := repoByRoot(t, res.Repositories, w.work).State; st != wantState {
				t.Errorf("state after conflict = %s, want %s (left as git left it)", st, wantState)
			}
			// A pull in the middle of it is refused with the abort command.
			te, _ = c.fail(t, "git_pull", nil, toolkit.CodeGitFailed)
			if !strings.Contains(te.Hint, abort) {
				t.Errorf("second pull = %+v", te)
			}
		})
	}
}

func TestGitDetachedAndNoUpstream(t *testing.T) {
	w := newGitWorld(t)
	c := newToolClient(t, w.work, Options{})
	gitT(t, w.work, "checkout", "-q", "--detach")
	var res RepositoriesResult
	c.ok(t, "get_git_repositories", nil, &res)
	if r := res.Repositories[0]; r.State != StateDetached || r.Branch != "" || r.Head == "" {
		t.Errorf("detached = %+v", r)
	}
	for _, tool := range []string{"git_pull", "git_push"} {
		if te, _ := c.fail(t, tool, nil, toolkit.CodeGitFailed); !strings.Contains(te.Message, "detached") {
			t.Errorf("%s on detached HEAD: %+v", tool, te)
		}
	}

	gitT(t, w.work, "switch", "-q", "-c", "topic")
	commitFile(t, w.work, "t.txt", "t\n", "topic")
	if te, _ := c.fail(t, "git_pull", nil, toolkit.CodeGitFailed); !strings.Contains(te.Message, "no upstream") {
		t.Errorf("pull without upstream: %+v", te)
	}
	var op OpResult
	c.ok(t, "git_push", map[string]any{"setUpstream": true}, &op)
	if op.Remote != "origin" || op.Upstream != "origin/topic" {
		t.Errorf("push = %+v", op)
	}
	if got := gitT(t, w.remote, "rev-parse", "refs/heads/topic"); got != gitT(t, w.work, "rev-parse", "HEAD") {
		t.Errorf("remote topic = %s", got)
	}
	c.ok(t, "git_pull", nil, &op) // now it has an upstream
}

func TestGitPushNeverForces(t *testing.T) {
	w := newGitWorld(t)
	c := newToolClient(t, w.work, Options{})
	commitFile(t, w.work, "l.txt", "l\n", "local")
	w.seedCommit(t, "r.txt", "r\n")
	before := gitT(t, w.remote, "rev-parse", "refs/heads/main")
	te, _ := c.fail(t, "git_push", nil, toolkit.CodeGitFailed)
	if !strings.Contains(te.Message, "rejected") || !strings.Contains(te.Hint, "pull") {
		t.Errorf("push error = %+v", te)
	}
	if after := gitT(t, w.remote, "rev-parse", "refs/heads/main"); after != before {
		t.Fatal("a rejected push changed the remote")
	}
	// After pulling, the push goes through.
	c.ok(t, "git_pull", map[string]any{"strategy": "rebase"}, nil)
	var op OpResult
	c.ok(t, "git_push", nil, &op)
	if gitT(t, w.remote, "rev-parse", "refs/heads/main") != gitT(t, w.work, "rev-parse", "HEAD") {
		t.Error("push did not update the remote")
	}
	// Hooks run: a failing pre-push hook stops the push.
	writeFile(t, filepath.Join(w.work, ".git", "hooks", "pre-push"), "#!/bin/sh\necho hook says no >&2\nexit 1\n")
	if err := os.Chmod(filepath.Join(w.work, ".git", "hooks", "pre-push"), 0o755); err != nil {
		t.Fatal(err)
	}
	commitFile(t, w.work, "h.txt", "h\n", "hooked")
	_, text := c.fail(t, "git_push", nil, toolkit.CodeGitFailed)
	if !strings.Contains(text, "hook says no") {
		t.Errorf("hook output missing: %s", text)
	}
}

func TestGitTwoRemotesNoUpstream(t *testing.T) {
	isolateGit(t)
	base := t.TempDir()
	a, b, work := filepath.Join(base, "a.git"), filepath.Join(base, "b.git"), filepath.Join(base, "work")
	gitT(t, base, "init", "-q", "--bare", a)
	gitT(t, base, "init", "-q", "--bare", b)
	gitT(t, base, "init", "-q", "-b", "main", work)
	commitFile(t, work, "x.txt", "x\n", "x")
	gitT(t, work, "remote", "add", "alpha", a)
	gitT(t, work, "remote", "add", "beta", b)
	c := newToolClient(t, work, Options{})
	for _, tool := range []string{"git_fetch", "git_push"} {
		te, _ := c.fail(t, tool, nil, toolkit.CodeInvalidArgument)
		if strings.Join(te.AvailableOptions, ",") != "alpha,beta" {
			t.Errorf("%s options = %v", tool, te.AvailableOptions)
		}
	}
	var op OpResult
	c.ok(t, "git_push", map[string]any{"remote": "beta"}, &op)
	if op.Remote != "beta" || op.Upstream != "" {
		t.Errorf("push = %+v", op)
	}
	c.ok(t, "git_fetch", map[string]any{"remote": "beta", "prune": true}, &op)
	// With an origin, origin is the default.
	gitT(t, work, "remote", "rename", "alpha", "origin")
	c.ok(t, "git_fetch", nil, &op)
	if op.Remote != "origin" {
		t.Errorf("default remote = %s", op.Remote)
	}
}

func TestGitNoRepository(t *testing.T) {
	isolateGit(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "go.mod"), "module x\n")
	c := newToolClient(t, dir, Options{})
	var res RepositoriesResult
	c.ok(t, "get_git_repositories", nil, &res)
	if len(res.Repositories) != 0 {
		t.Errorf("repos = %+v", res.Repositories)
	}
	c.fail(t, "git_pull", nil, toolkit.CodeGitFailed)
	c.fail(t, "get_git_remotes", map[string]any{"projectPath": filepath.Join(dir, "missing")}, toolkit.CodeNoProject)
}

func TestGitNeverPromptsAndTimesOut(t *testing.T) {
	w := newGitWorld(t)
	// A remote asking for a password: git must fail at once, not prompt.
	auth := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("WWW-Authenticate", `Basic realm="x"`)
		rw.WriteHeader(http.StatusUnauthorized)
	}))
	defer auth.Close()
	// A remote that never answers.
	hang := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		select {
		case <-hang:
		case <-r.Context().Done():
		}
	}))
	defer slow.Close()
	defer close(hang)
	gitT(t, w.work, "remote", "add", "auth", auth.URL+"/x.git")
	gitT(t, w.work, "remote", "add", "slow", slow.URL+"/x.git")
	c := newToolClient(t, w.work, Options{GitTimeout: 2 * time.Second})

	start := time.Now()
	te, text := c.fail(t, "git_fetch", map[string]any{"remote": "auth"}, toolkit.CodeGitFailed)
	if !strings.Contains(text, "terminal prompts disabled") {
		t.Errorf("git was allowed to prompt: %s", text)
	}
	if d := time.Since(start); d > 10*time.Second || te.Retryable {
		t.Errorf("auth fetch took %v: %+v", d, te)
	}
	start = time.Now()
	te, _ = c.fail(t, "git_fetch", map[string]any{"remote": "slow"}, toolkit.CodeGitFailed)
	if d := time.Since(start); d > 10*time.Second || !te.Retryable || !strings.Contains(te.Message, "timed out") {
		t.Errorf("slow fetch took %v: %+v", d, te)
	}
}

func TestGitWithoutGitCommand(t *testing.T) {
	w := newGitWorld(t)
	c := newToolClient(t, w.work, Options{GitPath: "/nonexistent/dbg-no-git"})
	w.seedCommit(t, "r.txt", "r\n")
	var op OpResult
	c.ok(t, "git_fetch", nil, &op)
	if gitT(t, w.work, "rev-parse", "origin/main") != gitT(t, w.seed, "rev-parse", "HEAD") {
		t.Fatal("go-git fetch did not update origin/main")
	}
	w.seedCommit(t, "r2.txt", "r2\n")
	c.ok(t, "git_pull", nil, &op)
	if op.Updated == nil || !*op.Updated || gitT(t, w.work, "rev-parse", "HEAD") != gitT(t, w.seed, "rev-parse", "HEAD") {
		t.Fatalf("go-git fast-forward = %+v", op)
	}
	if _, err := os.Stat(filepath.Join(w.work, "r2.txt")); err != nil {
		t.Errorf("the worktree was not updated: %v", err)
	}
	if te, _ := c.fail(t, "git_pull", map[string]any{"strategy": "merge"}, toolkit.CodeGitFailed); !strings.Contains(te.Hint, "install git") {
		t.Errorf("merge without git = %+v", te)
	}
	if te, _ := c.fail(t, "git_push", nil, toolkit.CodeGitFailed); !strings.Contains(te.Message, "hooks") {
		t.Errorf("push without git = %+v", te)
	}
	commitFile(t, w.work, "l.txt", "l\n", "local")
	w.seedCommit(t, "r3.txt", "r3\n")
	c.ok(t, "git_fetch", nil, &op)
	if te, _ := c.fail(t, "git_pull", nil, toolkit.CodeGitFailed); !strings.Contains(te.Message, "diverged") {
		t.Errorf("diverged without git = %+v", te)
	}
	part := gitStatus{c.x}.Status(context.Background(), toolkit.StatusQuery{Project: w.work})
	if sec := part.Data.(GitSection); sec.GitCommand || !strings.Contains(part.Capabilities[0].Reason, "go-git") {
		t.Errorf("status without git = %+v", part)
	}
}

func TestGitFetchPrune(t *testing.T) {
	w := newGitWorld(t)
	gitT(t, w.seed, "push", "-q", "origin", "main:refs/heads/old")
	c := newToolClient(t, w.work, Options{})
	c.ok(t, "git_fetch", nil, nil)
	gitT(t, w.work, "rev-parse", "--verify", "-q", "refs/remotes/origin/old")
	gitT(t, w.seed, "push", "-q", "origin", "--delete", "old")
	c.ok(t, "git_fetch", map[string]any{"prune": false}, nil)
	gitT(t, w.work, "rev-parse", "--verify", "-q", "refs/remotes/origin/old") // kept without prune
	var op OpResult
	c.ok(t, "git_fetch", map[string]any{"prune": true}, &op)
	if out, err := exec.Command("git", "-C", w.work, "rev-parse", "--verify", "-q", "refs/remotes/origin/old").CombinedOutput(); err == nil {
		t.Errorf("origin/old survived a prune: %s", out)
	}
	if !strings.Contains(strings.Join(op.Output, "\n"), "[deleted]") {
		t.Errorf("prune output = %q", op.Output)
	}
}
