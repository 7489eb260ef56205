package sessions

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// A crash of the server must not leave adapters and debuggees behind.
// Every session records the processes it owns in the state directory; a
// server that starts reaps the records of servers that are gone.

type procRecord struct {
	PID   int    `json:"pid"`
	Start string `json:"start"` // /proc start time, to survive pid reuse
	PGID  int    `json:"pgid,omitempty"`
}

func recordOf(pid int) procRecord {
	r := procRecord{PID: pid, Start: startTime(pid)}
	if pg, err := syscall.Getpgid(pid); err == nil && pg == pid {
		r.PGID = pg
	}
	return r
}

type sessionRecord struct {
	Boot        string       `json:"boot"` // records of another boot name other processes
	Server      procRecord   `json:"server"`
	Session     string       `json:"session"`
	Processes   []procRecord `json:"processes"`
	KillTargets bool         `json:"killTargets"`
}

func (m *Manager) recordDir() string {
	if m.cfg.StateDir == "" {
		return ""
	}
	return filepath.Join(m.cfg.StateDir, "sessions")
}

// recordProcesses writes the session's processes: the adapter and, for
// launches, the debuggee.
func (m *Manager) recordProcesses(s *Session) {
	if m.recordDir() == "" {
		return
	}
	s.mu.Lock()
	var pids []int
	if s.ep != nil && s.ep.Process != nil {
		pids = append(pids, s.ep.Process.Pid())
	}
	if s.target.Mode == "launch" && s.pid > 0 {
		pids = append(pids, s.pid)
	}
	id := s.id
	s.mu.Unlock()
	m.writeRecord(id, pids)
}

// writeRecord records the processes owned under key (a session id, or an
// owned process) for the reaper.
func (m *Manager) writeRecord(key string, pids []int) {
	dir := m.recordDir()
	if dir == "" || len(pids) == 0 {
		return
	}
	rec := sessionRecord{Boot: bootID(), Server: procRecord{PID: os.Getpid(), Start: startTime(os.Getpid())}, Session: key}
	for _, p := range pids {
		rec.Processes = append(rec.Processes, recordOf(p))
	}
	b, _ := json.Marshal(rec)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return
	}
	tmp := filepath.Join(dir, "."+key+".tmp")
	if os.WriteFile(tmp, b, 0o600) == nil {
		_ = os.Rename(tmp, filepath.Join(dir, strconv.Itoa(os.Getpid())+"-"+key+".json"))
	}
}

func (m *Manager) removeRecord(key string) {
	if dir := m.recordDir(); dir != "" {
		_ = os.Remove(filepath.Join(dir, strconv.Itoa(os.Getpid())+"-"+key+".json"))
	}
}

func (m *Manager) forgetProcesses(s *Session) { m.removeRecord(s.id) }

// Reap kills the processes recorded by servers that are no longer running
// and returns how many it killed.
func (m *Manager) Reap() int {
	dir := m.recordDir()
	if dir == "" {
		return 0
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	killed := 0
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		var rec sessionRecord
		if json.Unmarshal(b, &rec) != nil {
			_ = os.Remove(path)
			continue
		}
		if rec.Boot != bootID() {
			_ = os.Remove(path) // the machine restarted: these pids mean nothing now
			continue
		}
		if rec.Server.PID != os.Getpid() && alive(rec.Server.PID) && startTime(rec.Server.PID) == rec.Server.Start {
			continue // its server still runs
		}
		if rec.Server.PID == os.Getpid() {
			continue
		}
		for _, p := range rec.Processes {
			var victims []int
			same := alive(p.PID) && startTime(p.PID) == p.Start
			if same {
				victims = append(descendants(p.PID), p.PID)
			}
			// Members of the group left behind by a leader that died
			// (grandchildren re-parented away from it), started after it.
			// A live process with the leader's pid but another start time
			// means the pid, and so the group id, was reused: leave it.
			if p.PGID > 0 && (same || !alive(p.PID)) {
				victims = append(victims, groupMembers(p.PGID, p.Start)...)
			}
			if len(victims) > 0 {
				killProcesses(victims)
				killed++
			}
		}
		_ = os.Remove(path)
	}
	return killed
}

// bootID identifies this boot of the machine.
func bootID() string {
	b, _ := os.ReadFile("/proc/sys/kernel/random/boot_id")
	return strings.TrimSpace(string(b))
}

// groupMembers lists the live processes of a process group that started
// no earlier than start (clock ticks since boot, as in /proc).
func groupMembers(pgid int, start string) []int {
	min, _ := strconv.ParseUint(start, 10, 64)
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		f := statFields(pid)
		if len(f) < 20 {
			continue
		}
		pg, _ := strconv.Atoi(f[2])
		st, _ := strconv.ParseUint(f[19], 10, 64)
		if pg == pgid && st >= min && f[0] != "Z" {
			out = append(out, pid)
		}
	}
	return out
}

// statFields returns the fields of /proc/<pid>/stat after the command name:
// state, ppid, pgrp, ...
func statFields(pid int) []string {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return nil
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return nil
	}
	return strings.Fields(s[i+1:])
}

// startTime returns field 22 of /proc/<pid>/stat.
func startTime(pid int) string {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return ""
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return ""
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 20 {
		return ""
	}
	return f[19]
}
