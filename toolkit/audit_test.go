package toolkit

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Every call of a tool that is not read-only is one line: time, client,
// tool, redacted arguments, session, pid, outcome; read-only calls are
// not logged.
func TestAuditLogRecordsCalls(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "state")
	clock := time.Date(2026, 1, 2, 3, 4, 5, 6_000_000, time.UTC)
	audit := NewAuditLog(dir, func() time.Time { return clock }, func(id string) int {
		if id == "s1" {
			return 4242
		}
		return 0
	})
	tb := confirmToolbox(t, audit)
	yes := &askCaller{yes: true}
	callWith(t, tb, yes, "end", `{"sessionId":"s1","kill":true,"password":"hunter2"}`)
	callWith(t, tb, yes, "look", `{}`)
	callWith(t, tb, &askCaller{}, "end", `{"sessionId":"s1","kill":true}`)
	callWith(t, tb, yes, "end", `{"sessionId":"fail","password":"Bearer abcdefghijklmnop"}`)
	if err := audit.Err(); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(audit.Path())
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte("hunter2")) || bytes.Contains(raw, []byte("abcdefghijklmnop")) {
		t.Errorf("the log holds a credential: %s", raw)
	}
	es, err := ReadAudit(dir, time.Time{})
	if err != nil || len(es) != 3 {
		t.Fatalf("%d entries %v: %s", len(es), err, raw)
	}
	if e := es[0]; e.Tool != "end" || e.Session != "s1" || e.PID != 4242 || e.Outcome != "ok" || e.Client != "test-client 1" ||
		e.Time != "2026-01-02T03:04:05.006Z" || !strings.Contains(string(e.Args), `"kill":true`) {
		t.Errorf("first entry %+v", e)
	}
	if e := es[1]; e.Outcome != CodeCancelled {
		t.Errorf("a declined call: %+v", e)
	}
	if e := es[2]; e.Outcome != CodeSessionNotFound || e.Message == "" || e.PID != 0 {
		t.Errorf("a failed call: %+v", e)
	}
	if st, err := os.Stat(audit.Path()); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v %v", st.Mode(), err)
	}
	if later, err := ReadAudit(dir, clock.Add(time.Second)); err != nil || len(later) != 0 {
		t.Errorf("since a later time: %v %v", later, err)
	}
}

// A log that is a symbolic link is neither written nor read, and the
// failure is kept for the server to report.
func TestAuditLogRefusesLinks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	target := filepath.Join(dir, "elsewhere")
	if err := os.WriteFile(target, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, AuditFile)); err != nil {
		t.Fatal(err)
	}
	audit := NewAuditLog(dir, nil, nil)
	tb := confirmToolbox(t, audit)
	callWith(t, tb, &askCaller{yes: true}, "end", `{}`)
	if audit.Err() == nil {
		t.Error("writing through a link did not fail")
	}
	if b, _ := os.ReadFile(target); len(b) != 0 {
		t.Errorf("the link's target was written: %s", b)
	}
	if _, err := ReadAudit(dir, time.Time{}); err == nil {
		t.Error("reading through a link did not fail")
	}
}

// A state folder others may write into is no place for the log: nothing
// is written there, and the failure is kept for the server to report.
func TestAuditLogRefusesSharedFolder(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "shared")
	if err := os.Mkdir(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	audit := NewAuditLog(dir, nil, nil)
	tb := confirmToolbox(t, audit)
	callWith(t, tb, &askCaller{yes: true}, "end", `{}`)
	if audit.Err() == nil {
		t.Error("writing into a folder others may write did not fail")
	}
	if _, err := os.Lstat(filepath.Join(dir, AuditFile)); err == nil {
		t.Error("the log was made in a shared folder")
	}
}

// Lines that do not parse, and lines over the limit, are skipped.
func TestReadAuditSkipsBadLines(t *testing.T) {
	t.Parallel()
	in := `{"time":"2026-01-02T03:04:05.000Z","tool":"a","outcome":"ok"}` + "\n" +
		"not json\n" + `{"tool":"` + strings.Repeat("x", MaxAuditLine) + `"}` + "\n" +
		`{"time":"2026-01-02T03:04:06.000Z","tool":"b","outcome":"ok"}`
	es, err := readAudit(strings.NewReader(in), time.Time{})
	if err != nil || len(es) != 2 || es[0].Tool != "a" || es[1].Tool != "b" {
		t.Fatalf("%+v %v", es, err)
	}
}

