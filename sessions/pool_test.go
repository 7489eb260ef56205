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

// idleNow reports the idle processes of the pool and those being
// started.
func idleNow(m *Manager) (idle, starting int) {
	m.pool.mu.Lock()
	defer m.pool.mu.Unlock()
	return len(m.pool.idle), len(m.pool.starting)
}

// The pool starts no idle adapter beside a single session; a session's
// close starts one, which the next session of the language takes (or
// joins while it starts). A session started while another of its
// language is open starts one too. Each is given out once; closing
// sessions leaves the idle one; Shutdown leaves no idle process and no
// record.
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
			ctx := context.Background()
			state := t.TempDir()
			m := NewManager(Config{Adapters: adapters.Default(), StateDir: state, WarmAdapters: true})
			defer m.Shutdown(ctx)
			prog := testdata(t, tc.prog)
			a := warmLaunch(t, m, tc.lang, prog)
			if idle, starting := idleNow(m); idle+starting != 0 || len(warmRecords(t, state)) != 0 {
				t.Fatalf("an idle adapter beside a single session: %v", m.WarmPIDs())
			}
			// The first session's close starts the idle adapter the
			// second one takes.
			if err := m.CloseSession(ctx, a.id); err != nil {
				t.Fatal(err)
			}
			first := waitWarm(t, m, tc.lang, 0)
			b := warmLaunch(t, m, tc.lang, prog)
			if got := b.Info().AdapterPID; got != first {
				t.Errorf("the second session runs adapter %d, want the idle %d", got, first)
			}
			if idle, starting := idleNow(m); idle+starting != 0 {
				t.Errorf("the pool kept or started another adapter for a single session: %v", m.WarmPIDs())
			}
			if proc.Alive(a.Info().AdapterPID) {
				t.Errorf("the adapter %d of a closed session still runs", a.Info().AdapterPID)
			}
			// A second session beside b: the language is used in
			// parallel, so an idle one is started for a third.
			c := warmLaunch(t, m, tc.lang, prog)
			second := waitWarm(t, m, tc.lang, 0)
			if second == first || second == c.Info().AdapterPID {
				t.Fatalf("the pool holds the adapter %d of a running session", second)
			}
			if recs := warmRecords(t, state); len(recs) != 1 {
				t.Errorf("records of idle adapters: %v, want one", recs)
			}
			d := warmLaunch(t, m, tc.lang, prog)
			if got := d.Info().AdapterPID; got != second {
				t.Errorf("the third open session runs adapter %d, want the idle %d", got, second)
			}
			third := waitWarm(t, m, tc.lang, second)
			// Closing sessions leaves the idle process for the next one.
			for _, s := range []*Session{b, c, d} {
				if err := m.CloseSession(ctx, s.id); err != nil {
					t.Fatal(err)
				}
			}
			if !proc.Alive(third) || m.WarmPIDs()[tc.lang] != third {
				t.Errorf("the idle adapter %d did not stay after the sessions closed: %v", third, m.WarmPIDs())
			}
			m.Shutdown(ctx)
			for deadline := time.Now().Add(10 * time.Second); proc.Alive(third); time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("the idle adapter %d outlived Shutdown", third)
				}
			}
			if recs := warmRecords(t, state); len(recs) != 0 {
				t.Errorf("records left after Shutdown: %v", recs)
			}
		})
	}
}

// An idle adapter no session took within WarmIdle is stopped, and its
// record removed; the next session starts its own.
func TestWarmPoolIdleAdapterExpires(t *testing.T) {
	needTool(t, "dlv")
	ctx := context.Background()
	state := t.TempDir()
	m := NewManager(Config{Adapters: adapters.Default(), StateDir: state, WarmAdapters: true, WarmIdle: time.Second})
	defer m.Shutdown(ctx)
	prog := testdata(t, "go/loop/main.go")
	s := warmLaunch(t, m, "go", prog)
	if err := m.CloseSession(ctx, s.id); err != nil {
		t.Fatal(err)
	}
	idle := waitWarm(t, m, "go", 0)
	for deadline := time.Now().Add(30 * time.Second); proc.Alive(idle) || len(m.WarmPIDs()) != 0 || len(warmRecords(t, state)) != 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the idle adapter %d (pool %v, records %v) is still there 30 s after its second of idleness",
				idle, m.WarmPIDs(), warmRecords(t, state))
		}
	}
	if got := warmLaunch(t, m, "go", prog).Info().AdapterPID; got == idle || got == 0 {
		t.Errorf("the session after the expiry runs adapter %d (the expired one was %d)", got, idle)
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
	if err := m.CloseSession(context.Background(), s.id); err != nil {
		t.Fatal(err)
	}
	idle := waitWarm(t, m, "go", 0)
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
