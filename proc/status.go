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
func (s Status) SignalPending(sig syscall.Signal) bool { return SignalIn(s.Pending, sig) }

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

// ParsePendingSignals reads only the SigPnd and ShdPnd lines of a
// /proc/PID/status text: the Pending of [ParseStatus], without the rest,
// for a check made at every stop of a debugged program.
func ParsePendingSignals(text string) (uint64, error) {
	var pending uint64
	for text != "" {
		var line string
		line, text, _ = strings.Cut(text, "\n")
		if len(line) < 7 || line[3:7] != "Pnd:" || line[:3] != "Sig" && line[:3] != "Shd" {
			continue
		}
		if f := strings.Fields(line[7:]); len(f) == 1 {
			mask, err := strconv.ParseUint(f[0], 16, 64)
			if err != nil {
				return 0, fmt.Errorf("status line %q: %w", line, err)
			}
			pending |= mask
		}
	}
	return pending, nil
}

// PendingSignals reads the signals waiting for process pid or any of its
// threads (see [ParsePendingSignals]).
func PendingSignals(pid int) (uint64, error) {
	b, err := readFile(pid, "status")
	if err != nil {
		return 0, err
	}
	return ParsePendingSignals(string(b))
}

// SignalIn reports whether sig is in the set of signals pending (bit N-1
// for signal N).
func SignalIn(pending uint64, sig syscall.Signal) bool {
	return sig > 0 && pending&(1<<(uint(sig)-1)) != 0
}

// ReadStatus reads /proc/PID/status.
func ReadStatus(pid int) (Status, error) {
	b, err := readFile(pid, "status")
	if err != nil {
		return Status{}, err
	}
	return ParseStatus(string(b))
}