func FuzzReadAudit(f *testing.F) {
	f.Add([]byte(`{"time":"2026-01-02T03:04:05.000Z","tool":"a","outcome":"ok"}` + "\n"))
	f.Add([]byte("\n\n{\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = readAudit(bytes.NewReader(data), time.Unix(1, 0))
	})
}

func FuzzAuditArgs(f *testing.F) {
	f.Add([]byte(`{"env":{"API_TOKEN":"x"},"name":"password","value":"y"}`))
	f.Add([]byte(`[1,"Bearer abc",{"a":null}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = auditArgs(data)
	})
}

// The session an audit line names is the decoded input's, so an alias
// names it too; a call whose arguments do not decode names the session
// its raw arguments give.
func TestAuditSessionOfDecodedInput(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "state")
	audit := NewAuditLog(dir, nil, nil)
	tb := NewToolbox(func(Tool) {}, nil)
	tb.SetPolicy(Policy{Audit: audit})
	type in struct {
		SessionID string `json:"sessionId" alias:"id"`
		Line      Int    `json:"line"`
	}
	AddTool(tb, "poke", "pokes", func(_ context.Context, in in) (nameOut, error) { return nameOut{in.SessionID}, nil },
		Hints{Title: "Poke"})
	if env := callWith(t, tb, nil, "poke", `{"id":"s7","line":3}`); !env.Success {
		t.Fatalf("%+v", env.Error)
	}
	if env := callWith(t, tb, nil, "poke", `{"sessionId":"s8","line":"three"}`); env.Success || env.Error.Code != CodeInvalidArgument {
		t.Fatalf("a bad line: %+v", env)
	}
	es, err := ReadAudit(dir, time.Time{})
	if err != nil || len(es) != 2 {
		t.Fatalf("%d entries %v", len(es), err)
	}
	if es[0].Session != "s7" || es[0].Outcome != "ok" || es[1].Session != "s8" || es[1].Outcome != CodeInvalidArgument {
		t.Errorf("entries %+v", es)
	}
}

// The log stays open between calls, and follows its path: a log removed
// or rotated is made again at the next call, and one replaced by a link
// after the first call is refused, its target left unwritten.
func TestAuditLogFollowsItsPath(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "state")
	audit := NewAuditLog(dir, nil, nil)
	defer audit.Close()
	tb := confirmToolbox(t, audit)
	yes := &askCaller{yes: true}
	callWith(t, tb, yes, "end", `{"sessionId":"s1"}`)
	if err := os.Rename(audit.Path(), audit.Path()+".1"); err != nil {
		t.Fatal(err)
	}
	callWith(t, tb, yes, "end", `{"sessionId":"s2"}`)
	if err := os.Remove(audit.Path()); err != nil {
		t.Fatal(err)
	}
	callWith(t, tb, yes, "end", `{"sessionId":"s3"}`)
	callWith(t, tb, yes, "end", `{"sessionId":"s4"}`)
	if err := audit.Err(); err != nil {
		t.Fatal(err)
	}
	rotated, err := os.ReadFile(audit.Path() + ".1")
	if err != nil || bytes.Count(rotated, []byte("\n")) != 1 || !bytes.Contains(rotated, []byte(`"s1"`)) {
		t.Errorf("the rotated log: %s %v", rotated, err)
	}
	es, err := ReadAudit(dir, time.Time{})
	if err != nil || len(es) != 2 || es[0].Session != "s3" || es[1].Session != "s4" {
		t.Fatalf("the log after its removal: %+v %v", es, err)
	}
	target := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.WriteFile(target, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(audit.Path()); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, audit.Path()); err != nil {
		t.Fatal(err)
	}
	callWith(t, tb, yes, "end", `{"sessionId":"s5"}`)
	if audit.Err() == nil {
		t.Error("writing through a link put in place of the open log did not fail")
	}
	if b, _ := os.ReadFile(target); len(b) != 0 {
		t.Errorf("the link's target was written: %s", b)
	}
}
