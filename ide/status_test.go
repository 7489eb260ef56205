package ide

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/toolkit"
)

func capState(caps []toolkit.CapabilityState, name string) string {
	for _, c := range caps {
		if c.Name == name {
			return c.State
		}
	}
	return ""
}

func TestStatusRunConfigurations(t *testing.T) {
	t.Parallel()
	need(t, "python3")
	dir := copyFixture(t, "intellij-app")
	c := newToolClient(t, dir, Options{})
	ctx := context.Background()

	st, err := c.m.BuildStatus(ctx, c.tb.Status(), "", "")
	if err != nil {
		t.Fatal(err)
	}
	if st.NextAction != toolkit.NextStartRunConfiguration || !strings.Contains(st.Hint, "restart_run_configuration") {
		t.Errorf("nextAction = %s (%s)", st.NextAction, st.Hint)
	}
	if capState(st.Capabilities, "runConfigurations") != toolkit.Available || capState(st.Capabilities, "git") != toolkit.NotConfigured {
		t.Errorf("capabilities = %+v", st.Capabilities)
	}
	sec, ok := st.Sections["runConfigurations"].(RunConfigSection)
	if !ok || sec.Count != 8 || sec.Running != 0 {
		t.Fatalf("section = %#v", st.Sections["runConfigurations"])
	}

	var res RestartResult
	c.ok(t, "restart_run_configuration", map[string]any{"configurationName": "worker"}, &res)
	st, _ = c.m.BuildStatus(ctx, c.tb.Status(), "", "")
	sec = st.Sections["runConfigurations"].(RunConfigSection)
	if sec.Running != 1 || st.NextAction == toolkit.NextStartRunConfiguration {
		t.Errorf("with worker running: %+v, next %s", sec, st.NextAction)
	}
	for _, s := range sec.Configurations {
		if s.Name == "worker" && (!s.Running || s.PID != res.PID) {
			t.Errorf("worker = %+v", s)
		}
	}

	// A configuration that crashed: the hint says so and where its logs are.
	writeFile(t, filepath.Join(dir, ".run", "crash.run.xml"), `<component name="ProjectRunConfigurationManager">
  <configuration name="crash" type="ShConfigurationType">
    <option name="SCRIPT_TEXT" value="echo dying; exit 7" />
    <option name="EXECUTE_SCRIPT_FILE" value="false" />
  </configuration>
</component>`)
	worker, err := c.x.find(dir, "worker", "")
	if err != nil {
		t.Fatal(err)
	}
	if pids, err := c.x.runner.Stop(ctx, worker); err != nil || len(pids) != 1 || pids[0] != res.PID {
		t.Fatalf("stop worker: %v %v", pids, err)
	}
	// It exits at once (a failed envelope, the run in data) or just after.
	var crash RestartResult
	if env, _ := c.call(t, "restart_run_configuration", map[string]any{"configurationName": "crash"}); !env.Success && (env.Error.Code != toolkit.CodeInvalidState || len(env.Data) == 0) {
		t.Fatalf("crash: %+v", env.Error)
	} else if err := json.Unmarshal(env.Data, &crash); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "crash", func() bool {
		for _, p := range c.x.runner.Processes() {
			if p.PID == crash.PID && !p.Running {
				return true
			}
		}
		return false
	})
	st, _ = c.m.BuildStatus(ctx, c.tb.Status(), "", "")
	if st.NextAction != toolkit.NextStartRunConfiguration || !strings.Contains(st.Hint, "exited with code 7") {
		t.Errorf("after a crash: %s (%s)", st.NextAction, st.Hint)
	}
	for _, s := range st.Sections["runConfigurations"].(RunConfigSection).Configurations {
		if s.Name == "crash" && (s.Running || s.LastExitCode == nil || *s.LastExitCode != 7) {
			t.Errorf("crash summary = %+v", s)
		}
	}

	// A project without configurations.
	empty := t.TempDir()
	st, _ = c.m.BuildStatus(ctx, c.tb.Status(), empty, "")
	if capState(st.Capabilities, "runConfigurations") != toolkit.NotConfigured || st.NextAction != toolkit.NextCreateDebugSession {
		t.Errorf("empty project: %+v next %s", st.Capabilities, st.NextAction)
	}
}

func TestStatusGit(t *testing.T) {
	w := newGitWorld(t)
	c := newToolClient(t, w.work, Options{})
	ctx := context.Background()
	get := func() GitSummary {
		t.Helper()
		st, err := c.m.BuildStatus(ctx, c.tb.Status(), "", "")
		if err != nil {
			t.Fatal(err)
		}
		if capState(st.Capabilities, "git") != toolkit.Available {
			t.Fatalf("git capability: %+v", st.Capabilities)
		}
		sec := st.Sections["git"].(GitSection)
		if len(sec.Repositories) != 1 || !sec.GitCommand {
			t.Fatalf("git section = %+v", sec)
		}
		return sec.Repositories[0]
	}
	r := get()
	if r.Branch != "main" || r.Upstream != "origin/main" || r.Dirty == nil || *r.Dirty || deref(r.Ahead) != 0 || deref(r.Behind) != 0 {
		t.Errorf("clean clone = %+v", r)
	}
	// A commit changes HEAD's ref and the index: the cache sees it at once.
	head := commitFile(t, w.work, "n.txt", "n\n", "new")
	r = get()
	if r.Head != head[:12] || deref(r.Ahead) != 1 {
		t.Errorf("after commit = %+v (head %s)", r, head)
	}
	// A staged change (index written) makes it dirty at once.
	writeFile(t, filepath.Join(w.work, "a.txt"), "edited\n")
	gitT(t, w.work, "add", "a.txt")
	if r = get(); r.Dirty == nil || !*r.Dirty {
		t.Errorf("after staging = %+v", r)
	}

	// An edit that touches nothing under .git shows once the read has aged;
	// status keeps answering from the cache meanwhile.
	gitT(t, w.work, "commit", "-q", "-m", "staged")
	if r = get(); r.Dirty == nil || *r.Dirty {
		t.Fatalf("after commit = %+v", r)
	}
	writeFile(t, filepath.Join(w.work, "n.txt"), "edited in the worktree\n")
	start := time.Now()
	for r = get(); !*r.Dirty; r = get() {
		if time.Since(start) > 10*time.Second {
			t.Fatal("an unstaged edit never showed as dirty")
		}
		time.Sleep(50 * time.Millisecond)
	}
	head = gitT(t, w.work, "rev-parse", "HEAD")

	// The session view: the repository and commit of the session's program.
	part := gitStatus{c.x}.Status(ctx, toolkit.StatusQuery{Project: w.work,
		Session: &toolkit.StatusSession{ID: "python-1", Program: filepath.Join(w.work, "a.txt")}})
	sv := part.Data.(GitSection).Session
	if sv == nil || sv.RepositoryRoot != w.work || sv.Commit != head || sv.Branch != "main" || sv.Dirty == nil || !*sv.Dirty {
		t.Errorf("session view = %+v", sv)
	}
}
