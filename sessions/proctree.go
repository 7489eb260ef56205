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

// trackProcesses remembers the adapter's process tree (and, for launches,
// the debuggee's), so that they can be killed at close even after the
// adapter died and its children were re-parented.
func (s *Session) trackProcesses() {
	s.mu.Lock()
	var roots []int
	if s.ep != nil && s.ep.Process != nil {
		roots = append(roots, s.ep.Process.Pid())
	}
	launched := s.target.Mode == "launch"
	if launched && s.pid > 0 {
		roots = append(roots, s.pid)
	}
	target := s.pid
	s.mu.Unlock()
	found := map[int]string{}
	for _, r := range roots {
		for _, p := range append(descendants(r), r) {
			if !launched && (p == target) {
				continue
			}
			found[p] = startTime(p)
		}
	}
	if !launched && target > 0 {
		for _, p := range descendants(target) {
			delete(found, p)
		}
	}
	s.mu.Lock()
	if s.tracked == nil {
		s.tracked = map[int]string{}
	}
	for p, st := range found {
		s.tracked[p] = st
	}
	s.mu.Unlock()
}

// trackedAlive returns the tracked processes that still run (same start
// time, so a reused pid is never killed).
func (s *Session) trackedAlive() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []int
	for p, st := range s.tracked {
		if p != os.Getpid() && alive(p) && startTime(p) == st {
			out = append(out, p)
		}
	}
	return out
}
