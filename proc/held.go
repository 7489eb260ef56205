package proc

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"syscall"
)

// Held keeps a process's stat and status files open, so that watching
// it reads each with one pread rather than a path look-up, an open, a
// read and a close. An open file names the process it was opened for:
// once that process is reaped, a read fails with ErrNoProcess, even
// after its pid was given to another process. It is safe for concurrent
// use.
type Held struct {
	pid int

	mu           sync.Mutex
	stat, status *os.File // nil: not opened, or closed
	buf          []byte
}

// Hold opens pid's stat and status files.
func Hold(pid int) (*Held, error) {
	if pid <= 0 {
		return nil, fmt.Errorf("pid %d: %w", pid, ErrNoProcess)
	}
	stat, err := os.Open(Path(pid, "stat"))
	if err != nil {
		return nil, noProcess(pid, err)
	}
	status, err := os.Open(Path(pid, "status"))
	if err != nil {
		_ = stat.Close()
		return nil, noProcess(pid, err)
	}
	return &Held{pid: pid, stat: stat, status: status, buf: make([]byte, 4096)}, nil
}

// PID is the process the files were opened for.
func (h *Held) PID() int { return h.pid }

// ErrReleased is the error of a read after Release.
var ErrReleased = errors.New("proc: held files released")

// Stat reads the process's stat file.
func (h *Held) Stat() (Stat, error) {
	text, err := h.read(false)
	if err != nil {
		return Stat{}, err
	}
	return ParseStat(text)
}

// PendingSignals reads the signals waiting for the process or any of its
// threads (see [ParsePendingSignals]).
func (h *Held) PendingSignals() (uint64, error) {
	text, err := h.read(true)
	if err != nil {
		return 0, err
	}
	return ParsePendingSignals(text)
}

// read reads the whole of the stat file (or the status file) from its
// start.
func (h *Held) read(status bool) (string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	f := h.stat
	if status {
		f = h.status
	}
	if f == nil {
		return "", ErrReleased
	}
	for {
		n, err := f.ReadAt(h.buf, 0)
		if n == len(h.buf) && err == nil {
			h.buf = make([]byte, 2*len(h.buf)) // more than the buffer holds
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return "", noProcess(h.pid, err)
		}
		return string(h.buf[:n]), nil
	}
}

// Release closes the files; later reads fail with ErrReleased.
func (h *Held) Release() {
	if h == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, f := range []*os.File{h.stat, h.status} {
		if f != nil {
			_ = f.Close()
		}
	}
	h.stat, h.status = nil, nil
}

// noProcess wraps a failed open or read: ErrNoProcess when the process
// is gone (no entry, or ESRCH from a file of a reaped process).
func noProcess(pid int, err error) error {
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("pid %d: %w", pid, ErrNoProcess)
	}
	return err
}
