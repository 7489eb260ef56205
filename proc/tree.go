package proc

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Descendants returns the pids of root's children, their children, and so
// on, nearest first (nil when there are none or no /proc). The answer is
// a snapshot: processes come and go.
func Descendants(root int) []int {
	children := childrenFromTasks
	if !taskChildrenSupported() {
		children = childrenByParent()
	}
	var out []int
	seen := map[int]bool{root: true}
	queue := []int{root}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		for _, c := range children(pid) {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
				queue = append(queue, c)
			}
		}
	}
	return out
}

// taskChildrenSupported reports whether the kernel writes
// /proc/PID/task/TID/children (CONFIG_PROC_CHILDREN).
func taskChildrenSupported() bool {
	self := strconv.Itoa(os.Getpid())
	_, err := os.Stat(filepath.Join("/proc", self, "task", self, "children"))
	return err == nil
}

// childrenFromTasks reads the children of every thread of pid: one
// listing of its threads and one read per thread (no look at each path
// before it is read, as a glob would make).
func childrenFromTasks(pid int) []int {
	dir := filepath.Join("/proc", strconv.Itoa(pid), "task")
	d, err := os.Open(dir)
	if err != nil {
		return nil
	}
	tids, _ := d.Readdirnames(-1)
	d.Close()
	var out []int
	for _, tid := range tids {
		b, err := os.ReadFile(filepath.Join(dir, tid, "children"))
		if err != nil {
			continue
		}
		for _, field := range strings.Fields(string(b)) {
			if n, err := strconv.Atoi(field); err == nil {
				out = append(out, n)
			}
		}
	}
	return out
}

// childrenByParent reads the parent of every process once and answers
// from that table.
func childrenByParent() func(int) []int {
	byParent := map[int][]int{}
	for _, p := range PIDs() {
		if st, err := ReadStat(p); err == nil && st.PPID > 0 {
			byParent[st.PPID] = append(byParent[st.PPID], p)
		}
	}
	return func(pid int) []int { return byParent[pid] }
}
