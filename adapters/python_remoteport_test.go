package adapters

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/safefs"
	"github.com/dbg-dev/dbg/safefs/attacker"
)

// Finding 6, Python 3.14's path: once dbg's attach script is in /tmp,
// the attacker writes the answer file beside it first, naming a port of
// hers. The script and the answer now live in a new folder nobody else
// can enter: her writes fail, and dbg connects to the target's debugpy.
func TestPythonRemoteExecAnswerCannotBePlanted(t *testing.T) {
	eve := attacker.New(t)
	attacker.ProtectedSymlinks(t)
	tmp := attacker.SharedTemp(t)
	t.Setenv("TMPDIR", tmp)
	py := "/root/.pyenv/versions/3.11.7/bin/python3"
	if _, err := os.Stat(py); err != nil {
		py = pathPython()
	}
	p := NewPython()
	p.HookDir = t.TempDir()
	info := p.cache.probe(context.Background(), py)
	if info.debugpy == "" {
		t.Fatalf("%s has no debugpy: run scripts/deps/core.sh", py)
	}
	trigger := filepath.Join(t.TempDir(), "trigger")
	cmd := exec.Command(py, pyTestdata("attach/remote_exec_sim.py"), trigger)
	out := &lockedBuffer{}
	cmd.Stdout = out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	waitFor(t, func() bool { return strings.Contains(out.String(), "tick 2") })
	p.RemoteExec = func(_ context.Context, _ string, _ int, script string) error {
		// Every place the answer has been looked for: beside the script, and in its folder.
		for _, answer := range []string{strings.TrimSuffix(script, ".py") + ".port", filepath.Join(filepath.Dir(script), "port")} {
			if res, err := eve.Run("sh", "-c", "echo 1 > "+answer); err == nil {
				t.Errorf("the attacker wrote the answer file %s", answer)
			} else if !strings.Contains(res, "Permission denied") && !strings.Contains(res, "cannot create") {
				t.Logf("her write of %s: %s", answer, res)
			}
		}
		if res, err := eve.Run("cat", script); err == nil {
			t.Errorf("the attacker read the attach script: %.60s", res)
		}
		return os.WriteFile(trigger, []byte(script), 0o644)
	}
	plan := &pyAttachPlan{info: info, label: "pyenv", remote: true, in: Interpreter{Path: py, Version: info.version, Source: "process", Debugpy: info.dpVersion}}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ep, err := p.remoteAttach(ctx, Target{Mode: Attach, PID: cmd.Process.Pid}, plan)
	if err != nil {
		t.Fatalf("attach with the attacker's answer planted: %v", err)
	}
	ep.Close(ctx)
	// A target of dbg's own user reads its folder in dbg's private one,
	// which stays (checked, 0700); nothing else may be left.
	private := safefs.PrivateTemp(func(string) string { return tmp })
	ents, _ := os.ReadDir(tmp)
	for _, e := range ents {
		if filepath.Join(tmp, e.Name()) != private {
			t.Errorf("the attach left %s in the temporary folder", e.Name())
		}
	}
	if left, _ := os.ReadDir(private); len(left) != 0 {
		t.Errorf("the attach left %v in dbg's private folder", left)
	}
	if fi, err := os.Stat(private); err == nil && fi.Mode().Perm() != 0o700 {
		t.Errorf("dbg's private folder is %v", fi.Mode().Perm())
	}
}
