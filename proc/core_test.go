package proc

import (
	"debug/elf"
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// crashEnv makes the test binary a program that dies of a nil pointer
// with GOTRACEBACK=crash, which leaves a core file (see makeCore).
const crashEnv = "DBG_PROC_TEST_CRASH"

func init() {
	if os.Getenv(crashEnv) == "1" {
		debug.SetTraceback("crash")
		var p *int
		println(*p)
	}
}

// crashed is a core file made by makeCore.
type crashed struct {
	path   string
	pid    int
	exe    string // the program that dumped it
	signal int    // the signal it died of (0: gcore's core of a live one)
}

// makeCore runs the test binary as a crashing program in a new folder,
// with its core size limit lifted, and returns its core. Where the kernel
// writes no core in the folder (kernel.core_pattern pipes cores
// elsewhere), the core comes from gcore instead, of a sleeping program.
func makeCore(t *testing.T) crashed {
	t.Helper()
	needProc(t)
	dir := t.TempDir()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	pattern, _ := os.ReadFile("/proc/sys/kernel/core_pattern")
	if p := strings.TrimSpace(string(pattern)); p != "" && !strings.HasPrefix(p, "|") && !strings.Contains(p, "/") {
		cmd := exec.Command("sh", "-c", `ulimit -c unlimited && exec "$0" -test.run XXX`, self)
		cmd.Dir, cmd.Env = dir, append(os.Environ(), crashEnv+"=1")
		var ee *exec.ExitError
		if err := cmd.Run(); !errors.As(err, &ee) {
			t.Fatalf("the crashing program ended with %v", err)
		}
		if matches, _ := filepath.Glob(filepath.Join(dir, "core*")); len(matches) == 1 {
			return crashed{path: matches[0], pid: cmd.Process.Pid, exe: self, signal: int(syscall.SIGABRT)}
		}
		t.Logf("no core in %s after a crash (core_pattern %q); trying gcore", dir, p)
	}
	gcore, err := exec.LookPath("gcore")
	if err != nil {
		t.Skip("this machine writes no core in the program's folder and has no gcore")
	}
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	pid := strconv.Itoa(cmd.Process.Pid)
	out := filepath.Join(dir, "core")
	if b, err := exec.Command(gcore, "-o", out, pid).CombinedOutput(); err != nil {
		t.Fatalf("gcore failed: %v: %s", err, b)
	}
	exe, _ := Exe(cmd.Process.Pid)
	return crashed{path: out + "." + pid, pid: cmd.Process.Pid, exe: exe}
}

// TestReadCore reads a real core: the pid, the signal, the program's
// name and path, and the build id of its mapped headers, which is the
// program's own.
func TestReadCore(t *testing.T) {
	t.Parallel()
	cr := makeCore(t)
	c, err := ReadCore(cr.path)
	if err != nil {
		t.Fatal(err)
	}
	if c.PID != cr.pid || c.Signal != cr.signal || c.Exe != cr.exe {
		t.Errorf("core of pid %d, %s, exe %q; want pid %d, %s, exe %q", c.PID, SignalName(c.Signal), c.Exe, cr.pid, SignalName(cr.signal), cr.exe)
	}
	want, err := FileBuildID(cr.exe)
	if err != nil || want.IsZero() {
		t.Fatalf("the program's build id: %+v, %v", want, err)
	}
	if c.BuildID.IsZero() || c.BuildID.Differs(want) {
		t.Errorf("the core's build id %+v, want the program's %+v", c.BuildID, want)
	}
	if c.Command == "" || !strings.HasPrefix(filepath.Base(cr.exe), c.Command) {
		t.Errorf("command %q, want a prefix of %q", c.Command, filepath.Base(cr.exe))
	}
	if _, err := ReadCore(cr.exe); !errors.Is(err, ErrNotCore) {
		t.Errorf("reading a program as a core: %v, want ErrNotCore", err)
	}
}

func TestBuildIDDiffers(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		a, b BuildID
		want bool
	}{
		{BuildID{GNU: "aa"}, BuildID{GNU: "aa"}, false},
		{BuildID{GNU: "aa"}, BuildID{GNU: "bb"}, true},
		{BuildID{Go: "x/y"}, BuildID{GNU: "bb"}, true},
		{BuildID{Go: "x/y", GNU: "aa"}, BuildID{Go: "x/y"}, false},
		{BuildID{}, BuildID{GNU: "bb"}, false},
	} {
		if got := c.a.Differs(c.b); got != c.want {
			t.Errorf("%+v differs from %+v: %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// note is one ELF note, for the fuzz corpus.
func note(name string, typ uint32, desc []byte) []byte {
	n := append([]byte(name), 0)
	b := binary.LittleEndian.AppendUint32(nil, uint32(len(n)))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(desc)))
	b = binary.LittleEndian.AppendUint32(b, typ)
	b = append(b, n...)
	for len(b)%4 != 0 {
		b = append(b, 0)
	}
	b = append(b, desc...)
	for len(b)%4 != 0 {
		b = append(b, 0)
	}
	return b
}

func FuzzParseCoreNotes(f *testing.F) {
	status := make([]byte, 112)
	binary.LittleEndian.PutUint16(status[12:], 11)
	binary.LittleEndian.PutUint32(status[32:], 4242)
	files := binary.LittleEndian.AppendUint64(nil, 1)
	files = binary.LittleEndian.AppendUint64(files, 4096)
	files = binary.LittleEndian.AppendUint64(files, 0x400000)
	files = binary.LittleEndian.AppendUint64(files, 0x401000)
	files = binary.LittleEndian.AppendUint64(files, 0)
	files = append(files, "/bin/prog\x00"...)
	f.Add(append(note("CORE", ntPRStatus, status), note("CORE", ntFile, files)...))
	f.Add(note("GNU", ntGNUBuild, []byte{1, 2, 3, 4}))
	f.Fuzz(func(t *testing.T, b []byte) {
		var c Core
		for _, class := range []elf.Class{elf.ELFCLASS64, elf.ELFCLASS32} {
			parseCoreNotes(b, binary.LittleEndian, class, &c)
		}
		var id BuildID
		buildNotes(b, binary.BigEndian, &id)
		_ = headerBuildID(b)
	})
}
