package main

import "github.com/dbg-dev/dbg/proc"

// treeRSS adds the resident memory, in bytes, of root and every process
// below it, with descendants and rss as the readers (proc.Descendants and
// proc.RSS outside tests). A process that ends between the two reads
// counts as nothing.
func treeRSS(root int, descendants func(int) []int, rss func(int) (int64, error)) (total int64, procs int) {
	for _, pid := range append([]int{root}, descendants(root)...) {
		if n, err := rss(pid); err == nil {
			total += n
			procs++
		}
	}
	return total, procs
}

// processTreeRSS is treeRSS over /proc.
func processTreeRSS(root int) (int64, int) { return treeRSS(root, proc.Descendants, proc.RSS) }
