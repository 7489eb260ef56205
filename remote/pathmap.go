package remote

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/dbg-dev/dbg/adapters"
)

// maxIndexedFiles bounds the walk of the project for proposals.
const maxIndexedFiles = 50000

// projectIndex maps file names to the project's files of that name.
type projectIndex map[string][]string

// indexProject lists the project's files by name, leaving out hidden
// folders, dependencies and caches, at most maxIndexedFiles.
func indexProject(root string) projectIndex {
	idx := projectIndex{}
	n := 0
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			name := d.Name()
			if p != root && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "__pycache__" || name == "venv") {
				return filepath.SkipDir
			}
			return nil
		}
		if n++; n > maxIndexedFiles {
			return filepath.SkipAll
		}
		idx[d.Name()] = append(idx[d.Name()], p)
		return nil
	})
	return idx
}

// proposal is one remote path's best local match.
type proposal struct {
	m     adapters.PathMapping
	tail  int    // path elements in common
	from  string // the remote path
	local string // its match
}

// propose maps remote paths that no local file has to the project's
// files: for each, the project's files of its name, the one whose path
// ends with the most of its elements wins, and the folders above those
// elements make the mapping. A path whose best match is not alone
// proposes nothing; several paths that agree make one mapping. note says
// what was proposed from what, or why nothing was.
func propose(project string, remotePaths []string) ([]adapters.PathMapping, string) {
	var want []string
	for _, p := range remotePaths {
		if p == "" || !strings.HasPrefix(p, "/") {
			continue
		}
		if _, err := os.Stat(p); err == nil {
			continue // the same path holds the file here
		}
		want = append(want, p)
	}
	if len(want) == 0 || project == "" {
		return nil, ""
	}
	idx := indexProject(project)
	var props []proposal
	var ambiguous []string
	for _, rp := range want {
		best, tie := proposal{}, false
		for _, lp := range idx[path.Base(rp)] {
			n := commonTail(rp, lp)
			switch {
			case n > best.tail:
				best, tie = proposal{from: rp, local: lp, tail: n,
					m: adapters.PathMapping{RemoteRoot: trimTail(rp, n), LocalRoot: trimTail(lp, n)}}, false
			case n == best.tail && n > 0:
				tie = true
			}
		}
		switch {
		case best.tail == 0:
		case tie:
			ambiguous = append(ambiguous, rp)
		default:
			props = append(props, best)
		}
	}
	maps := mergeProposals(props)
	if len(maps) == 0 {
		if len(ambiguous) > 0 {
			return nil, fmt.Sprintf("none: the project has several files that %s could be; pass pathMappings", strings.Join(ambiguous, ", "))
		}
		return nil, fmt.Sprintf("none: no file of the project is named like %s; pass pathMappings", strings.Join(want[:min(3, len(want))], ", "))
	}
	var parts []string
	for _, m := range maps {
		for _, p := range props {
			if p.m == m {
				parts = append(parts, fmt.Sprintf("%s is %s", p.from, p.local))
				break
			}
		}
	}
	return maps, "proposed, since the target's files are not found here (" + strings.Join(parts, "; ") + "); pass pathMappings to choose others"
}

// mergeProposals keeps one mapping per remote root (the one most paths
// agree on) and leaves out those another one already implies.
func mergeProposals(props []proposal) []adapters.PathMapping {
	votes := map[adapters.PathMapping]int{}
	for _, p := range props {
		votes[p.m]++
	}
	byRoot := map[string]adapters.PathMapping{}
	for m, n := range votes {
		if cur, ok := byRoot[m.RemoteRoot]; !ok || n > votes[cur] || (n == votes[cur] && m.LocalRoot < cur.LocalRoot) {
			byRoot[m.RemoteRoot] = m
		}
	}
	var all []adapters.PathMapping
	for _, m := range byRoot {
		all = append(all, m)
	}
	sort.Slice(all, func(i, j int) bool { return len(all[i].RemoteRoot) < len(all[j].RemoteRoot) })
	var out []adapters.PathMapping
	for _, m := range all {
		if l, ok := adapters.MapToLocal(out, m.RemoteRoot); ok && l == filepath.Clean(m.LocalRoot) {
			continue
		}
		out = append(out, m)
	}
	return out
}

// commonTail counts the path elements a and b end with in common.
func commonTail(a, b string) int {
	as, bs := strings.Split(strings.Trim(a, "/"), "/"), strings.Split(strings.Trim(filepath.ToSlash(b), "/"), "/")
	n := 0
	for n < len(as) && n < len(bs) && as[len(as)-1-n] == bs[len(bs)-1-n] {
		n++
	}
	return n
}

// trimTail drops the last n elements of p.
func trimTail(p string, n int) string {
	for range n {
		p = filepath.Dir(p)
	}
	return p
}
