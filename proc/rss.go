package proc

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrNoRSS is the answer of [ParseRSS] and [RSS] for a process that has no
// memory of its own to report: a kernel thread, or a zombie.
var ErrNoRSS = errors.New("no VmRSS line: a kernel thread or a zombie")

// ParseRSS reads the resident set size, in bytes, from the text of
// /proc/PID/status (its "VmRSS: N kB" line).
func ParseRSS(text string) (int64, error) {
	for _, line := range strings.Split(text, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok || k != "VmRSS" {
			continue
		}
		f := strings.Fields(v)
		if len(f) != 2 || f[1] != "kB" {
			return 0, fmt.Errorf("status line %q: want N kB", line)
		}
		n, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil || n < 0 || n > 1<<53 {
			return 0, fmt.Errorf("status line %q: bad size", line)
		}
		return n * 1024, nil
	}
	return 0, ErrNoRSS
}

// RSS returns pid's resident set size in bytes, read from
// /proc/PID/status.
func RSS(pid int) (int64, error) {
	b, err := readFile(pid, "status")
	if err != nil {
		return 0, err
	}
	return ParseRSS(string(b))
}
