package remote

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"os/user"
	"strings"
	"testing"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/sessions"
)

func TestParseList(t *testing.T) {
	t.Parallel()
	out := "dbg-p 12\t0\t/usr/bin/python3.11\tpython3\x1f/srv/app/main.py\x1f\n" +
		"dbg-p 7\t1000\t\tnginx: worker\x1f\n" +
		"dbg-p x\t0\t/bin/sh\tsh\n" +
		"dbg-p 9\t0\n" +
		"dbg-users 0:root\x1f1000:deploy\x1f\n"
	procs, users := parseList(out)
	if len(procs) != 2 || procs[0].pid != 7 || procs[1].pid != 12 || strings.Join(procs[1].argv, " ") != "python3 /srv/app/main.py" {
		t.Fatalf("%+v", procs)
	}
	if users["1000"] != "deploy" || users["0"] != "root" {
		t.Errorf("%v", users)
	}
}

// TestListProcesses lists this machine's processes as the recorded
// docker's container: this test (a Go program, told by the mark in its
// executable) and a Python child (told by its command), with their user;
// all adds those whose language dbg cannot tell.
func TestListProcesses(t *testing.T) {
	recordedPath(t, "docker_run")
	// Listed once it runs Python: python3 may be a launcher script
	// (pyenv's shim) that execs Python a moment later.
	py := exec.Command("python3", "-c", "import time; print('ready', flush=True); time.sleep(60)")
	out, err := py.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := py.Start(); err != nil {
		t.Skip("no python3")
	}
	defer func() { _ = py.Process.Kill(); _ = py.Wait() }()
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "ready\n" {
		t.Fatalf("python3 said %q (%v)", line, err)
	}
	sl := exec.Command("sleep", "60")
	if err := sl.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = sl.Process.Kill(); _ = sl.Wait() }()
	rc := New(Config{Adapters: adapters.Default()})
	via := sessions.Via{Kind: KindDocker, Container: "web"}
	list, _, err := rc.ListProcesses(context.Background(), via, false)
	if err != nil {
		t.Fatal(err)
	}
	me, _ := user.Current()
	found := map[int]RemoteProcess{}
	for _, p := range list {
		found[p.PID] = p
	}
	if p := found[os.Getpid()]; p.Language != "go" || p.User != me.Username {
		t.Errorf("this test: %+v", p)
	}
	if p := found[py.Process.Pid]; p.Language != "python" || !strings.Contains(p.Command, "time.sleep(60)") {
		t.Errorf("python: %+v", p)
	}
	if _, ok := found[sl.Process.Pid]; ok {
		t.Errorf("sleep has no language dbg debugs, but is listed")
	}
	p, ok, err := rc.FindProcess(context.Background(), via, sl.Process.Pid)
	if err != nil || !ok || p.Language != "" || p.Command != "sleep 60" {
		t.Errorf("FindProcess(sleep) = %+v %v %v", p, ok, err)
	}
}
