package ide

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbg-dev/dbg/toolkit"
)

// failWithData calls a tool whose operation must fail with code and
// decodes the tool's own fields, which the failed envelope keeps in data.
func (c *toolClient) failWithData(t *testing.T, name string, args map[string]any, code string, out any) *toolkit.ToolError {
	t.Helper()
	env, _ := c.call(t, name, args)
	if env.Success || env.Error == nil || env.Error.Code != code {
		t.Fatalf("%s(%v): want %s, got success=%v error=%+v", name, args, code, env.Success, env.Error)
	}
	if len(env.Data) == 0 || string(env.Data) == "null" {
		t.Fatalf("%s: the failed envelope has no data: %+v", name, env.Error)
	}
	if err := json.Unmarshal(env.Data, out); err != nil {
		t.Fatalf("%s: decode %s: %v", name, env.Data, err)
	}
	return env.Error
}

// divergedWorld is a clone and its remote that changed the same line of
// a.txt, with a tool client on the clone and the clone's HEAD.
func divergedWorld(t *testing.T) (gitWorld, *toolClient, string) {
	t.Helper()
	w := newGitWorld(t)
	c := newToolClient(t, w.work, Options{})
	head := commitFile(t, w.work, "a.txt", "one\nLOCAL\nthree\n", "local edit")
	commitFile(t, w.seed, "a.txt", "one\nREMOTE\nthree\n", "remote edit")
	gitT(t, w.seed, "push", "-q", "origin", "main")
	return w, c, head
}

// A refused pull, a rejected push and a failed fetch fail
// the envelope with GIT_FAILED and keep the operation's fields in data.
func TestGitFailuresKeepData(t *testing.T) {
	w, c, head := divergedWorld(t)

	var op OpResult
	te := c.failWithData(t, "git_pull", map[string]any{"strategy": "ff_only"}, toolkit.CodeGitFailed, &op)
	if !strings.Contains(te.Message, "diverged") || op.RepositoryRoot != w.work || op.Branch != "main" || op.Strategy != PullFFOnly ||
		op.HeadBefore != head || op.HeadAfter != head || len(op.Output) == 0 {
		t.Fatalf("refused pull: %+v data %+v", te, op)
	}

	c.failWithData(t, "git_push", nil, toolkit.CodeGitFailed, &op)
	if op.Remote != "origin" || op.HeadBefore != head || len(op.Output) == 0 {
		t.Fatalf("rejected push data %+v", op)
	}

	gitT(t, w.work, "remote", "add", "gone", filepath.Join(t.TempDir(), "missing.git"))
	c.failWithData(t, "git_fetch", map[string]any{"remote": "gone"}, toolkit.CodeGitFailed, &op)
	if op.Remote != "gone" || op.RepositoryRoot != w.work {
		t.Fatalf("failed fetch data %+v", op)
	}
}

// A conflict's envelope keeps the pull's fields.
func TestGitConflictKeepsData(t *testing.T) {
	_, c, head := divergedWorld(t)
	var op OpResult
	te := c.failWithData(t, "git_pull", map[string]any{"strategy": "merge"}, toolkit.CodeGitFailed, &op)
	if !strings.Contains(te.Message, "conflict") || op.Strategy != PullMerge || op.HeadBefore != head || len(op.Output) == 0 {
		t.Fatalf("conflict data %+v", op)
	}
}

// A run configuration whose process fails at once fails the envelope and
// keeps the run (pid, exit code, output) in data.
func TestRestartFailedAtOnceKeepsData(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".idea", "runConfigurations"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, ".idea", "runConfigurations", "fails.xml"), `<component name="ProjectRunConfigurationManager">
  <configuration name="fails" type="ShConfigurationType">
    <option name="SCRIPT_TEXT" value="echo broken config; exit 3" />
    <option name="INTERPRETER_PATH" value="/bin/sh" />
    <option name="EXECUTE_SCRIPT_FILE" value="false" />
  </configuration>
</component>
`)
	c := newToolClient(t, dir, Options{})
	var res RestartResult
	c.failWithData(t, "restart_run_configuration", map[string]any{"configurationName": "fails"}, toolkit.CodeInvalidState, &res)
	if !res.Exited || res.ExitCode == nil || *res.ExitCode != 3 || res.PID == 0 || !strings.Contains(strings.Join(res.Output, "\n"), "broken config") {
		t.Fatalf("data %+v", res)
	}
}
