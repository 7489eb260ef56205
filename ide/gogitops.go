package ide

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/dbg-dev/dbg/toolkit"
)

// Without the git command, fetch and fast-forward pulls go through
// go-git. Rebase and merge pulls need git, and so does push: go-git would
// not run the repository's hooks.

const noGitNote = "the git command is not installed; done with go-git"

func (g *Git) timeoutCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	d := g.cmd.timeout
	if d <= 0 {
		d = 2 * time.Minute
	}
	return context.WithTimeout(ctx, d)
}

func goGitFailure(err error, what string) *toolkit.ToolError {
	te := toolkit.NewError(toolkit.CodeGitFailed, what+" failed: "+RedactText(err.Error()),
		"install the git command for credential helpers and clearer errors (apt-get install git)").Wrap(err)
	if errors.Is(err, context.DeadlineExceeded) {
		te.Message = what + " timed out"
		te.Retry()
	}
	return te
}

// goGitFetch fetches remote with go-git.
func (g *Git) goGitFetch(ctx context.Context, rep Repository, remote string, prune bool) (OpResult, error) {
	r, err := openRepo(rep.Root)
	if err != nil {
		return OpResult{}, goGitFailure(err, "fetch")
	}
	ctx, cancel := g.timeoutCtx(ctx)
	defer cancel()
	err = r.FetchContext(ctx, &git.FetchOptions{RemoteName: remote, Prune: prune})
	out := []string{noGitNote}
	switch {
	case errors.Is(err, git.NoErrAlreadyUpToDate):
		out = append(out, "already up to date")
	case err != nil:
		return OpResult{}, goGitFailure(err, "fetch")
	}
	return OpResult{RepositoryRoot: rep.Root, Remote: remote, Branch: rep.Branch, Upstream: rep.Upstream, Output: out}, nil
}

// goGitPullFF fast-forwards the current branch to its upstream with
// go-git, refusing anything but a fast-forward.
func (g *Git) goGitPullFF(ctx context.Context, rep Repository) (OpResult, error) {
	r, err := openRepo(rep.Root)
	if err != nil {
		return OpResult{}, goGitFailure(err, "pull")
	}
	wt, err := r.Worktree()
	if err != nil {
		return OpResult{}, goGitFailure(err, "pull")
	}
	ctx, cancel := g.timeoutCtx(ctx)
	defer cancel()
	err = wt.PullContext(ctx, &git.PullOptions{RemoteName: rep.upstreamRemote, ReferenceName: plumbing.ReferenceName(rep.upstreamMerge), SingleBranch: true})
	out := []string{noGitNote}
	switch {
	case errors.Is(err, git.NoErrAlreadyUpToDate):
		out = append(out, "already up to date")
	case errors.Is(err, git.ErrNonFastForwardUpdate):
		return OpResult{}, toolkit.NewError(toolkit.CodeGitFailed,
			fmt.Sprintf("%s has diverged from %s: a fast-forward is not possible", rep.Branch, rep.Upstream),
			"rebase and merge pulls need the git command (apt-get install git)").Wrap(err)
	case err != nil:
		return OpResult{}, goGitFailure(err, "pull")
	}
	after := readRepository(gitLocation{root: rep.Root, gitDir: rep.gitDir, commonDir: rep.commonDir, kind: rep.Kind}, readOptions{})
	updated := after.Head != rep.Head
	return OpResult{RepositoryRoot: rep.Root, Remote: rep.upstreamRemote, Branch: rep.Branch, Upstream: rep.Upstream, Strategy: PullFFOnly,
		HeadBefore: rep.Head, HeadAfter: after.Head, Updated: &updated, Output: out}, nil
}

func needGitCommand(what string) *toolkit.ToolError {
	return toolkit.NewError(toolkit.CodeGitFailed, what+" needs the git command, which is not installed",
		"install git (apt-get install git) and call again")
}
