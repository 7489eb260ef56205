package ide

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
)

// Repository states, as IntelliJ names them.
const (
	StateNormal        = "NORMAL"
	StateDetached      = "DETACHED"
	StateMerging       = "MERGING"
	StateRebasing      = "REBASING"
	StateCherryPicking = "CHERRY_PICKING"
	StateReverting     = "REVERTING"
)

// Repository kinds.
const (
	RepoMain      = "main"
	RepoWorktree  = "worktree"
	RepoSubmodule = "submodule"
)

// Repository is what dbg reports about one Git working tree.
type Repository struct {
	Root     string   `json:"root"`
	Kind     string   `json:"kind"`
	MainRoot string   `json:"mainRoot,omitempty"` // a linked worktree's main working tree
	State    string   `json:"state"`
	Head     string   `json:"head,omitempty"` // commit hash; empty before the first commit
	Branch   string   `json:"branch,omitempty"`
	Upstream string   `json:"upstream,omitempty"` // remote/branch
	Remotes  []string `json:"remotes"`
	Dirty    *bool    `json:"dirty,omitempty"`
	Ahead    *int     `json:"ahead,omitempty"`
	Behind   *int     `json:"behind,omitempty"`
	Error    string   `json:"error,omitempty"`

	gitDir, commonDir string
	upstreamRemote    string
	upstreamMerge     string // refs/heads/x on the remote
	upstreamHash      string
}

// gitLocation is where a working tree keeps its repository.
type gitLocation struct {
	root, gitDir, commonDir, kind string
}

// locateGit reads root/.git: a directory (a main repository) or a file
// pointing at the git directory (a linked worktree or a submodule).
func locateGit(root string) (gitLocation, error) {
	dot := filepath.Join(root, ".git")
	st, err := os.Stat(dot)
	if err != nil {
		return gitLocation{}, err
	}
	loc := gitLocation{root: root, gitDir: dot, commonDir: dot, kind: RepoMain}
	if st.IsDir() {
		return loc, nil
	}
	b, err := os.ReadFile(dot)
	if err != nil {
		return gitLocation{}, err
	}
	line := strings.TrimSpace(string(b))
	if !strings.HasPrefix(line, "gitdir:") {
		return gitLocation{}, fmt.Errorf("%s: not a gitdir file", dot)
	}
	gd := strings.TrimSpace(strings.TrimPrefix(line, "gitdir:"))
	if !filepath.IsAbs(gd) {
		gd = filepath.Join(root, gd)
	}
	loc.gitDir, loc.commonDir = filepath.Clean(gd), filepath.Clean(gd)
	if c, err := os.ReadFile(filepath.Join(loc.gitDir, "commondir")); err == nil {
		cd := strings.TrimSpace(string(c))
		if !filepath.IsAbs(cd) {
			cd = filepath.Join(loc.gitDir, cd)
		}
		loc.commonDir = filepath.Clean(cd)
		loc.kind = RepoWorktree
	} else {
		loc.kind = RepoSubmodule
	}
	return loc, nil
}

// skipDirs are folders never searched for repositories.
var skipDirs = map[string]bool{
	"node_modules": true, ".gradle": true, ".idea": true, ".vscode": true, "target": true,
	"build": true, "dist": true, "out": true, "vendor": true, ".venv": true, "venv": true,
	"__pycache__": true, ".tox": true, ".mypy_cache": true, ".cache": true,
}

// Bounds of the repository search.
const (
	maxSearchDepth = 6
	maxSearchDirs  = 20000
)

// findRepositories lists the Git working trees of a project: the one the
// project lives in, every repository and submodule below it, and the
// linked worktrees of all of them. Roots are sorted, the project's own
// first.
func findRepositories(ctx context.Context, project string) ([]gitLocation, error) {
	found := map[string]gitLocation{}
	add := func(root string) {
		if _, ok := found[root]; ok {
			return
		}
		if loc, err := locateGit(root); err == nil {
			found[root] = loc
		}
	}
	// The repository the project is inside of.
	for d := project; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			add(d)
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	visited := 0
	err := filepath.WalkDir(project, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == project {
				return err
			}
			return nil // unreadable folder: skip it
		}
		if !d.IsDir() {
			return nil
		}
		if visited++; visited > maxSearchDirs {
			return filepath.SkipAll
		}
		if visited%256 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		name := d.Name()
		if p != project && (name == ".git" || skipDirs[name]) {
			return filepath.SkipDir
		}
		if rel, _ := filepath.Rel(project, p); strings.Count(rel, string(filepath.Separator)) >= maxSearchDepth {
			return filepath.SkipDir
		}
		if _, err := os.Lstat(filepath.Join(p, ".git")); err == nil {
			add(p)
		}
		return nil
	})
	if err != nil && !errors.Is(err, filepath.SkipAll) {
		return nil, err
	}
	// Linked worktrees, wherever they are.
	for _, loc := range mapValues(found) {
		if loc.kind == RepoWorktree {
			continue
		}
		ents, _ := os.ReadDir(filepath.Join(loc.commonDir, "worktrees"))
		for _, e := range ents {
			b, err := os.ReadFile(filepath.Join(loc.commonDir, "worktrees", e.Name(), "gitdir"))
			if err != nil {
				continue
			}
			root := filepath.Dir(strings.TrimSpace(string(b)))
			add(root)
		}
	}
	out := mapValues(found)
	sort.Slice(out, func(i, j int) bool {
		pi, pj := out[i].root == project, out[j].root == project
		if pi != pj {
			return pi
		}
		return out[i].root < out[j].root
	})
	return out, nil
}

