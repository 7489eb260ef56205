package proc

import (
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"time"
)

// Stat holds the fields of /proc/PID/stat that dbg uses.
type Stat struct {
	PID   int
	Comm  string // the command name, without the parentheses
	State byte   // 'R' running, 'S' sleeping, 'Z' zombie, ...
	PPID  int
	PGID  int
	// Flags are the kernel's PF_* flags of the process (PFExiting, ...).
	Flags uint64
	// CPU is the processor time the process has used, in user and in
	// system mode (utime and stime).
	CPU time.Duration
	// StartTime is when the process started, in clock ticks since boot.
	StartTime uint64
	// ExitStatus is a zombie's wait status (as syscall.WaitStatus reads
	// it); -1 when the kernel does not write it or the process runs.
	ExitStatus int
}

// userHZ is the unit of the times /proc writes (USER_HZ, 100 a second on
// every Linux ABI).
const userHZ = 100

// PFExiting is the flag of a process that is exiting.
const PFExiting = 0x4

// Exiting reports whether the process is a zombie, dead or exiting.
func (s Stat) Exiting() bool {
	return s.State == 'Z' || s.State == 'X' || s.Flags&PFExiting != 0
}

// ErrNoProcess is returned by the readers for a pid that does not exist
// (or cannot be seen).
var ErrNoProcess = errors.New("no such process")

// ParseStat parses the text of /proc/PID/stat. The command name may hold
// any byte, parentheses and spaces included: it ends at the last ')'.
func ParseStat(text string) (Stat, error) {
	open := strings.IndexByte(text, '(')
	end := strings.LastIndexByte(text, ')')
	if open < 0 || end < open {
		return Stat{}, fmt.Errorf("stat %.40q: no (command name)", text)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(text[:open]))
	if err != nil || pid < 0 {
		return Stat{}, fmt.Errorf("stat %.40q: bad pid", text)
	}
	f := strings.Fields(text[end+1:])
	if len(f) < 20 {
		return Stat{}, fmt.Errorf("stat of %d: %d fields after the command name, want at least 20", pid, len(f))
	}
	if len(f[0]) != 1 || !isStateLetter(f[0][0]) {
		return Stat{}, fmt.Errorf("stat of %d: bad state %q", pid, f[0])
	}
	s := Stat{PID: pid, Comm: text[open+1 : end], State: f[0][0]}
	if s.PPID, err = strconv.Atoi(f[1]); err != nil {
		return Stat{}, fmt.Errorf("stat of %d: bad ppid: %w", pid, err)
	}
	if s.PGID, err = strconv.Atoi(f[2]); err != nil {
		return Stat{}, fmt.Errorf("stat of %d: bad process group: %w", pid, err)
	}
	if s.Flags, err = strconv.ParseUint(f[6], 10, 64); err != nil {
		return Stat{}, fmt.Errorf("stat of %d: bad flags: %w", pid, err)
	}
	utime, uerr := strconv.ParseUint(f[11], 10, 64)
	stime, serr := strconv.ParseUint(f[12], 10, 64)
	// Ticks past maxTicks cannot be a duration: no process has used
	// centuries of processor time.
	const maxTicks = math.MaxInt64 / uint64(time.Second)
	if uerr != nil || serr != nil || utime > maxTicks || stime > maxTicks-utime {
		return Stat{}, fmt.Errorf("stat of %d: bad cpu times %q %q", pid, f[11], f[12])
	}
	s.CPU = time.Duration(utime+stime) * time.Second / userHZ
	if s.StartTime, err = strconv.ParseUint(f[19], 10, 64); err != nil {
		return Stat{}, fmt.Errorf("stat of %d: bad start time: %w", pid, err)
	}
	s.ExitStatus = -1
	if len(f) >= 50 && (s.State == 'Z' || s.State == 'X') {
		if code, err := strconv.Atoi(f[49]); err == nil && code >= 0 {
			s.ExitStatus = code
		}
	}
	return s, nil
}

// ReadStat reads /proc/PID/stat. It returns the zero Stat and an error
// when the process is gone or the file cannot be parsed.
func ReadStat(pid int) (Stat, error) {
	b, err := readFile(pid, "stat")
	if err != nil {
		return Stat{}, err
	}
	return ParseStat(string(b))
}

// StartTime returns pid's start time as /proc writes it (clock ticks
// since boot), or "" when the process is gone. With the pid it identifies
// a process for good: a reused pid has another start time.
func StartTime(pid int) string {
	st, err := ReadStat(pid)
	if err != nil {
		return ""
	}
	return strconv.FormatUint(st.StartTime, 10)
}

// Alive reports whether pid runs: it exists and is not a zombie.
func Alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	st, err := ReadStat(pid)
	return err == nil && st.State != 'Z'
}

// readFile reads /proc/PID/name, with ErrNoProcess when pid is gone.
func readFile(pid int, name string) ([]byte, error) {
	if pid <= 0 {
		return nil, fmt.Errorf("pid %d: %w", pid, ErrNoProcess)
	}
	b, err := os.ReadFile(Path(pid, name))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("pid %d: %w", pid, ErrNoProcess)
	}
	return b, err
}

// isStateLetter reports whether c can be a process state: the kernel
// writes one ASCII letter (R, S, D, Z, T, t, X, I, ...).
func isStateLetter(c byte) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }
