package toolkit

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/dbg-dev/dbg/safefs"
	"github.com/dbg-dev/dbg/textcut"
	"github.com/dbg-dev/dbg/toolkit/redact"
)

// maxAuditString bounds each string argument the log keeps.
const maxAuditString = 512

// AuditFile is the name of the audit log in dbg's state folder.
const AuditFile = "audit.jsonl"

// AuditLog appends one JSON line per call of a tool that is not
// read-only (a call that changes a program, a file or a repository) to
// audit.jsonl in dbg's state folder (docs/contract.md, "Limits the server
// enforces"). Several servers of one user may append to it at once: each
// line is one write to a file opened O_APPEND. It is safe for concurrent
// use.
type AuditLog struct {
	dir     string
	path    string // dir's AuditFile
	now     func() time.Time
	pidOf   func(sessionID string) int
	ownerOf func(sessionID string) string

	mu  sync.Mutex
	err error // the last write's failure, reported once
	// f is the log, open for appending since the first write, while the
	// log's path still names it (see append); dev and ino are its own.
	f        *os.File
	dev, ino uint64
}

// AuditEntry is one line of the audit log.
type AuditEntry struct {
	Time   string `json:"time"`
	Client string `json:"client,omitempty"`
	// ClientID is the connection the call came on (an HTTP client's MCP
	// session); Owner, the client id that owns the session the call
	// names, when that is another client's.
	ClientID string          `json:"clientId,omitempty"`
	Owner    string          `json:"owner,omitempty"`
	Tool     string          `json:"tool"`
	Args     json.RawMessage `json:"args,omitempty"`
	Session  string          `json:"session,omitempty"`
	PID      int             `json:"pid,omitempty"`
	// Outcome is "ok" or the error code of the answer.
	Outcome string `json:"outcome"`
	Message string `json:"message,omitempty"` // the error's message
}

// NewAuditLog returns the audit log of the state folder dir. pidOf gives
// the debuggee's pid of a session (nil: none is recorded); now is the
// clock (nil: time.Now).
func NewAuditLog(dir string, now func() time.Time, pidOf func(sessionID string) int) *AuditLog {
	if now == nil {
		now = time.Now
	}
	return &AuditLog{dir: dir, path: filepath.Join(dir, AuditFile), now: now, pidOf: pidOf}
}

// SetOwnerOf makes the log record every call on a session another
// client owns, read-only calls too, with both client ids: ownerOf gives
// a session's owner ("" for none). Call it before the server serves.
func (a *AuditLog) SetOwnerOf(ownerOf func(sessionID string) string) { a.ownerOf = ownerOf }

// Path is the log's file.
func (a *AuditLog) Path() string { return a.path }

// Err returns the failure of the last write, if it failed.
func (a *AuditLog) Err() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.err
}

// target returns the debuggee's pid of the session a call names and,
// when another client than the caller owns it, that owner, read before
// the call: closing a session forgets them.
func (a *AuditLog) target(ctx context.Context, session string) (pid int, owner string) {
	if session == "" {
		return 0, ""
	}
	if a.pidOf != nil {
		pid = a.pidOf(session)
	}
	if a.ownerOf != nil {
		if o := a.ownerOf(session); o != "" && o != ClientID(ctx) {
			owner = o
		}
	}
	return pid, owner
}

// foreign reports whether a call names a session another client than
// the caller owns.
func (a *AuditLog) foreign(ctx context.Context, session string) bool {
	if a.ownerOf == nil {
		return false
	}
	_, owner := a.target(ctx, session)
	return owner != ""
}

// record appends the line of one call: args as the client sent them,
// redacted; answer is the call's envelope and failure its error (nil: a
// success); session and pid are what target said before the call, owner
// the other client owning it.
func (a *AuditLog) record(ctx context.Context, tool string, args, answer json.RawMessage, failure *ToolError, session string, pid int, owner string) {
	e := AuditEntry{Time: a.now().UTC().Format("2006-01-02T15:04:05.000Z07:00"), Tool: tool, Args: auditArgs(args), Outcome: "ok",
		Session: session, PID: pid, ClientID: ClientID(ctx), Owner: owner}
	if c := CallerOf(ctx); c != nil {
		e.Client = c.Client()
	}
	if failure != nil {
		// The message as the tool made it, before the answer's redaction:
		// the log redacts it itself.
		msg, _ := redact.String(failure.Message)
		e.Outcome, e.Message = failure.Code, textcut.Clip(msg, ClipBytes)
	}
	if e.Session == "" && failure == nil {
		// A call that names no session may have made one (a launch): the
		// answer's data says which. Only these calls decode the answer.
		var env struct {
			Data struct{ SessionID string } `json:"data"`
		}
		_ = json.Unmarshal(answer, &env)
		e.Session = env.Data.SessionID
	}
	if e.Session != "" && a.pidOf != nil {
		if now := a.pidOf(e.Session); now != 0 {
			e.PID = now // a launch's debuggee, known once it started
		}
	}
	line, _ := json.Marshal(e)
	a.append(append(line, '\n'))
}

