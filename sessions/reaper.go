package sessions

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// A crash of the server must not leave adapters and debuggees behind.
// Every session records the processes it owns in the state directory; a
// server that starts reaps the records of servers that are gone.

type procRecord struct {
	PID   int    `json:"pid"`
	Start string `json:"start"` // /proc start time, to survive pid reuse
}

type sessionRecord struct {
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
	dir := m.recordDir()
	if dir == "" {
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
	rec := sessionRecord{Server: procRecord{PID: os.Getpid(), Start: startTime(os.Getpid())}, Session: id}
	for _, p := range pids {
		rec.Processes = append(rec.Processes, procRecord{PID: p, Start: startTime(p)})
	}
	b, _ := json.Marshal(rec)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return
	}
	tmp := filepath.Join(dir, "."+id+".tmp")
	if os.WriteFile(tmp, b, 0o600) == nil {
		_ = os.Rename(tmp, filepath.Join(dir, strconv.Itoa(os.Getpid())+"-"+id+".json"))
	}
}

func (m *Manager) forgetProcesses(s *Session) {
	if dir := m.recordDir(); dir != "" {
		_ = os.Remove(filepath.Join(dir, strconv.Itoa(os.Getpid())+"-"+s.id+".json"))
	}
}

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
		if rec.Server.PID != os.Getpid() && alive(rec.Server.PID) && startTime(rec.Server.PID) == rec.Server.Start {
			continue // its server still runs
		}
		if rec.Server.PID == os.Getpid() {
			continue
		}
		for _, p := range rec.Processes {
			if alive(p.PID) && startTime(p.PID) == p.Start {
				victims := append(descendants(p.PID), p.PID)
				killProcesses(victims)
				killed++
			}
		}
		_ = os.Remove(path)
	}
	return killed
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
