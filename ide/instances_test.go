package ide

import (
	"context"
	"os/exec"
	"path/filepath"
	"reflect"
	"syscall"
	"testing"
)

func TestOtherInstancesAreReported(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	script := filepath.Join(dir, "serve.sh")
	// The loop runs in a subshell: a fork of the instance, with its
	// command line and directory, which is part of it and not another.
	writeFile(t, script, "echo up\n(while :; do sleep 0.1; done)\n")
	// An instance started outside dbg, in the same directory.
	ext := exec.Command("/bin/sh", script)
	ext.Dir = dir
	ext.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := ext.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-ext.Process.Pid, syscall.SIGKILL)
		_ = ext.Wait()
	})
	cfg := RunConfiguration{Name: "serve", Source: ".run/serve.run.xml", Kind: KindShell, Program: script, Cwd: dir,
		Command: []string{"/bin/sh", script}}
	r := newTestRunner(t, nil)
	res, err := r.Restart(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(res.OtherInstances, []int{ext.Process.Pid}) {
		t.Errorf("other instances = %v, want [%d] (ours is %d)", res.OtherInstances, ext.Process.Pid, res.PID)
	}
	// Elsewhere, the same script is another program's business.
	cfg.Cwd = t.TempDir()
	if got := otherInstances(cfg, nil); len(got) != 0 {
		t.Errorf("matched a process in another directory: %v", got)
	}
}