// auditArgs returns a call's arguments as the log keeps them: with
// credentials redacted (by name and by shape, in every string) and long
// strings clipped.
func auditArgs(args json.RawMessage) json.RawMessage {
	if len(args) == 0 || string(args) == "null" {
		return nil
	}
	var v any
	if json.Unmarshal(redact.JSON(args, false), &v) != nil {
		return json.RawMessage(`"‹unreadable arguments›"`)
	}
	var walk func(v any, depth int) any
	walk = func(v any, depth int) any {
		switch x := v.(type) {
		case string:
			s, _ := redact.String(x)
			return textcut.Clip(s, maxAuditString)
		case map[string]any:
			for k, sub := range x {
				if redact.SecretName(k) {
					x[k] = redact.Mark
				} else if depth < 16 {
					x[k] = walk(sub, depth+1)
				}
			}
		case []any:
			for i, sub := range x {
				if depth < 16 {
					x[i] = walk(sub, depth+1)
				}
			}
		}
		return v
	}
	b, _ := json.Marshal(walk(v, 0))
	return b
}

// append writes one line to the log, in one write to the file opened
// O_APPEND, so that the lines of several servers never mix. The file
// stays open between writes: it is opened, with openAuditFile's checks,
// at the first write and again when the log's path no longer names it
// (the log was removed, rotated or replaced: the inode the path names
// without following a link is not the open file's).
func (a *AuditLog) append(line []byte) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.f != nil && !a.named() {
		_ = a.f.Close()
		a.f = nil
	}
	if a.f == nil {
		f, err := openAuditFile(a.dir)
		if err != nil {
			a.err = err
			return
		}
		var st syscall.Stat_t
		if err := syscall.Fstat(int(f.Fd()), &st); err != nil {
			_ = f.Close()
			a.err = fmt.Errorf("audit log: %w", err)
			return
		}
		a.f, a.dev, a.ino = f, uint64(st.Dev), st.Ino
	}
	_, err := a.f.Write(line)
	a.err = err
	if err != nil {
		// Open it again, with its checks, at the next write.
		_ = a.f.Close()
		a.f = nil
	}
}

// named reports whether the log's path, not followed if it is a link,
// still names the open file.
func (a *AuditLog) named() bool {
	var st syscall.Stat_t
	return syscall.Lstat(a.Path(), &st) == nil && uint64(st.Dev) == a.dev && st.Ino == a.ino
}

// Close closes the log's file; a later write opens it again.
func (a *AuditLog) Close() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.f == nil {
		return nil
	}
	err := a.f.Close()
	a.f = nil
	return err
}

// openAuditFile opens the log for appending, creating it and its folder
// private to this user: the one place the log's file is made. A log that
// is a link, not a regular file, not this user's, or writable by others
// is refused, as is a folder that is not this user's private one
// (safefs.Dir).
func openAuditFile(dir string) (*os.File, error) {
	if err := safefs.Dir(dir); err != nil {
		return nil, fmt.Errorf("audit log: %w", err)
	}
	path := filepath.Join(dir, AuditFile)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("audit log: %w", err)
	}
	if err := checkPrivate(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("audit log %s: %w", path, err)
	}
	return f, nil
}

// checkPrivate refuses a file that is not a regular file of this user,
// closed to group and others' writes.
func checkPrivate(f *os.File) error {
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return errors.New("not a regular file")
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && int(sys.Uid) != os.Geteuid() {
		return fmt.Errorf("owned by uid %d, not this user", sys.Uid)
	}
	if st.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("writable by others (mode %v)", st.Mode().Perm())
	}
	return nil
}

// MaxAuditLine bounds one line of the log read back.
const MaxAuditLine = 1 << 20

// ReadAudit returns the entries of the audit log of state folder dir
// from since on (zero: all), oldest first. A missing log has none; a
// line that does not parse is skipped.
func ReadAudit(dir string, since time.Time) ([]AuditEntry, error) {
	f, err := os.OpenFile(filepath.Join(dir, AuditFile), os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := checkPrivate(f); err != nil {
		return nil, fmt.Errorf("audit log %s: %w", f.Name(), err)
	}
	return readAudit(f, since)
}

func readAudit(r io.Reader, since time.Time) ([]AuditEntry, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var out []AuditEntry
	for {
		line, err := readLine(br)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		var e AuditEntry
		if line == nil || json.Unmarshal(line, &e) != nil {
			continue
		}
		if !since.IsZero() {
			t, err := time.Parse(time.RFC3339Nano, e.Time)
			if err != nil || t.Before(since) {
				continue
			}
		}
		out = append(out, e)
	}
}

// readLine returns the next line of br without its newline; a line
// longer than MaxAuditLine is skipped and returned as nil.
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	long := false
	for {
		chunk, err := br.ReadSlice('\n')
		if !long {
			line = append(line, chunk...)
			if len(line) > MaxAuditLine {
				long, line = true, nil
			}
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF && (len(line) > 0 || long):
			err = nil
		case err != nil:
			return nil, err
		}
		if long {
			return nil, nil
		}
		return bytes.TrimRight(line, "\r\n"), nil
	}
}
