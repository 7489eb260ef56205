package sessions

import (
	"os"

	"github.com/dbg-dev/dbg/proc"
)

// Adapters put debuggees in process groups of their own (delve does), so
// killing the adapter's group is not enough: a session tracks the whole
// process tree it started.

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
		for _, p := range append(proc.Descendants(r), r) {
			if !launched && (p == target) {
				continue
			}
			found[p] = proc.StartTime(p)
		}
	}
	if !launched && target > 0 {
		for _, p := range proc.Descendants(target) {
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
		if p != os.Getpid() && proc.Alive(p) && proc.StartTime(p) == st {
			out = append(out, p)
		}
	}
	return out
}
