package ide

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// mkfifo makes a FIFO at path that no one writes: opening it for reading
// blocks forever without O_NONBLOCK.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
}

// within fails the test when f has not returned after 10 s.
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: still reading after 10 s", what)
	}
}

func TestReadRegularRefusesFIFOAndDevice(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	mkfifo(t, fifo)
	within(t, "fifo", func() {
		if _, err := readRegular(fifo, maxConfigFile); err == nil || !strings.Contains(err.Error(), "a FIFO") {
			t.Errorf("fifo: err = %v, want a refusal naming a FIFO", err)
		}
	})
	within(t, "/dev/zero", func() {
		if _, err := readRegular("/dev/zero", maxConfigFile); err == nil || !strings.Contains(err.Error(), "character device") {
			t.Errorf("/dev/zero: err = %v, want a refusal naming a character device", err)
		}
	})
	if _, err := readRegular(dir, maxConfigFile); err == nil {
		t.Error("a directory was read")
	}
	big := filepath.Join(dir, "big")
	writeFile(t, big, strings.Repeat("x", 11))
	if _, err := readRegular(big, 10); err == nil || !strings.Contains(err.Error(), "larger than 10 bytes") {
		t.Errorf("big: err = %v", err)
	}
	ok := filepath.Join(dir, "ok")
	writeFile(t, ok, "A=1\n")
	if b, err := readRegular(ok, 10); err != nil || string(b) != "A=1\n" {
		t.Errorf("regular: %q %v", b, err)
	}
}

// An envFile that is a FIFO is not read (it would hang the load); the
// configuration still loads, with the env of its "env" entry.
func TestLaunchEnvFileFIFO(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mkfifo(t, filepath.Join(dir, ".env"))
	writeFile(t, filepath.Join(dir, ".vscode", "launch.json"), `{"configurations": [{"type": "node", "request": "launch", "name": "n",
	  "program": "a.js", "envFile": "${workspaceFolder}/.env", "env": {"E": "1"}}]}`)
	within(t, "launch.json with a FIFO envFile", func() {
		res := LoadRunConfigurations(dir, func(string) string { return "" })
		if len(res.Configurations) != 1 || res.Configurations[0].Env["E"] != "1" || len(res.Configurations[0].Env) != 1 {
			t.Errorf("configurations = %+v, warnings %v", res.Configurations, res.Warnings)
		}
	})
}

// Run-configuration XML files, workspace.xml and launch.json that are
// FIFOs or devices are refused with a warning naming them; the other
// configurations still load.
func TestRunConfigurationFilesFIFO(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mkfifo(t, filepath.Join(dir, ".idea", "runConfigurations", "a.xml"))
	mkfifo(t, filepath.Join(dir, ".run", "b.run.xml"))
	mkfifo(t, filepath.Join(dir, ".idea", "workspace.xml"))
	mkfifo(t, filepath.Join(dir, ".idea", "modules.xml"))
	if err := os.Symlink("/dev/zero", filepath.Join(dir, ".run", "z.run.xml")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, ".vscode", "launch.json"), `{"configurations": [{"type": "node", "request": "launch", "name": "n", "program": "a.js"}]}`)
	within(t, "run configurations", func() {
		res := LoadRunConfigurations(dir, func(string) string { return "" })
		if len(res.Configurations) != 1 || res.Configurations[0].Name != "n" {
			t.Errorf("configurations = %+v", res.Configurations)
		}
		warned := strings.Join(res.Warnings, "\n")
		for _, want := range []string{"a.xml", "b.run.xml", "workspace.xml", "z.run.xml"} {
			if !strings.Contains(warned, want) || !strings.Contains(warned, "not a regular file") {
				t.Errorf("no refusal of %s in warnings %q", want, res.Warnings)
			}
		}
	})
}
