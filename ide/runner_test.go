package ide

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/internal/dbgtest"
	"github.com/dbg-dev/dbg/toolkit"
)

// fakeRegistry records what the runner publishes.
type fakeRegistry struct {
	mu    sync.Mutex
	procs map[int]toolkit.OwnedProcess
}

func (f *fakeRegistry) RegisterProcess(p toolkit.OwnedProcess) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.procs == nil {
		f.procs = map[int]toolkit.OwnedProcess{}
	}
	f.procs[p.PID] = p
}

func (f *fakeRegistry) UnregisterProcess(pid int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.procs, pid)
}

func (f *fakeRegistry) get(pid int) (toolkit.OwnedProcess, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	p, ok := f.procs[pid]
	return p, ok
}

// processesWith counts live (non-zombie) processes whose command line
// contains marker.
func processesWith(t *testing.T, marker string) []int {
	t.Helper()
	ents, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range ents {
		var pid int
		if _, err := fmt.Sscanf(e.Name(), "%d", &pid); err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !strings.Contains(string(b), marker) {
			continue
		}
		if st, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); err == nil {
			if f := strings.Fields(string(st[strings.LastIndexByte(string(st), ')')+1:])); len(f) > 0 && f[0] == "Z" {
				continue
			}
		}
		pids = append(pids, pid)
	}
	return pids
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	dbgtest.WaitFor(t, 10*time.Second, what, cond)
}

func newTestRunner(t *testing.T, reg processRegistry) *Runner {
	r := NewRunner(reg, RunnerOptions{StopGrace: 500 * time.Millisecond, StartupWait: -1})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = r.Close(ctx)
	})
	return r
}

func shConfig(name, script, marker string) RunConfiguration {
	return RunConfiguration{Name: name, Source: ".run/test.run.xml", Kind: KindOther,
		Command: []string{"sh", "-c", script, marker}, Cwd: os.TempDir()}
}

func TestRestartTwiceLeavesOneInstance(t *testing.T) {
	t.Parallel()
	reg := &fakeRegistry{}
	r := newTestRunner(t, reg)
	marker := fmt.Sprintf("dbg-marker-%d", time.Now().UnixNano())
	cfg := shConfig("loop", `echo "started $VAL"; sh -c 'while :; do sleep 0.1; done' "$0-child" & wait`, marker)
	cfg.Env = map[string]string{"VAL": "from-env"}
	ctx := context.Background()

	var pids []int
	for i, want := range []string{ActionStart, ActionRestart, ActionRestart} {
		res, err := r.Restart(ctx, cfg)
		if err != nil {
			t.Fatalf("restart %d: %v", i, err)
		}
		if res.Action != want {
			t.Fatalf("restart %d: action %q, want %q", i, res.Action, want)
		}
		if i > 0 && res.StoppedPID != pids[i-1] {
			t.Errorf("restart %d stopped %d, want %d", i, res.StoppedPID, pids[i-1])
		}
		pids = append(pids, res.PID)
		waitFor(t, "child", func() bool { return len(processesWith(t, marker+"-child")) == 1 })
	}
	if got := processesWith(t, marker); len(got) != 2 { // the shell and its child
		t.Fatalf("processes with marker: %v, want the last shell and its child", got)
	}
	last := pids[len(pids)-1]
	p, ok := reg.get(last)
	if !ok || p.Kind != ProcessKind || p.Name != "loop" {
		t.Fatalf("registry: %+v %v", p, ok)
	}
	for _, old := range pids[:len(pids)-1] {
		if _, ok := reg.get(old); ok {
			t.Errorf("stopped pid %d still registered", old)
		}
	}
	waitFor(t, "output", func() bool { return strings.Contains(p.Output.Text("stdout"), "started from-env") })
	if n := len(r.Processes()); n != 1 {
		t.Errorf("runner tracks %d processes", n)
	}

	ctxc, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := r.Close(ctxc); err != nil {
		t.Fatal(err)
	}
	if got := processesWith(t, marker); len(got) != 0 {
		t.Fatalf("left behind after Close: %v", got)
	}
	if _, ok := reg.get(last); ok {
		t.Error("closed process still registered")
	}
	if _, err := r.Restart(ctx, cfg); !errors.Is(err, ErrRunnerClosed) {
		t.Errorf("restart after close: %v", err)
	}
	if err := r.Close(ctxc); err != nil {
		t.Errorf("second close: %v", err)
	}
}

