package nodedap

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// descendants returns the pids of root's children, their children, and so
// on, read from /proc/PID/task/TID/children (nil when the kernel does not
// offer those files). The answer is a snapshot: processes come and go.
func descendants(root int) []int {
	var out []int
	seen := map[int]bool{root: true}
	queue := []int{root}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		files, _ := filepath.Glob(filepath.Join("/proc", strconv.Itoa(pid), "task", "*", "children"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				continue
			}
			for _, field := range strings.Fields(string(b)) {
				n, err := strconv.Atoi(field)
				if err != nil || seen[n] {
					continue
				}
				seen[n] = true
				out = append(out, n)
				queue = append(queue, n)
			}
		}
	}
	return out
}

// cmdline returns a process's command line, its arguments joined by
// spaces ("" when it cannot be read).
func cmdline(pid int) string {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(strings.ReplaceAll(string(b), "\x00", " "))
}
