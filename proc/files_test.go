package proc

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestFilesOfThisProcess(t *testing.T) {
	needProc(t)
	self := os.Getpid()
	exe, _ := os.Executable()
	if got, err := Exe(self); err != nil || got != exe {
		t.Errorf("Exe = %q, %v; want %q", got, err, exe)
	}
	wd, _ := os.Getwd()
	if got, err := Cwd(self); err != nil || got != wd {
		t.Errorf("Cwd = %q, %v; want %q", got, err, wd)
	}
	if args, err := Cmdline(self); err != nil || len(args) == 0 || filepath.Base(args[0]) != filepath.Base(os.Args[0]) {
		t.Errorf("Cmdline = %q, %v; want %q", args, err, os.Args)
	}
	if c, err := Comm(self); err != nil || c == "" {
		t.Errorf("Comm = %q, %v", c, err)
	}
	if ns, err := MountNamespace(self); err != nil || ns == "" {
		t.Errorf("MountNamespace = %q, %v", ns, err)
	}
	if !Exists(self) || Exists(missingPID) || Exists(0) {
		t.Error("Exists is wrong about this process or a missing one")
	}
	if pids := PIDs(); !slices.Contains(pids, self) || !slices.IsSorted(pids) {
		t.Errorf("PIDs lacks %d or is unsorted", self)
	}
	if id := BootID(); len(id) != 36 {
		t.Errorf("BootID = %q", id)
	}
	if got := Path(12, "maps"); got != "/proc/12/maps" {
		t.Errorf("Path = %q", got)
	}
	for _, f := range []func(int) (string, error){Exe, Cwd, MountNamespace, Comm} {
		if _, err := f(missingPID); err == nil {
			t.Error("a missing pid has a file")
		}
	}
	if _, err := Cmdline(missingPID); err == nil {
		t.Error("a missing pid has a command line")
	}
}

func TestChildSeesTheSameMountNamespace(t *testing.T) {
	cmd, _ := started(t, "exec sleep 30")
	waitFor(t, "the child to exec sleep", func() bool { c, _ := Comm(cmd.Process.Pid); return c == "sleep" })
	a, _ := MountNamespace(os.Getpid())
	b, err := MountNamespace(cmd.Process.Pid)
	if err != nil || a != b {
		t.Errorf("child namespace %q, %v; ours %q", b, err, a)
	}
	if StartTime(cmd.Process.Pid) == "" {
		t.Error("the child has no start time")
	}
}
