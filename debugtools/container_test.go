package debugtools

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// startFixtureInNamespaces runs the fixture in new pid and mount
// namespaces with a private /tmp, as a container would: its pid inside is
// 1 and its hsperfdata and attach socket live in its own /tmp. It returns
// the host pid of the JVM.
func startFixtureInNamespaces(t *testing.T) int {
	t.Helper()
	classes := buildFixture(t)
	if _, err := exec.LookPath("unshare"); err != nil {
		t.Skip("unshare not installed")
	}
	if os.Geteuid() != 0 {
		t.Skip("creating namespaces needs root")
	}
	// The private /tmp hides the compiled fixture: give the JVM a copy in
	// /dev/shm, its own file system.
	shm, err := os.MkdirTemp("/dev/shm", "dbg-fixture-")
	if err != nil {
		t.Skipf("no /dev/shm: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(shm) })
	if out, err := exec.Command("cp", "-r", classes+"/.", shm).CombinedOutput(); err != nil {
		t.Fatalf("copy fixture: %v %s", err, out)
	}
	script := fmt.Sprintf("mount -t tmpfs tmpfs /tmp && exec java -cp %s:%s com.example.shop.ShopApplication", shm, h2Jar)
	cmd := exec.Command("unshare", "--pid", "--fork", "--mount", "--mount-proc", "--kill-child", "sh", "-c", script)
	cmd.Stderr = os.Stderr
	if err := startJVM(t, "namespaced fixture", cmd); err != nil {
		t.Skipf("the fixture did not start in new namespaces (no privileges for unshare here): %v", err)
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", cmd.Process.Pid, cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b))
	if len(f) != 1 {
		t.Fatalf("children of unshare: %q", b)
	}
	pid, _ := strconv.Atoi(f[0])
	return pid
}

func TestAttachJVMInOtherNamespaces(t *testing.T) {
	t.Parallel()
	pid := startFixtureInNamespaces(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	j, err := InspectJVM(ctx, pid)
	if err != nil {
		t.Fatal(err)
	}
	if j.NSPID != 1 || j.PerfData == "" || !strings.HasPrefix(j.PerfData, fmt.Sprintf("/proc/%d/root/tmp/", pid)) || j.MainClass != "com.example.shop.ShopApplication" {
		t.Fatalf("inspect: %+v", j)
	}
	if SameMountNamespace(pid) {
		t.Fatal("expected another mount namespace")
	}
	s := newTestService(t)
	res, err := s.Attach(ctx, pid, "", 60*time.Second)
	if err != nil || res.Conn == nil {
		t.Fatalf("attach: %v %+v", err, res)
	}
	r, ok := runOn(t, res.Conn, "com.example.shop.OrderService", "greet", nil, `{"n":{"type":"simple","content":"ns"}}`)
	if !ok || str(r.PrintResult) != "Hello, ns!" {
		t.Fatalf("invoke: %+v %s", r, str(r.Throwable))
	}
}
