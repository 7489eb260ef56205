package dap

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// TrafficLog writes every DAP message of one connection as a JSON line:
// {"t":"2006-01-02T15:04:05.000Z","dir":"send"|"recv","msg":{...}}.
// A nil *TrafficLog records nothing, so callers need no checks.
type TrafficLog struct {
	mu sync.Mutex
	f  *os.File
}

// OpenTrafficLog creates dir/name.jsonl. An empty dir returns nil (no log).
func OpenTrafficLog(dir, name string) (*TrafficLog, error) {
	if dir == "" {
		return nil, nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(dir, name+".jsonl"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	return &TrafficLog{f: f}, nil
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