func mapValues(m map[string]gitLocation) []gitLocation {
	out := make([]gitLocation, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].root < out[j].root })
	return out
}

// mainRootOf returns the main working tree of a linked worktree.
func mainRootOf(loc gitLocation) string {
	if loc.kind != RepoWorktree {
		return ""
	}
	if filepath.Base(loc.commonDir) == ".git" {
		return filepath.Dir(loc.commonDir)
	}
	return ""
}

// repoState reads the in-progress operation from the git directory.
func repoState(gitDir string, detached bool) string {
	has := func(name string) bool {
		_, err := os.Stat(filepath.Join(gitDir, name))
		return err == nil
	}
	switch {
	case has("rebase-merge"), has("rebase-apply"):
		return StateRebasing
	case has("MERGE_HEAD"):
		return StateMerging
	case has("CHERRY_PICK_HEAD"):
		return StateCherryPicking
	case has("REVERT_HEAD"):
		return StateReverting
	case detached:
		return StateDetached
	}
	return StateNormal
}

// openRepo opens a working tree with go-git.
func openRepo(root string) (*git.Repository, error) {
	return git.PlainOpenWithOptions(root, &git.PlainOpenOptions{EnableDotGitCommonDir: true})
}

// readOptions says which of the costly fields readRepository computes.
type readOptions struct {
	dirty bool
	// aheadBehindBudget bounds the commits walked for ahead/behind
	// (0 = do not compute).
	aheadBehindBudget int
	cache             *aheadBehindCache
}

// readRepository reads one working tree with go-git. Failures are
// reported in Repository.Error, never hidden.
func readRepository(loc gitLocation, opts readOptions) Repository {
	rep := Repository{Root: loc.root, Kind: loc.kind, MainRoot: mainRootOf(loc), State: StateNormal, Remotes: []string{},
		gitDir: loc.gitDir, commonDir: loc.commonDir}
	r, err := openRepo(loc.root)
	if err != nil {
		rep.Error = RedactText(err.Error())
		return rep
	}
	detached := false
	headRef, err := r.Storer.Reference(plumbing.HEAD)
	switch {
	case err != nil:
		rep.Error = "cannot read HEAD: " + err.Error()
	case headRef.Type() == plumbing.SymbolicReference:
		rep.Branch = headRef.Target().Short()
		if ref, err := r.Reference(headRef.Target(), true); err == nil {
			rep.Head = ref.Hash().String()
		}
	default:
		detached = true
		rep.Head = headRef.Hash().String()
	}
	rep.State = repoState(loc.gitDir, detached)
	cfg, err := r.Config()
	if err != nil {
		rep.Error = "cannot read the configuration: " + err.Error()
		return rep
	}
	for name := range cfg.Remotes {
		rep.Remotes = append(rep.Remotes, name)
	}
	sort.Strings(rep.Remotes)
	if b, ok := cfg.Branches[rep.Branch]; ok && rep.Branch != "" && b.Remote != "" && b.Merge != "" {
		rep.upstreamRemote, rep.upstreamMerge = b.Remote, b.Merge.String()
		var track plumbing.ReferenceName
		if b.Remote == "." {
			rep.Upstream = b.Merge.Short()
			track = b.Merge
		} else {
			rep.Upstream = b.Remote + "/" + b.Merge.Short()
			track = plumbing.NewRemoteReferenceName(b.Remote, b.Merge.Short())
		}
		if ref, err := r.Reference(track, true); err == nil {
			rep.upstreamHash = ref.Hash().String()
		}
	}
	if opts.dirty {
		if wt, err := r.Worktree(); err == nil {
			if st, err := wt.Status(); err == nil {
				d := !st.IsClean()
				rep.Dirty = &d
			}
		}
	}
	if opts.aheadBehindBudget > 0 && rep.Head != "" && rep.upstreamHash != "" {
		a, b, ok := opts.cache.get(r, rep.Head, rep.upstreamHash, opts.aheadBehindBudget)
		if ok {
			rep.Ahead, rep.Behind = &a, &b
		}
	}
	return rep
}

// repositoryAt finds the repository holding path (a file or folder).
func repositoryAt(path string) (gitLocation, bool) {
	for d := path; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			loc, err := locateGit(d)
			return loc, err == nil
		}
		if filepath.Dir(d) == d {
			return gitLocation{}, false
		}
	}
}
