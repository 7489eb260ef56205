package adapters

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/internal/dbgtest"
	"github.com/dbg-dev/dbg/proc"
)

func startFor(t *testing.T, name string, args ...string) int {
	t.Helper()
	cmd := exec.Command(name, args...)
	if err := cmd.Start(); err != nil {
		t.Skipf("%s: %v", name, err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	// Until exec is done, the child is still this test binary.
	self, _ := os.Executable()
	dbgtest.WaitFor(t, 10*time.Second, name+"'s exec", func() bool {
		exe, err := proc.Exe(cmd.Process.Pid)
		return err == nil && exe != self
	})
	return cmd.Process.Pid
}

func TestDetectLanguage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cases := map[string]int{
		"python": startFor(t, "python3", "-c", "import time; time.sleep(30)"),
		"c":      startFor(t, "sleep", "30"),
	}
	if _, err := exec.LookPath("node"); err == nil {
		cases["javascript"] = startFor(t, "node", "-e", "setTimeout(()=>{}, 30000)")
	}
	// A Go binary, recognised by its build information.
	src := filepath.Join(dir, "main.go")
	if err := os.WriteFile(src, []byte("package main\nimport \"time\"\nfunc main() { time.Sleep(30 * time.Second) }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "gobin")
	if out, err := exec.Command("go", "build", "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("go build: %v %s", err, out)
	}
	cases["go"] = startFor(t, bin)
	reg := Default()
	for want, pid := range cases {
		got, err := reg.DetectLanguage(pid)
		if err != nil || got != want {
			t.Errorf("pid %d: %q %v, want %s", pid, got, err, want)
		}
	}
	if _, err := reg.DetectLanguage(1 << 30); err == nil || !strings.Contains(err.Error(), "no process") {
		t.Errorf("missing pid: %v", err)
	}
}

// The names the adapters declare (Traits.Commands) tell interpreters and
// VMs apart: exactly, by prefix, and by the script a launcher runs.
func TestDetectByCommand(t *testing.T) {
	t.Parallel()
	reg := Default()
	cases := []struct {
		exe  string
		args []string
		want string
	}{
		{"python3.12", nil, "python"}, {"pypy3", nil, "python"}, {"uwsgi", []string{"/srv/app.py", "-x"}, "python"},
		{"java", nil, "java"}, {"JAVAW", nil, "java"}, {"node", nil, "javascript"}, {"nodejs-18", nil, "javascript"},
		{"ruby3.1", nil, "ruby"}, {"dotnet", nil, "dotnet"}, {"dart", nil, "dart"},
		{"nodex", nil, ""}, {"javac", nil, ""}, {"sh", []string{"run.sh"}, ""}, {"bash", []string{"x.py.sh"}, ""},
	}
	for _, c := range cases {
		got := ""
		if a, ok := reg.forCommand(c.exe, c.args); ok {
			got = a.Language()
		}
		if got != c.want {
			t.Errorf("%s %q: %q, want %q", c.exe, c.args, got, c.want)
		}
	}
}

// A compiled program is told by its marks, the most telling first: Go's
// build information, Rust's runtime, GnuCOBOL's library, C++'s standard
// library, and C for any other ELF file. Each compiler the machine has
// builds one; C and Go are always there (sleep, the go tool).
func TestDetectBinary(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Fatal(err)
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	bins := map[string]string{sleep: "c", goTool: "go"}
	builds := []struct {
		lang, compiler, src, text string
		args                      []string
	}{
		{"cpp", "c++", "x.cpp", "#include <string>\n#include <iostream>\nint main() { std::string s = \"x\"; std::cout << s; }\n", nil},
		{"rust", "rustc", "x.rs", "fn main() { println!(\"x\"); }\n", nil},
		{"cobol", "cobc", "x.cob", "       IDENTIFICATION DIVISION.\n       PROGRAM-ID. X.\n       PROCEDURE DIVISION.\n           STOP RUN.\n", []string{"-x"}},
	}
	for _, b := range builds {
		if _, err := exec.LookPath(b.compiler); err != nil {
			t.Logf("%s: no %s here, its binaries are not checked", b.lang, b.compiler)
			continue
		}
		src, out := write(b.src, b.text), filepath.Join(dir, b.lang+".bin")
		args := append(append(b.args, "-o", out), src)
		if msg, err := exec.Command(b.compiler, args...).CombinedOutput(); err != nil {
			t.Fatalf("%s %v: %v %s", b.compiler, args, err, msg)
		}
		bins[out] = b.lang
	}
	bins[write("text", "not a program")] = ""
	reg := Default()
	for path, want := range bins {
		e := &Executable{Path: path}
		got := ""
		if a, ok := reg.forBinary(e); ok {
			got = a.Language()
		}
		e.close()
		if got != want {
			t.Errorf("%s: %q, want %q", path, got, want)
		}
	}
}
