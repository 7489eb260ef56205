package remote

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/internal/dbgtest"
	"github.com/dbg-dev/dbg/proc"
	"github.com/dbg-dev/dbg/sessions"
)

// A full attach through the recorded docker and kubectl: the container
// and the pod are this machine, so the debug server the start script
// runs, the relay and the forward are real, and a real adapter debugs a
// real program through them.

// ticker is a running fixture program and what it printed.
type ticker struct {
	cmd *exec.Cmd
	mu  sync.Mutex
	out strings.Builder
}

func (tk *ticker) count(s string) int {
	tk.mu.Lock()
	defer tk.mu.Unlock()
	return strings.Count(tk.out.String(), s)
}

// startTicker runs argv until the test ends, once it printed "ready".
func startTicker(t *testing.T, argv ...string) *ticker {
	t.Helper()
	tk := &ticker{cmd: exec.Command(argv[0], argv[1:]...)}
	tk.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	tk.cmd.Stdout, tk.cmd.Stderr = w, w
	if err := tk.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(r)
		once := sync.Once{}
		for sc.Scan() {
			tk.mu.Lock()
			tk.out.WriteString(sc.Text() + "\n")
			tk.mu.Unlock()
			if strings.Contains(sc.Text(), "ready") {
				once.Do(func() { close(ready) })
			}
		}
	}()
	t.Cleanup(func() {
		_ = syscall.Kill(-tk.cmd.Process.Pid, syscall.SIGKILL)
		_ = tk.cmd.Wait()
	})
	select {
	case <-ready:
	case <-time.After(60 * time.Second):
		t.Fatalf("%s did not start", argv[0])
	}
	return tk
}