func TestStopKillsProcessIgnoringTERM(t *testing.T) {
	r := newTestRunner(t, nil)
	marker := fmt.Sprintf("dbg-stubborn-%d", time.Now().UnixNano())
	cfg := shConfig("stubborn", `trap "" TERM; echo ready; while :; do sleep 0.1; done`, marker)
	res, err := r.Restart(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := r.Output(res.PID)
	waitFor(t, "ready", func() bool { return strings.Contains(out.Text("stdout"), "ready") })
	start := time.Now()
	res2, err := r.Restart(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res2.StoppedPID != res.PID || time.Since(start) < 400*time.Millisecond {
		t.Errorf("stopped %d after %v", res2.StoppedPID, time.Since(start))
	}
	// The shell forks for each sleep, and a fork shows the shell's command
	// line until it execs: look until only the new shell carries it.
	var got []int
	waitFor(t, "only the new instance", func() bool {
		got = processesWith(t, marker)
		return len(got) == 1 && got[0] == res2.PID
	})
}

func TestStopKeepsOutputReadable(t *testing.T) {
	t.Parallel()
	reg := &fakeRegistry{}
	r := newTestRunner(t, reg)
	cfg := shConfig("stoppable", `echo hello; while :; do sleep 0.1; done`, "dbg-stoppable")
	res, err := r.Restart(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := r.Output(res.PID)
	waitFor(t, "hello", func() bool { return strings.Contains(out.Text("stdout"), "hello") })
	pids, err := r.Stop(context.Background(), cfg)
	if err != nil || len(pids) != 1 || pids[0] != res.PID {
		t.Fatalf("stop = %v %v", pids, err)
	}
	if p, ok := reg.get(res.PID); !ok || !strings.Contains(p.Output.Text(""), "hello") {
		t.Errorf("output of a stopped process is gone: %+v %v", p, ok)
	}
	if ps := r.Processes(); len(ps) != 1 || ps[0].Running {
		t.Errorf("processes = %+v", ps)
	}
	if pids, err := r.Stop(context.Background(), cfg); err != nil || len(pids) != 0 {
		t.Errorf("second stop = %v %v", pids, err)
	}
	res, err = r.Restart(context.Background(), cfg)
	if err != nil || res.Action != ActionStart {
		t.Errorf("start after stop = %+v %v", res, err)
	}
}

func TestImmediateExitIsReported(t *testing.T) {
	t.Parallel()
	r := NewRunner(nil, RunnerOptions{StartupWait: 5 * time.Second})
	t.Cleanup(func() { _ = r.Close(context.Background()) })
	res, err := r.Restart(context.Background(), shConfig("boom", `echo boom >&2; exit 3`, "x"))
	if err != nil {
		t.Fatal(err)
	}
	if !res.Exited || res.ExitCode == nil || *res.ExitCode != 3 {
		t.Fatalf("result %+v", res)
	}
	if !strings.Contains(strings.Join(res.Output, "\n"), "boom") {
		t.Errorf("output %q", res.Output)
	}
	// An exited instance is restarted as a fresh start.
	res, err = r.Restart(context.Background(), shConfig("boom", `exit 0`, "x"))
	if err != nil || res.Action != ActionStart {
		t.Errorf("second start: %+v %v", res, err)
	}
}

func TestRefusesSeveralRunningInstances(t *testing.T) {
	t.Parallel()
	r := newTestRunner(t, nil)
	cfg := shConfig("twice", `while :; do sleep 0.1; done`, "dbg-twice")
	for i := 0; i < 2; i++ {
		if _, err := r.start(cfg); err != nil {
			t.Fatal(err)
		}
	}
	var sev *SeveralRunningError
	if _, err := r.Restart(context.Background(), cfg); !errors.As(err, &sev) || len(sev.PIDs) != 2 {
		t.Fatalf("err = %v", err)
	}
}

func TestStartErrors(t *testing.T) {
	t.Parallel()
	r := newTestRunner(t, nil)
	if _, err := r.Restart(context.Background(), RunConfiguration{Name: "x", Unsupported: "attach"}); err == nil {
		t.Error("unrunnable configuration started")
	}
	if _, err := r.Restart(context.Background(), RunConfiguration{Name: "x", Command: []string{"/nonexistent/dbg-binary"}}); err == nil {
		t.Error("missing binary started")
	}
	if _, err := r.Restart(context.Background(), RunConfiguration{Name: "x", Command: []string{"true"}, Cwd: "/nonexistent-dir"}); err == nil {
		t.Error("missing cwd accepted")
	}
}

func TestSecondCloseWaitsForTheFirst(t *testing.T) {
	t.Parallel()
	r := NewRunner(nil, RunnerOptions{StopGrace: 500 * time.Millisecond, StartupWait: -1})
	marker := fmt.Sprintf("dbg-close-twice-%d", time.Now().UnixNano())
	res, err := r.Restart(context.Background(), shConfig("stubborn", `trap "" TERM; echo ready; while :; do sleep 0.1; done`, marker))
	if err != nil {
		t.Fatal(err)
	}
	out, _ := r.Output(res.PID)
	waitFor(t, "ready", func() bool { return strings.Contains(out.Text("stdout"), "ready") })
	first := make(chan error, 1)
	go func() { first <- r.Close(context.Background()) }()
	waitFor(t, "first close to begin", func() bool {
		r.mu.Lock()
		defer r.mu.Unlock()
		return r.closed
	})
	if err := r.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := processesWith(t, marker); len(got) != 0 {
		t.Errorf("second Close returned while %v still ran", got)
	}
	if err := <-first; err != nil {
		t.Error(err)
	}
}

// Past MaxProcesses a new process is refused with the cap and how to
// raise it; a restart of a running one replaces it, and a stop makes room.
func TestMaxProcesses(t *testing.T) {
	t.Parallel()
	r := NewRunner(nil, RunnerOptions{StopGrace: 500 * time.Millisecond, StartupWait: -1, MaxProcesses: 1})
	t.Cleanup(func() { _ = r.Close(context.Background()) })
	ctx := context.Background()
	marker := fmt.Sprintf("dbg-max-procs-%d", time.Now().UnixNano())
	a := shConfig("a", "while :; do sleep 0.1; done", marker)
	if _, err := r.Restart(ctx, a); err != nil {
		t.Fatal(err)
	}
	_, err := r.Restart(ctx, shConfig("b", "while :; do sleep 0.1; done", marker))
	te, ok := err.(*toolkit.ToolError)
	if !ok || !strings.Contains(te.Message, "--max-processes 1") || !strings.Contains(te.Hint, "--max-processes") {
		t.Fatalf("a second process: %v, want the cap named", err)
	}
	if res, err := r.Restart(ctx, a); err != nil || res.Action != ActionRestart {
		t.Fatalf("a restart at the cap: %+v %v", res, err)
	}
	if _, err := r.Stop(ctx, a); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Restart(ctx, shConfig("b", "while :; do sleep 0.1; done", marker)); err != nil {
		t.Fatalf("after a stop: %v", err)
	}
}
