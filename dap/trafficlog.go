package dap

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/dbg-dev/dbg/safefs"
)

// TrafficLog writes every DAP message of one connection as a JSON line:
// {"t":"2006-01-02T15:04:05.000Z","dir":"send"|"recv","msg":{...}}.
// A nil *TrafficLog records nothing, so callers need no checks.
type TrafficLog struct {
	redact func([]byte) []byte
	mu     sync.Mutex
	f      *os.File
}

// OpenTrafficLog creates dir/name.jsonl, mode 0600, in dir made private
// (see safefs.Dir). A folder or file another user made, or can change,
// is refused: the traffic holds the program's values. redact, when not
// nil, rewrites each message before it is written (the server's
// redaction of credentials). An empty dir returns nil (no log).
func OpenTrafficLog(dir, name string, redact func([]byte) []byte) (*TrafficLog, error) {
	if dir == "" {
		return nil, nil
	}
	if err := safefs.Dir(dir); err != nil {
		return nil, fmt.Errorf("DBG_DAP_LOG: %w", err)
	}
	path := filepath.Join(dir, name+".jsonl")
	f, err := safefs.OpenNew(path, 0o600)
	if errors.Is(err, fs.ErrExist) {
		f, err = openOwnLog(path)
	}
	if err != nil {
		return nil, fmt.Errorf("DBG_DAP_LOG: %w", err)
	}
	return &TrafficLog{f: f, redact: redact}, nil
}

// openOwnLog opens an existing log to append to it: only a regular file
// of this user's that nobody else can read or change.
func openOwnLog(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && (!st.Mode().IsRegular() || safefs.Owner(st) != os.Geteuid() || st.Mode().Perm()&0o077 != 0) {
		err = &safefs.UnsafeError{Path: path, Reason: fmt.Sprintf("made by uid %d with mode %v, not a private file of this user", safefs.Owner(st), st.Mode().Perm())}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

type trafficLine struct {
	T   string          `json:"t"`
	Dir string          `json:"dir"`
	Msg json.RawMessage `json:"msg"`
}

// Record appends one message. Bodies that are not valid JSON are stored as
// a JSON string so every line stays parseable.
func (l *TrafficLog) Record(dir string, body []byte) {
	if l == nil {
		return
	}
	if l.redact != nil {
		body = l.redact(body)
	}
	msg := json.RawMessage(body)
	if !json.Valid(body) {
		msg, _ = json.Marshal(string(body))
	}
	b, err := json.Marshal(trafficLine{T: time.Now().UTC().Format("2006-01-02T15:04:05.000Z"), Dir: dir, Msg: msg})
	if err != nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f != nil {
		_, _ = l.f.Write(append(b, '\n'))
	}
}

// Close closes the file. It is safe to call more than once.
func (l *TrafficLog) Close() {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f != nil {
		_ = l.f.Close()
		l.f = nil
	}
}