// waitTicks waits until the program printed n more "tick" lines.
func waitTicks(t *testing.T, tk *ticker, n int, what string) {
	t.Helper()
	want := tk.count("tick") + n
	deadline := time.Now().Add(15 * time.Second)
	for tk.count("tick") < want {
		if time.Now().After(deadline) {
			t.Fatal(what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// build runs argv in dir (a fixture's build).
func build(t *testing.T, dir string, argv ...string) {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("%s: %v\n%s", strings.Join(argv, " "), err, out)
	}
}

func lineOf(t *testing.T, file, mark string) int {
	t.Helper()
	return dbgtest.LineOf(t, file, mark)
}

// attachThrough attaches to pid through via with a session manager whose
// reacher is this package's, breaks at src:line, reads the stop and
// detaches; the program must run on.
func attachThrough(t *testing.T, via sessions.Via, lang string, tk *ticker, src string, line int) *sessions.RemoteInfo {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	rc := New(Config{Adapters: adapters.Default(), PrivateDir: func() (string, error) { return t.TempDir(), nil }})
	m := sessions.NewManager(sessions.Config{Adapters: adapters.Default(), Reacher: rc, StateDir: t.TempDir()})
	defer m.Shutdown(context.Background())
	s, res, err := m.Create(ctx, sessions.CreateRequest{Language: lang, ProcessID: tk.cmd.Process.Pid, Via: &via})
	if err != nil {
		t.Fatal(err)
	}
	info := s.Remote()
	if info == nil || info.Forward == "" || info.Via != String(via) {
		t.Fatalf("the session says nothing of its way: %+v", info)
	}
	if res.State != sessions.StatePaused {
		if _, err := s.WaitForStop(ctx, 20*time.Second); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.SetBreakpoint(ctx, sessions.BreakpointSpec{File: src, Line: line}); err != nil {
		t.Fatal(err)
	}
	r, err := s.Continue(ctx, 0, 20*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if r.LastStop == nil || r.LastStop.Location == nil || r.LastStop.Location.Line != line || r.LastStop.Location.File != src {
		t.Fatalf("stop %+v, want %s:%d", r, src, line)
	}
	if err := s.Detach(ctx, false); err != nil {
		t.Fatal(err)
	}
	if err := m.CloseSession(ctx, s.ID()); err != nil {
		t.Fatal(err)
	}
	waitTicks(t, tk, 2, "the program does not run after the detach")
	return info
}

// helpersGone checks that the helpers the teardown was given have ended.
func helpersGone(t *testing.T, calls [][]string) {
	t.Helper()
	var helpers []string
	for _, c := range calls {
		if i := lastIndex(c, "--"); i >= 0 && i+2 < len(c) && strings.Contains(c[i+1], "/dbg-") {
			helpers = append(helpers, c[i+2:]...)
		}
	}
	if len(helpers) == 0 {
		t.Fatalf("no teardown of the debug server among %q", calls)
	}
	for _, h := range helpers {
		pid, _ := strconv.Atoi(strings.Split(h, ":")[0])
		st, err := proc.ReadStat(pid)
		if err == nil && st.State != 'Z' && strconv.FormatUint(st.StartTime, 10) == strings.Split(h, ":")[1] {
			t.Errorf("the debug server %d still runs", pid)
		}
	}
}

// TestDockerAttach attaches to a Go program through docker: docker
// inspect checks the container, docker exec starts dlv dap in it, each
// connection is relayed by a docker exec, and the teardown stops what
// was started.
func TestDockerAttach(t *testing.T) {
	if _, err := exec.LookPath("dlv"); err != nil {
		t.Skip("delve is not installed (scripts/deps/core.sh installs it)")
	}
	calls := recordedPath(t, "docker_run")
	dir := t.TempDir()
	build(t, filepath.Join("..", "testdata", "go", "server"), "go", "build", "-gcflags=all=-N -l", "-o", filepath.Join(dir, "server"), ".")
	tk := startTicker(t, filepath.Join(dir, "server"))
	src, _ := filepath.Abs(filepath.Join("..", "testdata", "go", "server", "main.go"))
	info := attachThrough(t, sessions.Via{Kind: KindDocker, Container: "web"}, "go", tk, src, lineOf(t, src, "// TICK"))
	if !strings.Contains(info.Server, "dlv dap --listen 127.0.0.1:0") {
		t.Errorf("server %q", info.Server)
	}
	log := calls()
	if !slices.ContainsFunc(log, func(c []string) bool { return slices.Contains(c, "dbg-relay") }) {
		t.Errorf("no docker exec relayed the connection: %q", log)
	}
	helpersGone(t, log)
}

// TestKubernetesAttach attaches to a C program through kubectl: kubectl
// get pod picks the default container, kubectl exec starts lldb-server
// in it, kubectl port-forward forwards its port.
func TestKubernetesAttach(t *testing.T) {
	c := adapters.NewC()
	if info := c.Find(context.Background()); !info.Found {
		t.Skipf("no lldb-dap: %s", info.Note)
	}
	calls := recordedPath(t, "kubectl_run")
	dir := t.TempDir()
	src, _ := filepath.Abs(filepath.Join("..", "testdata", "c", "loop.c"))
	build(t, dir, "gcc", "-g", "-O0", "-o", "loop", src)
	tk := startTicker(t, filepath.Join(dir, "loop"), "forever")
	via := sessions.Via{Kind: KindKubernetes, Pod: "web", Namespace: "shop", Context: "prod"}
	info := attachThrough(t, via, "c", tk, src, lineOf(t, src, "BREAK: loop body"))
	if !strings.Contains(info.Server, "gdbserver 127.0.0.1:0 --attach") {
		t.Errorf("server %q", info.Server)
	}
	log := calls()
	if !slices.ContainsFunc(log, func(c []string) bool { return slices.Contains(c, "port-forward") }) {
		t.Errorf("no kubectl port-forward: %q", log)
	}
	for _, c := range log {
		if slices.Contains(c, "exec") && !slices.Contains(c, "app") {
			t.Errorf("an exec not into the default container app: %q", c)
		}
	}
	helpersGone(t, log)
}

// TestKubernetesDebugContainer: with via.image, the debug server runs in
// an ephemeral container that kubectl debug adds (targeting the app
// container, the general profile), and the answer warns that it cannot
// be removed; at the end dbg tells it to stop.
func TestKubernetesDebugContainer(t *testing.T) {
	c := adapters.NewC()
	if info := c.Find(context.Background()); !info.Found {
		t.Skipf("no lldb-dap: %s", info.Note)
	}
	calls := recordedPath(t, "kubectl_debug")
	dir := t.TempDir()
	src, _ := filepath.Abs(filepath.Join("..", "testdata", "c", "loop.c"))
	build(t, dir, "gcc", "-g", "-O0", "-o", "loop", src)
	tk := startTicker(t, filepath.Join(dir, "loop"), "forever")
	via := sessions.Via{Kind: KindKubernetes, Pod: "web", Namespace: "shop", Context: "prod", Image: "shop/debug-tools:1"}
	info := attachThrough(t, via, "c", tk, src, lineOf(t, src, "BREAK: loop body"))
	if !slices.ContainsFunc(info.Warnings, func(w string) bool { return strings.Contains(w, "cannot remove an ephemeral container") }) {
		t.Errorf("no warning that the ephemeral container stays: %q", info.Warnings)
	}
	log := calls()
	name := ephemeralName(log)
	if !strings.HasPrefix(name, "dbg-") {
		t.Fatalf("no kubectl debug --container: %q", log)
	}
	var execs, done int
	for _, c := range log {
		if slices.Contains(c, "exec") {
			if slices.Contains(c, "touch") {
				done++
			} else if slices.Contains(c, name) {
				execs++
			} else {
				t.Errorf("an exec outside the ephemeral container: %q", c)
			}
		}
	}
	if execs == 0 || done != 1 {
		t.Errorf("%d execs in %s, %d stops of it: %q", execs, name, done, log)
	}
}

func lastIndex(list []string, s string) int {
	for i := len(list) - 1; i >= 0; i-- {
		if list[i] == s {
			return i
		}
	}
	return -1
}
