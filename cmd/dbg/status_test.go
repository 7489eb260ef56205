package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/debugtools"
	"github.com/dbg-dev/dbg/ide"
	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
)

func TestCLIStatusFlags(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args []string
		want queryOptions
	}{
		{nil, queryOptions{}},
		{[]string{"--json"}, queryOptions{asJSON: true}},
		{[]string{"--project", "/p", "--json"}, queryOptions{project: "/p", asJSON: true}},
	}
	for _, c := range cases {
		f, _, _ := cliFactory(t)
		var got *queryOptions
		cmd := newCmdStatus(f, func(_ context.Context, o *queryOptions) error { got = o; return nil })
		cmd.SetArgs(c.args)
		if err := cmd.Execute(); err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if got.project != c.want.project || got.asJSON != c.want.asJSON || got.IO != f.io || got.ToolClient == nil {
			t.Fatalf("%v: options %+v, want %+v", c.args, *got, c.want)
		}
	}
}

// gitRepo makes a repository with one commit on branch main.
func gitRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed (scripts/deps/ide.sh installs it)")
	}
	dir := t.TempDir()
	dir, _ = filepath.EvalSymlinks(dir)
	if err := os.WriteFile(filepath.Join(dir, "README"), []byte("hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"add", "README"},
		{"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "first"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		cmd := exec.CommandContext(ctx, "git", args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		cancel()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

// cliStatus is the status JSON with the sections this test reads.
type cliStatus struct {
	Project      string                    `json:"project"`
	Sessions     []sessions.SessionInfo    `json:"sessions"`
	Capabilities []toolkit.CapabilityState `json:"capabilities"`
	Sections     struct {
		Git               *ide.GitSection        `json:"git"`
		RunConfigurations *ide.RunConfigSection  `json:"runConfigurations"`
		JVM               *debugtools.StatusData `json:"jvm"`
	} `json:"sections"`
	NextAction string `json:"nextAction"`
	Hint       string `json:"hint"`
}

func statusJSON(t *testing.T, dir string) cliStatus {
	t.Helper()
	out, _, err := runCLI(t, "status", "--json", "--project", dir)
	if err != nil {
		t.Fatal(err)
	}
	var st cliStatus
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("status --json is not JSON: %v\n%s", err, out)
	}
	if st.Sections.Git == nil || st.Sections.RunConfigurations == nil || st.Sections.JVM == nil {
		t.Fatalf("sections missing: %s", out)
	}
	return st
}

func capState(st cliStatus, name string) string {
	for _, c := range st.Capabilities {
		if c.Name == name {
			return c.State
		}
	}
	return ""
}

func TestCLIStatusJSON(t *testing.T) {
	t.Parallel()
	dir := gitRepo(t)
	st := statusJSON(t, dir)
	if st.Project != dir {
		t.Fatalf("project %q, want %q", st.Project, dir)
	}
	if len(st.Sessions) != 0 {
		t.Fatalf("sessions %v, want none", st.Sessions)
	}
	repos := st.Sections.Git.Repositories
	if len(repos) != 1 || repos[0].Root != dir || repos[0].Branch != "main" || repos[0].Head == "" {
		t.Fatalf("git repositories %+v, want %s on main", repos, dir)
	}
	if capState(st, "git") != toolkit.Available || capState(st, "runConfigurations") != toolkit.NotConfigured {
		t.Fatalf("capabilities %+v", st.Capabilities)
	}
	// JVMs of other programs on this machine are part of the snapshot:
	// with one attachable, attaching it comes first.
	want := toolkit.NextCreateDebugSession
	if len(st.Sections.JVM.AttachableJVMs) > 0 {
		want = toolkit.NextAttachJVM
	}
	if st.NextAction != want || st.Hint == "" {
		t.Fatalf("nextAction %s (%s), want %s", st.NextAction, st.Hint, want)
	}

	// A saved run configuration that does not run: start it.
	if err := os.MkdirAll(filepath.Join(dir, ".vscode"), 0o755); err != nil {
		t.Fatal(err)
	}
	launch := `{"configurations": [{"type": "python", "request": "launch", "name": "worker", "program": "${workspaceFolder}/w.py"}]}`
	if err := os.WriteFile(filepath.Join(dir, ".vscode", "launch.json"), []byte(launch), 0o644); err != nil {
		t.Fatal(err)
	}
	st = statusJSON(t, dir)
	rc := st.Sections.RunConfigurations
	if rc.Count != 1 || rc.Running != 0 || len(rc.Configurations) != 1 || rc.Configurations[0].Name != "worker" {
		t.Fatalf("runConfigurations %+v", rc)
	}
	if capState(st, "runConfigurations") != toolkit.Available {
		t.Fatalf("capabilities %+v", st.Capabilities)
	}
	want = toolkit.NextStartRunConfiguration
	if len(st.Sections.JVM.AttachableJVMs) > 0 {
		want = toolkit.NextAttachJVM
	}
	if st.NextAction != want {
		t.Fatalf("nextAction %s (%s), want %s", st.NextAction, st.Hint, want)
	}
	if want == toolkit.NextStartRunConfiguration && !strings.Contains(st.Hint, `"worker"`) {
		t.Fatalf("hint %q does not name the configuration", st.Hint)
	}
}

func TestCLIStatusText(t *testing.T) {
	t.Parallel()
	dir := gitRepo(t)
	out, _, err := runCLI(t, "status", "--project", dir)
	if err != nil {
		t.Fatal(err)
	}
	// The next action names a JVM when one runs on the machine, and the
	// other tests start and stop JVMs: it must agree with the JVMs the
	// same text lists.
	var conns, jvms int
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "jvm: ") {
			_, _ = fmt.Sscanf(l, "jvm: %d connection(s), %d attachable JVM(s)", &conns, &jvms)
		}
	}
	next := toolkit.NextCreateDebugSession
	if jvms > 0 {
		next = toolkit.NextAttachJVM
	}
	if !strings.Contains(out, "next     "+next+": ") {
		t.Errorf("output lacks the next action %s, with %d attachable JVM(s) listed:\n%s", next, jvms, out)
	}
	for _, want := range []string{
		"project  " + dir + "\n",
		"debug sessions (0)\n",
		"git repositories (1)\n",
		"run configurations (0, 0 running)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	var gitLine string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "  "+dir+" ") {
			gitLine = l
		}
	}
	if f := strings.Fields(gitLine); len(f) < 4 || f[1] != "main" || f[3] != "NORMAL" {
		t.Errorf("git line %q, want root, main, HEAD, NORMAL", gitLine)
	}
}
