package sessions

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/proc"
)

func newWarmManager(t *testing.T, state string) *Manager {
	m := NewManager(Config{Adapters: adapters.Default(), StateDir: state, WarmAdapters: true})
	t.Cleanup(func() { m.Shutdown(context.Background()) })
	return m
}

// warmLaunch launches prog in a new session of lang, stopped at its
// BREAK line, and checks the value of i there.
func warmLaunch(t *testing.T, m *Manager, lang, prog string) *Session {
	t.Helper()
	ctx := context.Background()
	s, _, err := m.Create(ctx, CreateRequest{Language: lang})
	if err != nil {
		t.Fatal(err)
	}
	line := markedLine(t, prog, "BREAK")
	if _, err := s.SetBreakpoint(ctx, BreakpointSpec{File: prog, Line: line}); err != nil {
		t.Fatal(err)
	}
	res, err := s.Launch(ctx, StartRequest{ScriptPath: prog, Wait: time.Minute})
	if err != nil || res.State != StatePaused || res.LastStop.Location.Line != line {
		t.Fatalf("%s launch: %+v %v", lang, res, err)
	}
	if v, err := s.Evaluate(ctx, "i", 0, EvalREPL); err != nil || v.Result != "0" {
		t.Fatalf("%s: i = %+v %v, want 0", lang, v, err)
	}
	return s
}

// waitWarm waits until the pool holds an idle process of lang other than
// not, and returns it.
func waitWarm(t *testing.T, m *Manager, lang string, not int) int {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if p := m.WarmPIDs()[lang]; p != 0 && p != not {
			if !proc.Alive(p) {
				t.Fatalf("the idle %s adapter %d is not running", lang, p)
			}
			return p
		}
		if time.Now().After(deadline) {
			t.Fatalf("no idle %s adapter after 30 s (pool %v)", lang, m.WarmPIDs())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func warmRecords(t *testing.T, state string) []string {
	t.Helper()
	ents, _ := os.ReadDir(filepath.Join(state, "sessions"))
	var out []string
	for _, e := range ents {
		if strings.Contains(e.Name(), "-warm-") {
			out = append(out, e.Name())
		}
	}
	return out
}

// The pool starts an idle adapter only after a session of its language
// started, gives it to the next session once, then starts a fresh one;
// Shutdown leaves no idle process and no record.
func TestWarmPoolGivesOutOnceThenStartsAnother(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ lang, tool, prog string }{
		{"go", "dlv", "go/loop/main.go"},
		{"python", "python3", "python/loop.py"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			needTool(t, tc.tool)
			if tc.lang == "python" && !adapters.NewPython().Find(context.Background()).Found {
				t.Skip("debugpy not installed")
			}
			state := t.TempDir()
			m := NewManager(Config{Adapters: adapters.Default(), StateDir: state, WarmAdapters: true})
			defer m.Shutdown(context.Background())
			if len(m.WarmPIDs()) != 0 || len(warmRecords(t, state)) != 0 {
				t.Fatalf("idle adapters before any session: %v", m.WarmPIDs())
			}
			prog := testdata(t, tc.prog)
			a := warmLaunch(t, m, tc.lang, prog)
			first := waitWarm(t, m, tc.lang, 0)
			if first == a.Info().AdapterPID {
				t.Fatalf("the pool holds the adapter of the running session %d", first)
			}
			if recs := warmRecords(t, state); len(recs) != 1 {
				t.Errorf("records of idle adapters: %v, want one", recs)
			}
			b := warmLaunch(t, m, tc.lang, prog)
			if got := b.Info().AdapterPID; got != first {
				t.Errorf("the second session runs adapter %d, want the idle %d", got, first)
			}
			second := waitWarm(t, m, tc.lang, first)
			if b.Info().AdapterPID == second || a.Info().AdapterPID == second {
				t.Errorf("the idle adapter %d serves a session", second)
			}
			// Closing sessions leaves the idle process for the next one.
			for _, s := range []*Session{a, b} {
				if err := m.CloseSession(context.Background(), s.id); err != nil {
					t.Fatal(err)
				}
			}
			if !proc.Alive(second) || m.WarmPIDs()[tc.lang] != second {
				t.Errorf("the idle adapter %d did not stay after the sessions closed: %v", second, m.WarmPIDs())
			}
			if proc.Alive(first) {
				t.Errorf("the adapter %d of a closed session still runs", first)
			}
			m.Shutdown(context.Background())
			for deadline := time.Now().Add(10 * time.Second); proc.Alive(second); time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("the idle adapter %d outlived Shutdown", second)
				}
			}
			if recs := warmRecords(t, state); len(recs) != 0 {
				t.Errorf("records left after Shutdown: %v", recs)
			}
		})
	}
}

// A server that dies without Shutdown (SIGKILL) leaves the record of its
// idle adapter; the next server's reaper kills the adapter.
func TestWarmPoolReapedAfterCrash(t *testing.T) {
	t.Parallel()
	needTool(t, "dlv")
	state := t.TempDir()
	m := newWarmManager(t, state)
	s := warmLaunch(t, m, "go", testdata(t, "go/loop/main.go"))
	idle := waitWarm(t, m, "go", 0)
	if err := m.CloseSession(context.Background(), s.id); err != nil {
		t.Fatal(err)
	}
	recs := warmRecords(t, state)
	if len(recs) != 1 {
		t.Fatalf("records: %v", recs)
	}
	// Pretend the record was written by a server that has since died.
	path := filepath.Join(state, "sessions", recs[0])
	b, _ := os.ReadFile(path)
	b = []byte(strings.Replace(string(b), fmt.Sprintf(`"pid":%d,`, os.Getpid()), `"pid":999999999,`, 1))
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if n := NewManager(Config{StateDir: state}).Reap(); n != 1 {
		t.Fatalf("reaped %d records, want the idle adapter's", n)
	}
	for deadline := time.Now().Add(10 * time.Second); proc.Alive(idle); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the idle adapter %d survived the reaper", idle)
		}
	}
}

// Without WarmAdapters no idle process is ever started.
func TestWarmPoolOff(t *testing.T) {
	t.Parallel()
	needTool(t, "dlv")
	m := newTestManager(t)
	s := warmLaunch(t, m, "go", testdata(t, "go/loop/main.go"))
	time.Sleep(500 * time.Millisecond)
	if len(m.WarmPIDs()) != 0 {
		t.Errorf("idle adapters without the pool: %v", m.WarmPIDs())
	}
	adapter := s.Info().AdapterPID
	if err := m.CloseSession(context.Background(), s.id); err != nil {
		t.Fatal(err)
	}
	if kids := proc.Descendants(os.Getpid()); len(kids) > 0 {
		for _, k := range kids {
			if k == adapter {
				t.Errorf("the adapter %d outlived its session", adapter)
			}
		}
	}
}
