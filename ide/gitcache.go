package ide

import (
	"context"
	"path/filepath"
	"sync"
	"time"
)

// Freshness of the status cache. Repository reads are also invalidated
// at once when HEAD, the index, the branch's refs or the configuration
// change; the age limit catches edits to tracked files, which touch no
// file under .git.
const (
	discoverTTL         = 5 * time.Second
	repoTTL             = 2 * time.Second
	statusAheadBehindAt = 2000 // commits walked at most for status
)

// gitStatusCache makes the git status section cheap: the repository
// search and each repository's read (with the dirty check) are reused
// while nothing under .git changed. Ahead/behind come from the commit
// pair cache, so history is walked once per pair, with a budget. It is
// safe for concurrent use.
type gitStatusCache struct {
	git *Git

	mu       sync.Mutex
	discover map[string]discoverEntry
	repos    map[string]repoEntry
}

type discoverEntry struct {
	at   time.Time
	locs []gitLocation
}

type repoEntry struct {
	at    time.Time
	stamp string
	rep   Repository
}

const gitCacheSize = 256

func newGitStatusCache(g *Git) *gitStatusCache {
	return &gitStatusCache{git: g, discover: map[string]discoverEntry{}, repos: map[string]repoEntry{}}
}

// repoStamp fingerprints what a repository read depends on.
func repoStamp(loc gitLocation, prev Repository) string {
	files := []string{
		filepath.Join(loc.gitDir, "HEAD"), filepath.Join(loc.gitDir, "index"),
		filepath.Join(loc.gitDir, "MERGE_HEAD"), filepath.Join(loc.gitDir, "rebase-merge"), filepath.Join(loc.gitDir, "rebase-apply"),
		filepath.Join(loc.gitDir, "CHERRY_PICK_HEAD"), filepath.Join(loc.gitDir, "REVERT_HEAD"),
		filepath.Join(loc.commonDir, "packed-refs"), filepath.Join(loc.commonDir, "config"), filepath.Join(loc.commonDir, "FETCH_HEAD"),
	}
	if prev.Branch != "" {
		files = append(files, filepath.Join(loc.commonDir, "refs", "heads", filepath.FromSlash(prev.Branch)))
	}
	if prev.upstreamRemote != "" && prev.upstreamRemote != "." && prev.Upstream != "" {
		files = append(files, filepath.Join(loc.commonDir, "refs", "remotes", filepath.FromSlash(prev.Upstream)))
	}
	return fileStamp(files)
}

func (c *gitStatusCache) locations(ctx context.Context, project string) []gitLocation {
	now := time.Now()
	c.mu.Lock()
	e, ok := c.discover[project]
	c.mu.Unlock()
	if ok && now.Sub(e.at) < discoverTTL {
		return e.locs
	}
	locs, err := findRepositories(ctx, project)
	if err != nil {
		return nil
	}
	c.mu.Lock()
	if len(c.discover) >= gitCacheSize {
		c.discover = map[string]discoverEntry{}
	}
	c.discover[project] = discoverEntry{at: now, locs: locs}
	c.mu.Unlock()
	return locs
}

// repository reads one repository, reusing a fresh cached read.
func (c *gitStatusCache) repository(loc gitLocation) Repository {
	now := time.Now()
	c.mu.Lock()
	e, ok := c.repos[loc.root]
	c.mu.Unlock()
	stamp := repoStamp(loc, e.rep)
	if ok && e.stamp == stamp && now.Sub(e.at) < repoTTL {
		return e.rep
	}
	rep := readRepository(loc, readOptions{dirty: true, aheadBehindBudget: statusAheadBehindAt, cache: c.git.cache})
	// The stamp of the new read covers its own branch and upstream.
	stamp = repoStamp(loc, rep)
	c.mu.Lock()
	if len(c.repos) >= gitCacheSize {
		c.repos = map[string]repoEntry{}
	}
	c.repos[loc.root] = repoEntry{at: now, stamp: stamp, rep: rep}
	c.mu.Unlock()
	return rep
}

// repositories returns the project's repositories for status.
func (c *gitStatusCache) repositories(ctx context.Context, project string) []Repository {
	locs := c.locations(ctx, project)
	out := make([]Repository, 0, len(locs))
	for _, l := range locs {
		out = append(out, c.repository(l))
	}
	return out
}
