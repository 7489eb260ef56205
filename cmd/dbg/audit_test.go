package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/toolkit"
)

func TestFlagsAudit(t *testing.T) {
	t.Parallel()
	o, err := parseFlags(t, newCmdAudit, "--since", "2h", "--json")
	if err != nil || o.since != "2h" || !o.asJSON || o.StateDir == nil || o.Now == nil {
		t.Fatalf("%+v %v", o, err)
	}
	if _, err := parseFlags(t, newCmdAudit, "extra"); err == nil {
		t.Fatal("an argument was accepted")
	}
}

func TestParseSince(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 4, 12, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Time{
		"":                     {},
		"90m":                  now.Add(-90 * time.Minute),
		"2026-03-01T10:00:00Z": time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC),
	} {
		if got, err := parseSince(in, now); err != nil || !got.Equal(want) {
			t.Errorf("%q: %v %v, want %v", in, got, err, want)
		}
	}
	if got, err := parseSince("2026-03-01", now); err != nil || got.Year() != 2026 || got.Day() != 1 {
		t.Errorf("a date: %v %v", got, err)
	}
	for _, bad := range []string{"yesterday", "-1h", "2026-13-01"} {
		if _, err := parseSince(bad, now); err == nil || !strings.Contains(err.Error(), "--since") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// dbg audit prints the log's lines as a table, the newer ones with
// --since; a missing log prints only the header.
func TestAuditPrints(t *testing.T) {
	t.Parallel()
	f, out, _ := cliFactory(t)
	if err := auditRun(t.Context(), &auditOptions{IO: f.io, StateDir: f.stateDir, Now: f.now}); err != nil || strings.Count(out.String(), "\n") != 1 {
		t.Fatalf("without a log: %q %v", out, err)
	}
	out.Reset()
	log := `{"time":"2026-01-02T03:04:05.000Z","client":"c 1","tool":"set_variable","args":{"name":"n","value":"2"},"session":"s1","pid":42,"outcome":"ok"}
{"time":"2026-01-03T03:04:05.000Z","tool":"git_push","outcome":"CANCELLED"}
`
	if err := os.WriteFile(filepath.Join(f.stateDir(), toolkit.AuditFile), []byte(log), 0o600); err != nil {
		t.Fatal(err)
	}
	opts := &auditOptions{IO: f.io, StateDir: f.stateDir, Now: f.now, since: "2026-01-03"}
	if err := auditRun(t.Context(), opts); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); strings.Contains(got, "set_variable") || !strings.Contains(got, "git_push") || !strings.Contains(got, "CANCELLED") {
		t.Errorf("--since 2026-01-03: %s", got)
	}
	out.Reset()
	opts.since = ""
	if err := auditRun(t.Context(), opts); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 || strings.Join(strings.Fields(lines[1]), " ") != `2026-01-02T03:04:05.000Z set_variable ok s1 42 c 1 {"name":"n","value":"2"}` {
		t.Errorf("the table: %q", lines)
	}
}
