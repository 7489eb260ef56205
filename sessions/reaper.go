package sessions

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/dbg-dev/dbg/proc"
	"github.com/dbg-dev/dbg/safefs"
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
	r := procRecord{PID: pid, Start: proc.StartTime(pid)}
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
	// Mark is the session's mark (mark.go), when it launched its program.
	Mark string `json:"mark,omitempty"`
}

func (m *Manager) recordDir() string {
	if m.cfg.StateDir == "" {
		return ""
	}
	return filepath.Join(m.cfg.StateDir, "sessions")
}

// recordProcesses writes the session's processes: the adapter and, for
// launches, the debuggee. A state directory that cannot be written is
// reported once per session: the session works, but a crash of the
// server would leave its processes behind.
func (m *Manager) recordProcesses(s *Session) {
	if m.recordDir() == "" {
		return
	}
	s.mu.Lock()
	var pids []int
	if s.ep != nil && s.ep.Process != nil {
		pids = append(pids, s.ep.Process.Pid())
	}
	mark := ""
	if s.target.Mode == "launch" {
		mark = s.mark
		if s.pid > 0 {
			pids = append(pids, s.pid)
		}
	}
	id := s.id
	s.mu.Unlock()
	if err := m.writeRecordMarked(id, pids, mark); err != nil {
		s.mu.Lock()
		warned := s.recordWarned
		s.recordWarned = true
		s.mu.Unlock()
		if !warned {
			m.warnf("session %s: %v; it works, but if this server crashes its processes are not reaped", id, err)
		}
	}
}

// writeRecord records the processes owned under key (a session id, or an
// owned process) for the reaper.
func (m *Manager) writeRecord(key string, pids []int) error {
	return m.writeRecordMarked(key, pids, "")
}

// writeRecordMarked is writeRecord for a session whose launched
// processes hold mark.
func (m *Manager) writeRecordMarked(key string, pids []int, mark string) error {
	dir := m.recordDir()
	if dir == "" || len(pids) == 0 {
		return nil
	}
	rec := sessionRecord{Boot: proc.BootID(), Server: procRecord{PID: os.Getpid(), Start: proc.StartTime(os.Getpid())}, Session: key, Mark: mark}
	for _, p := range pids {
		rec.Processes = append(rec.Processes, recordOf(p))
	}
	b, _ := json.Marshal(rec)
	// One write at a time: a session records again when its debuggee
	// appears, maybe while its start's record is being written.
	m.recordMu.Lock()
	defer m.recordMu.Unlock()
	if err := safefs.Dir(dir); err != nil {
		return fmt.Errorf("cannot create the state directory %s: %w", dir, err)
	}
	tmp := filepath.Join(dir, "."+key+".tmp")
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("cannot write in the state directory %s: %w", dir, err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, strconv.Itoa(os.Getpid())+"-"+key+".json")); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("cannot write in the state directory %s: %w", dir, err)
	}
	return nil
}

// warnf reports a problem the server survives (an unusable state
// directory, a corrupted record) through Config.Warn, or on stderr.
func (m *Manager) warnf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if m.cfg.Warn != nil {
		m.cfg.Warn(msg)
		return
	}
	fmt.Fprintln(os.Stderr, "dbg: warning: "+msg)
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
		if !errors.Is(err, os.ErrNotExist) {
			m.warnf("cannot read the process records in %s: %v; nothing reaped", dir, err)
		}
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
		if err := json.Unmarshal(b, &rec); err != nil {
			m.warnf("ignoring the corrupted process record %s: %v", path, err)
			_ = os.Remove(path)
			continue
		}
		if rec.Boot != proc.BootID() {
			_ = os.Remove(path) // the machine restarted: these pids mean nothing now
			continue
		}
		if rec.Server.PID != os.Getpid() && proc.Alive(rec.Server.PID) && proc.StartTime(rec.Server.PID) == rec.Server.Start {
			continue // its server still runs
		}
		if rec.Server.PID == os.Getpid() {
			continue
		}
		for _, p := range rec.Processes {
			var victims []int
			same := proc.Alive(p.PID) && proc.StartTime(p.PID) == p.Start
			if !same && proc.Alive(p.PID) {
				m.warnf("process %d of the record %s started at another time (its pid was reused): left alone", p.PID, path)
			}
			if same {
				victims = append(proc.Descendants(p.PID), p.PID)
			}
			// Members of the group left behind by a leader that died
			// (grandchildren re-parented away from it), started after it.
			// A live process with the leader's pid but another start time
			// means the pid, and so the group id, was reused: leave it.
			if p.PGID > 0 && (same || !proc.Alive(p.PID)) {
				victims = append(victims, groupMembers(p.PGID, p.Start)...)
			}
			if len(victims) > 0 {
				proc.KillAll(victims)
				killed++
			}
		}
		if left := marked(rec.Mark); len(left) > 0 {
			proc.KillAll(left)
			killed++
		}
		_ = os.Remove(path)
	}
	return killed
}

// groupMembers lists the live processes of a process group that started
// no earlier than start (clock ticks since boot, as in /proc).
func groupMembers(pgid int, start string) []int {
	min, _ := strconv.ParseUint(start, 10, 64)
	var out []int
	for _, pid := range proc.PIDs() {
		st, err := proc.ReadStat(pid)
		if err == nil && pid != os.Getpid() && st.PGID == pgid && st.StartTime >= min && st.State != 'Z' {
			out = append(out, pid)
		}
	}
	return out
}
