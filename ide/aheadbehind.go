package ide

import (
	"container/heap"
	"errors"
	"sync"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// errBudget says the walk needed more commits than allowed.
var errBudget = errors.New("too many commits to compare")

const (
	sideA = 1 << iota
	sideB
	bothSides = sideA | sideB
)

type commitItem struct {
	hash plumbing.Hash
	when int64
}

type commitQueue []commitItem

func (q commitQueue) Len() int           { return len(q) }
func (q commitQueue) Less(i, j int) bool { return q[i].when > q[j].when }
func (q commitQueue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *commitQueue) Push(x any)        { *q = append(*q, x.(commitItem)) }
func (q *commitQueue) Pop() any {
	old := *q
	it := old[len(old)-1]
	*q = old[:len(old)-1]
	return it
}

// aheadBehind counts the commits reachable from a and not from b
// (ahead), and the reverse (behind). It walks newest first from both
// tips and stops as soon as every commit left to visit is reachable from
// both, so its cost follows the divergence, not the history. It gives up
// with errBudget after budget commits.
func aheadBehind(r *git.Repository, a, b plumbing.Hash, budget int) (ahead, behind int, err error) {
	if a == b {
		return 0, 0, nil
	}
	flags := map[plumbing.Hash]uint8{}
	when := map[plumbing.Hash]int64{}
	q := &commitQueue{}
	mark := func(h plumbing.Hash, f uint8) error {
		old, seen := flags[h]
		if seen && old|f == old {
			return nil
		}
		flags[h] = old | f
		t, ok := when[h]
		if !ok {
			c, err := object.GetCommit(r.Storer, h)
			if err != nil {
				return err
			}
			t = c.Committer.When.Unix()
			when[h] = t
		}
		heap.Push(q, commitItem{h, t})
		return nil
	}
	if err := mark(a, sideA); err != nil {
		return 0, 0, err
	}
	if err := mark(b, sideB); err != nil {
		return 0, 0, err
	}
	walked := 0
	for q.Len() > 0 {
		interesting := false
		for _, it := range *q {
			if flags[it.hash] != bothSides {
				interesting = true
				break
			}
		}
		if !interesting {
			break
		}
		it := heap.Pop(q).(commitItem)
		if walked++; walked > budget {
			return 0, 0, errBudget
		}
		c, err := object.GetCommit(r.Storer, it.hash)
		if err != nil {
			return 0, 0, err
		}
		f := flags[it.hash]
		for _, p := range c.ParentHashes {
			if err := mark(p, f); err != nil {
				return 0, 0, err
			}
		}
	}
	for _, f := range flags {
		switch f {
		case sideA:
			ahead++
		case sideB:
			behind++
		}
	}
	return ahead, behind, nil
}

// aheadBehindCache remembers counts by commit pair; a pair's answer
// never changes. A walk that ran out of budget is remembered with its
// budget, so only a larger budget tries again. It is safe for concurrent
// use and bounded.
type aheadBehindCache struct {
	mu sync.Mutex
	m  map[[2]plumbing.Hash]aheadBehindEntry
}

type aheadBehindEntry struct {
	ahead, behind int
	known         bool
	budget        int
}

const aheadBehindCacheSize = 512

// get returns the counts for head and upstream, computing them once.
func (c *aheadBehindCache) get(r *git.Repository, head, upstream string, budget int) (ahead, behind int, ok bool) {
	key := [2]plumbing.Hash{plumbing.NewHash(head), plumbing.NewHash(upstream)}
	if c == nil {
		a, b, err := aheadBehind(r, key[0], key[1], budget)
		return a, b, err == nil
	}
	c.mu.Lock()
	e, hit := c.m[key]
	c.mu.Unlock()
	if hit && (e.known || e.budget >= budget) {
		return e.ahead, e.behind, e.known
	}
	a, b, err := aheadBehind(r, key[0], key[1], budget)
	e = aheadBehindEntry{ahead: a, behind: b, known: err == nil, budget: budget}
	c.mu.Lock()
	if c.m == nil || len(c.m) >= aheadBehindCacheSize {
		c.m = map[[2]plumbing.Hash]aheadBehindEntry{}
	}
	c.m[key] = e
	c.mu.Unlock()
	return a, b, e.known
}
