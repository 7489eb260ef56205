package proc

import (
	"fmt"
	"strconv"
	"strings"
	"syscall"
)

// Status holds the ids of /proc/PID/status that dbg uses.
type Status struct {
	UID, GID int // effective
	// NSPID is the pid in the process's innermost pid namespace (the pid
	// a program in a container sees for itself); 0 when the kernel does
	// not say.
	NSPID int
	// Pending is the set of signals waiting for the process or any of
	// its threads (SigPnd | ShdPnd), bit N-1 for signal N.
	Pending uint64
}

// SignalPending reports whether sig waits for the process.
func (s Status) SignalPending(sig syscall.Signal) bool {
	return sig > 0 && s.Pending&(1<<(uint(sig)-1)) != 0
}

// ParseStatus parses the text of /proc/PID/status. The Uid and Gid lines
// are required; NSpid is optional (older kernels do not write it).
func ParseStatus(text string) (Status, error) {
	var s Status
	var uid, gid bool
	for _, line := range strings.Split(text, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		f := strings.Fields(v)
		var err error
		switch k {
		case "Uid":
			uid = true
			s.UID, err = effective(f)
		case "Gid":
			gid = true
			s.GID, err = effective(f)
		case "SigPnd", "ShdPnd":
			var mask uint64
			if len(f) == 1 {
				mask, err = strconv.ParseUint(f[0], 16, 64)
			}
			s.Pending |= mask
		case "NSpid":
			if len(f) == 0 {
				err = fmt.Errorf("empty")
			} else if s.NSPID, err = strconv.Atoi(f[len(f)-1]); err == nil && s.NSPID <= 0 {
				err = fmt.Errorf("pid %d", s.NSPID)
			}
		}
		if err != nil {
			return Status{}, fmt.Errorf("status line %q: %w", line, err)
		}
	}
	if !uid || !gid {
		return Status{}, fmt.Errorf("status: no Uid or Gid line")
	}
	return s, nil
}

// effective picks the effective id of a "real effective saved fs" line.
func effective(f []string) (int, error) {
	if len(f) < 2 {
		return 0, fmt.Errorf("want real and effective ids")
	}
	n, err := strconv.Atoi(f[1])
	if err == nil && n < 0 {
		err = fmt.Errorf("id %d", n)
	}
	return n, err
}

// ReadStatus reads /proc/PID/status.
func ReadStatus(pid int) (Status, error) {
	b, err := readFile(pid, "status")
	if err != nil {
		return Status{}, err
	}
	return ParseStatus(string(b))
}
