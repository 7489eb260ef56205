package ide

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/dbg-dev/dbg/toolkit"
)

// Pull strategies.
const (
	PullFFOnly = "ff_only"
	PullRebase = "rebase"
	PullMerge  = "merge"
)

// Git answers the Git tools for projects. It is safe for concurrent use;
// each call opens the repository afresh.
type Git struct {
	cmd   gitCommand
	cache *aheadBehindCache
}

// newGit returns a Git using the git executable at path ("" = PATH).
func newGit(path string, opts Options) *Git {
	return &Git{cmd: gitCommand{path: path, timeout: opts.GitTimeout}, cache: &aheadBehindCache{}}
}

// Repositories reads every repository of the project, with dirty state
// and ahead/behind.
func (g *Git) Repositories(ctx context.Context, project string) ([]Repository, error) {
	locs, err := findRepositories(ctx, project)
	if err != nil {
		return nil, toolkit.NewError(toolkit.CodeGitFailed, "cannot search the project for repositories: "+err.Error(), "check that projectPath is readable").Wrap(err)
	}
	out := make([]Repository, 0, len(locs))
	for _, l := range locs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out = append(out, readRepository(l, readOptions{dirty: true, aheadBehindBudget: 100000, cache: g.cache}))
	}
	return out, nil
}

// pick chooses the repository a call acts on: repositoryRoot when given
// (it must be one of the project's), else the only one.
func (g *Git) pick(ctx context.Context, project, root string) (Repository, error) {
	locs, err := findRepositories(ctx, project)
	if err != nil {
		return Repository{}, toolkit.NewError(toolkit.CodeGitFailed, "cannot search the project for repositories: "+err.Error(), "").Wrap(err)
	}
	roots := make([]string, len(locs))
	for i, l := range locs {
		roots[i] = l.root
	}
	if len(locs) == 0 {
		return Repository{}, toolkit.NewError(toolkit.CodeGitFailed, "the project "+project+" has no Git repository", "pass the projectPath of a project under Git")
	}
	if root == "" {
		if len(locs) > 1 {
			return Repository{}, toolkit.NewError(toolkit.CodeInvalidArgument, "repositoryRoot is required: the project has several repositories",
				"pass one of availableOptions (from get_git_repositories) as repositoryRoot").WithOptions(roots...)
		}
		return readRepository(locs[0], readOptions{}), nil
	}
	want := filepath.Clean(filepath.FromSlash(root))
	if !filepath.IsAbs(want) {
		want = filepath.Join(project, want)
	}
	for _, l := range locs {
		if l.root == want {
			return readRepository(l, readOptions{}), nil
		}
	}
	return Repository{}, toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("%s is not a repository of the project", root),
		"pass one of availableOptions as repositoryRoot").WithOptions(roots...)
}

// chooseRemote picks the remote: the one asked for (it must exist), else
// the upstream's, else origin, else the only one.
func chooseRemote(rep Repository, asked string) (string, error) {
	if asked != "" {
		for _, r := range rep.Remotes {
			if r == asked {
				return r, nil
			}
		}
		return "", toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("the repository has no remote %q", asked),
			"pass one of availableOptions as remote; dbg does not take URLs").WithOptions(rep.Remotes...)
	}
	if rep.upstreamRemote != "" && rep.upstreamRemote != "." {
		return rep.upstreamRemote, nil
	}
	for _, r := range rep.Remotes {
		if r == "origin" {
			return r, nil
		}
	}
	switch len(rep.Remotes) {
	case 0:
		return "", toolkit.NewError(toolkit.CodeGitFailed, "the repository has no remote", "add one with git remote add")
	case 1:
		return rep.Remotes[0], nil
	}
	return "", toolkit.NewError(toolkit.CodeInvalidArgument, "remote is required: the branch has no upstream, there is no origin and there are several remotes",
		"pass one of availableOptions as remote").WithOptions(rep.Remotes...)
}

// Remote is one remote with its URLs, credentials redacted.
type Remote struct {
	Name      string   `json:"name"`
	FetchURLs []string `json:"fetchUrls"`
	PushURLs  []string `json:"pushUrls"`
}

// RemotesResult is the answer of get_git_remotes.
type RemotesResult struct {
	RepositoryRoot string   `json:"repositoryRoot"`
	Remotes        []Remote `json:"remotes"`
}

// Remotes lists a repository's remotes. Push URLs are the pushurl
// settings, or the fetch URLs when there are none.
func (g *Git) Remotes(ctx context.Context, project, root string) (RemotesResult, error) {
	rep, err := g.pick(ctx, project, root)
	if err != nil {
		return RemotesResult{}, err
	}
	r, err := openRepo(rep.Root)
	if err != nil {
		return RemotesResult{}, toolkit.NewError(toolkit.CodeGitFailed, "cannot open the repository: "+RedactText(err.Error()), "").Wrap(err)
	}
	cfg, err := r.Config()
	if err != nil {
		return RemotesResult{}, toolkit.NewError(toolkit.CodeGitFailed, "cannot read the configuration: "+RedactText(err.Error()), "").Wrap(err)
	}
	res := RemotesResult{RepositoryRoot: rep.Root, Remotes: []Remote{}}
	for name, rc := range cfg.Remotes {
		rm := Remote{Name: name, FetchURLs: []string{}, PushURLs: []string{}}
		// go-git folds pushurl into URLs; the raw section keeps them apart.
		fetch, push := rc.URLs, []string(nil)
		if cfg.Raw != nil && cfg.Raw.HasSection("remote") {
			sub := cfg.Raw.Section("remote").Subsection(name)
			fetch = sub.Options.GetAll("url")
			push = sub.Options.GetAll("pushurl")
		}
		for _, u := range fetch {
			rm.FetchURLs = append(rm.FetchURLs, RedactURL(u))
		}
		for _, u := range push {
			rm.PushURLs = append(rm.PushURLs, RedactURL(u))
		}
		if len(push) == 0 {
			rm.PushURLs = append(rm.PushURLs, rm.FetchURLs...)
		}
		res.Remotes = append(res.Remotes, rm)
	}
	sort.Slice(res.Remotes, func(i, j int) bool { return res.Remotes[i].Name < res.Remotes[j].Name })
	return res, nil
}

// OpResult is the answer of git_fetch, git_pull and git_push.
type OpResult struct {
	RepositoryRoot string   `json:"repositoryRoot"`
	Remote         string   `json:"remote,omitempty"`
	Branch         string   `json:"branch,omitempty"`
	Upstream       string   `json:"upstream,omitempty"`
	Strategy       string   `json:"strategy,omitempty"`
	HeadBefore     string   `json:"headBefore,omitempty"`
	HeadAfter      string   `json:"headAfter,omitempty"`
	Updated        *bool    `json:"updated,omitempty"`
	Output         []string `json:"output"`
}

// failedOp answers a git command that ran and failed (a refused pull or
// push, a conflict, an unreachable remote): the envelope fails with te's
// code and keeps res, with git's output, in data. Interruptions keep no
// data.
func failedOp(res OpResult, err error, te *toolkit.ToolError) (OpResult, error) {
	var ge *GitError
	if len(res.Output) == 0 && errors.As(err, &ge) {
		res.Output = ge.Output
	}
	res.Output = nonNil(res.Output)
	if te.Code != toolkit.CodeGitFailed {
		return OpResult{}, te
	}
	return res, te.KeepData()
}

// gitFailure turns a failed command into GIT_FAILED with its output.
func gitFailure(err error, what, hint string) *toolkit.ToolError {
	if errors.Is(err, ErrNoGit) {
		return toolkit.NewError(toolkit.CodeGitFailed, "the git command is not installed; dbg needs it for "+what,
			"install git (apt-get install git) and call again").Wrap(err)
	}
	var ge *GitError
	if errors.As(err, &ge) {
		te := toolkit.NewError(toolkit.CodeGitFailed, RedactText(ge.Error()), hint).WithDetails(map[string]any{"output": ge.Output, "exitCode": ge.ExitCode}).Wrap(err)
		if ge.TimedOut {
			te.Hint = "the remote did not answer in time; check the network and call again"
			te.Retry()
		}
		return te
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return toolkit.NewError(toolkit.CodeTimeout, what+" was interrupted: "+err.Error(), "call again").Retry().Wrap(err)
	}
	return toolkit.NewError(toolkit.CodeGitFailed, what+" failed: "+RedactText(err.Error()), hint).Wrap(err)
}

