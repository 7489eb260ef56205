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
// pair cache, so history is walked once per pair, with a budget.
//
// When a cached read has only aged (nothing under .git changed), status
// answers with it at once and refreshes it in the background, one
// refresh per repository at a time. When there is no usable read, status
// waits for a fresh one until its context ends, then answers with a
// cheap read (HEAD, branch, upstream; no dirty state). It is safe for
// concurrent use.
type gitStatusCache struct {
	git *Git

	mu       sync.Mutex
	discover map[string]discoverEntry
	repos    map[string]repoEntry
	inflight map[string]chan struct{} // key -> closed when the refresh ends
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
	return &gitStatusCache{git: g, discover: map[string]discoverEntry{}, repos: map[string]repoEntry{}, inflight: map[string]chan struct{}{}}
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

// refresh runs fn once per key at a time and returns a channel closed
// when the current run ends.
func (c *gitStatusCache) refresh(key string, fn func()) <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ch, ok := c.inflight[key]; ok {
		return ch
	}
	ch := make(chan struct{})
	c.inflight[key] = ch
	go func() {
		defer func() {
			c.mu.Lock()
			delete(c.inflight, key)
			c.mu.Unlock()
			close(ch)
		}()
		fn()
	}()
	return ch
}

func (c *gitStatusCache) locations(ctx context.Context, project string) []gitLocation {
	c.mu.Lock()
	e, ok := c.discover[project]
	c.mu.Unlock()
	if ok && time.Since(e.at) < discoverTTL {
		return e.locs
	}
	done := c.refresh("discover\x00"+project, func() {
		// Detached from the caller: a search that outlives one status
		// call still serves the next one.
		locs, err := findRepositories(context.Background(), project)
		if err != nil {
			return
		}
		c.mu.Lock()
		if len(c.discover) >= gitCacheSize {
			c.discover = map[string]discoverEntry{}
		}
		c.discover[project] = discoverEntry{at: time.Now(), locs: locs}
		c.mu.Unlock()
	})
	if ok {
		return e.locs // aged: answer now, the refresh serves the next call
	}
	select {
	case <-done:
	case <-ctx.Done():
		return nil
	}
	c.mu.Lock()
	e = c.discover[project]
	c.mu.Unlock()
	return e.locs
}

// repository reads one repository for status, from the cache when it
// is usable.
func (c *gitStatusCache) repository(ctx context.Context, loc gitLocation) Repository {
	c.mu.Lock()
	e, ok := c.repos[loc.root]
	c.mu.Unlock()
	sameStamp := ok && e.stamp == repoStamp(loc, e.rep)
	if sameStamp && time.Since(e.at) < repoTTL {
		return e.rep
	}
	done := c.refreshRepo(loc)
	if sameStamp {
		return e.rep // only aged: answer now, refreshed for the next call
	}
	for try := 0; try < 2; try++ {
		select {
		case <-done:
		case <-ctx.Done():
			return readRepository(loc, readOptions{})
		}
		c.mu.Lock()
		e = c.repos[loc.root]
		c.mu.Unlock()
		if e.stamp == repoStamp(loc, e.rep) {
			break
		}
		// The read that ended began before the latest change: once more.
		done = c.refreshRepo(loc)
	}
	return e.rep
}

// refreshRepo rereads a repository in the background. The stamp is taken
// before the read, so a change during the read shows up as a stamp
// mismatch on the next call rather than being hidden.
func (c *gitStatusCache) refreshRepo(loc gitLocation) <-chan struct{} {
	return c.refresh("repo\x00"+loc.root, func() {
		c.mu.Lock()
		prev := c.repos[loc.root].rep
		c.mu.Unlock()
		at, stamp := time.Now(), repoStamp(loc, prev)
		rep := readRepository(loc, readOptions{dirty: true, aheadBehindBudget: statusAheadBehindAt, cache: c.git.cache})
		if rep.Branch != prev.Branch || rep.Upstream != prev.Upstream {
			stamp = repoStamp(loc, rep) // watch the new branch's refs
		}
		c.mu.Lock()
		if len(c.repos) >= gitCacheSize {
			c.repos = map[string]repoEntry{}
		}
		c.repos[loc.root] = repoEntry{at: at, stamp: stamp, rep: rep}
		c.mu.Unlock()
	})
}

// repositories returns the project's repositories for status.
func (c *gitStatusCache) repositories(ctx context.Context, project string) []Repository {
	locs := c.locations(ctx, project)
	out := make([]Repository, 0, len(locs))
	for _, l := range locs {
		out = append(out, c.repository(ctx, l))
	}
	return out
}
