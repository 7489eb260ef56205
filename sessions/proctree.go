package sessions

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// descendants returns the pids of every live descendant of pid, read from
// /proc. Adapters put debuggees in process groups of their own (delve
// does), so killing the adapter's group is not enough.
func descendants(pid int) []int {
	children := map[int][]int{}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pp := parentPID(p); pp > 0 {
			children[pp] = append(children[pp], p)
		}
	}
	var out []int
	queue := []int{pid}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			out = append(out, c)
			queue = append(queue, c)
		}
	}
	return out
}

// parentPID reads the ppid field of /proc/<pid>/stat.
func parentPID(pid int) int {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 2 {
		return 0
	}
	pp, _ := strconv.Atoi(f[1])
	return pp
}

// killProcesses sends SIGKILL to each pid and to its process group when it
// leads one. The server's own group is never signalled.
func killProcesses(pids []int) {
	self := syscall.Getpgrp()
	for _, p := range pids {
		if pg, err := syscall.Getpgid(p); err == nil && pg == p && pg != self {
			_ = syscall.Kill(-pg, syscall.SIGKILL)
		}
		_ = syscall.Kill(p, syscall.SIGKILL)
	}
}

// alive reports whether pid exists (and is not a zombie).
func alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || !strings.HasPrefix(strings.TrimSpace(s[i+1:]), "Z")
}