// Fetch runs git fetch [--prune] REMOTE.
func (g *Git) Fetch(ctx context.Context, project, root, remote string, prune bool) (OpResult, error) {
	rep, err := g.pick(ctx, project, root)
	if err != nil {
		return OpResult{}, err
	}
	remote, err = chooseRemote(rep, remote)
	if err != nil {
		return OpResult{}, err
	}
	if _, err := g.cmd.lookPath(); err != nil {
		return g.goGitFetch(ctx, rep, remote, prune)
	}
	args := []string{"fetch"}
	if prune {
		args = append(args, "--prune")
	}
	args = append(args, "--", remote)
	out, err := g.cmd.run(ctx, rep.Root, args...)
	res := OpResult{RepositoryRoot: rep.Root, Remote: remote, Branch: rep.Branch, Upstream: rep.Upstream, Output: nonNil(out)}
	if err != nil {
		return failedOp(res, err, gitFailure(err, "fetch", "check the remote's URL and credentials (git remote -v) and that it is reachable"))
	}
	return res, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// refuseUnlessOnBranch refuses detached HEADs and operations in progress.
func refuseUnlessOnBranch(rep Repository, what string) error {
	switch rep.State {
	case StateNormal:
		return nil
	case StateDetached:
		return toolkit.NewError(toolkit.CodeGitFailed, fmt.Sprintf("cannot %s: HEAD is detached at %s", what, short(rep.Head)),
			"check out a branch first (git switch BRANCH)")
	}
	return toolkit.NewError(toolkit.CodeGitFailed, fmt.Sprintf("cannot %s: the repository is in the middle of an operation (%s)", what, rep.State),
		"finish or abort it first ("+abortCommand(rep.State)+")").WithDetails(map[string]any{"state": rep.State})
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

func abortCommand(state string) string {
	switch state {
	case StateMerging:
		return "git merge --abort"
	case StateRebasing:
		return "git rebase --abort"
	case StateCherryPicking:
		return "git cherry-pick --abort"
	case StateReverting:
		return "git revert --abort"
	}
	return "git status says how"
}

// Pull runs git pull with a strategy on the current branch's upstream.
func (g *Git) Pull(ctx context.Context, project, root, strategy string) (OpResult, error) {
	if strategy == "" {
		strategy = PullFFOnly
	}
	var args []string
	switch strategy {
	case PullFFOnly:
		args = []string{"pull", "--ff-only", "--no-rebase"}
	case PullRebase:
		args = []string{"pull", "--rebase"}
	case PullMerge:
		args = []string{"pull", "--no-rebase", "--ff", "--no-edit"}
	default:
		return OpResult{}, toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("unknown strategy %q", strategy),
			"pass one of availableOptions as strategy").WithOptions(PullFFOnly, PullRebase, PullMerge)
	}
	rep, err := g.pick(ctx, project, root)
	if err != nil {
		return OpResult{}, err
	}
	if err := refuseUnlessOnBranch(rep, "pull"); err != nil {
		return OpResult{}, err
	}
	if rep.Upstream == "" {
		return OpResult{}, toolkit.NewError(toolkit.CodeGitFailed, fmt.Sprintf("branch %s has no upstream", rep.Branch),
			"set one with git_push(setUpstream: true) or git branch --set-upstream-to=REMOTE/BRANCH")
	}
	if _, err := g.cmd.lookPath(); err != nil {
		if strategy != PullFFOnly || rep.upstreamRemote == "." {
			return OpResult{}, needGitCommand("a " + strategy + " pull")
		}
		return g.goGitPullFF(ctx, rep)
	}
	res := OpResult{RepositoryRoot: rep.Root, Remote: rep.upstreamRemote, Branch: rep.Branch, Upstream: rep.Upstream, Strategy: strategy, HeadBefore: rep.Head}
	out, err := g.cmd.run(ctx, rep.Root, args...)
	after := readRepository(gitLocation{root: rep.Root, gitDir: rep.gitDir, commonDir: rep.commonDir, kind: rep.Kind}, readOptions{})
	if err != nil {
		res.HeadAfter, res.Output = after.Head, nonNil(out)
		if after.State == StateMerging || after.State == StateRebasing || hasConflict(out) {
			files, _ := g.cmd.run(ctx, rep.Root, "diff", "--name-only", "--diff-filter=U")
			return failedOp(res, err, toolkit.NewError(toolkit.CodeGitFailed,
				fmt.Sprintf("pull (%s) stopped on a conflict in %d file(s); the repository is left as git left it (%s)", strategy, len(files), after.State),
				"resolve the conflicts and commit (or git rebase --continue), or undo with "+abortCommand(after.State)).
				WithDetails(map[string]any{"conflictedFiles": nonNil(files), "state": after.State, "abortCommand": abortCommand(after.State), "output": out}).Wrap(err))
		}
		if strategy == PullFFOnly && diverged(out) {
			return failedOp(res, err, toolkit.NewError(toolkit.CodeGitFailed,
				fmt.Sprintf("%s has diverged from %s: a fast-forward is not possible", rep.Branch, rep.Upstream),
				"pull again with strategy rebase or merge").WithOptions(PullRebase, PullMerge).
				WithDetails(map[string]any{"output": out}).Wrap(err))
		}
		return failedOp(res, err, gitFailure(err, "pull", "read the output in details; the repository is left as git left it"))
	}
	res.HeadAfter = after.Head
	updated := res.HeadAfter != res.HeadBefore
	res.Updated = &updated
	res.Output = nonNil(out)
	return res, nil
}

func hasConflict(out []string) bool {
	for _, l := range out {
		if strings.HasPrefix(l, "CONFLICT") || strings.Contains(l, "Automatic merge failed") || strings.Contains(l, "could not apply") {
			return true
		}
	}
	return false
}

func diverged(out []string) bool {
	for _, l := range out {
		if strings.Contains(l, "Not possible to fast-forward") || strings.Contains(l, "have diverged") || strings.Contains(l, "divergent branches") {
			return true
		}
	}
	return false
}

// Push pushes the current branch to a remote: to its upstream branch
// when pushing to the upstream's remote, else to a branch of the same
// name. It never forces, never takes a refspec and never skips hooks.
func (g *Git) Push(ctx context.Context, project, root, remote string, setUpstream bool) (OpResult, error) {
	rep, err := g.pick(ctx, project, root)
	if err != nil {
		return OpResult{}, err
	}
	if err := refuseUnlessOnBranch(rep, "push"); err != nil {
		return OpResult{}, err
	}
	if rep.Head == "" {
		return OpResult{}, toolkit.NewError(toolkit.CodeGitFailed, fmt.Sprintf("branch %s has no commit yet", rep.Branch), "commit first")
	}
	remote, err = chooseRemote(rep, remote)
	if err != nil {
		return OpResult{}, err
	}
	if _, err := g.cmd.lookPath(); err != nil {
		return OpResult{}, needGitCommand("push (so the repository's hooks run)")
	}
	target := "refs/heads/" + rep.Branch
	if remote == rep.upstreamRemote && strings.HasPrefix(rep.upstreamMerge, "refs/heads/") {
		target = rep.upstreamMerge
	}
	args := []string{"push"}
	if setUpstream {
		args = append(args, "--set-upstream")
	}
	args = append(args, "--", remote, "refs/heads/"+rep.Branch+":"+target)
	out, err := g.cmd.run(ctx, rep.Root, args...)
	if err != nil {
		res := OpResult{RepositoryRoot: rep.Root, Remote: remote, Branch: rep.Branch, Upstream: rep.Upstream, HeadBefore: rep.Head, Output: nonNil(out)}
		if rejected(out) {
			return failedOp(res, err, toolkit.NewError(toolkit.CodeGitFailed,
				fmt.Sprintf("push to %s was rejected: the remote branch has commits that %s does not have", remote, rep.Branch),
				"pull first (git_pull), then push again; dbg never forces a push").
				WithDetails(map[string]any{"output": out}).Wrap(err))
		}
		return failedOp(res, err, gitFailure(err, "push", "read the output in details (a hook or the remote may have refused the push)"))
	}
	after := readRepository(gitLocation{root: rep.Root, gitDir: rep.gitDir, commonDir: rep.commonDir, kind: rep.Kind}, readOptions{})
	return OpResult{RepositoryRoot: rep.Root, Remote: remote, Branch: rep.Branch, Upstream: after.Upstream, HeadBefore: rep.Head, HeadAfter: after.Head, Output: nonNil(out)}, nil
}

func rejected(out []string) bool {
	for _, l := range out {
		if strings.Contains(l, "[rejected]") && (strings.Contains(l, "non-fast-forward") || strings.Contains(l, "fetch first")) {
			return true
		}
	}
	return false
}
