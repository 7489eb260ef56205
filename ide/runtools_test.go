package ide

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
	"github.com/dbg-dev/dbg/toolkit/mcpbind"
)

// copyFixture copies a fixture project into a temporary directory, so
// tests can build in it and edit it.
func copyFixture(t *testing.T, name string) string {
	t.Helper()
	src := fixture(t, name)
	dst := filepath.Join(t.TempDir(), name)
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func need(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed (scripts/deps/ide.sh installs it)", tool)
		}
	}
}

// output waits until the registered process pid printed want.
func waitOutput(t *testing.T, m *sessions.Manager, pid int, want string) string {
	t.Helper()
	var text string
	waitFor(t, "output "+want, func() bool {
		p, ok := m.ProcessByPID(pid)
		if !ok {
			return false
		}
		text = p.Output.Text("")
		return strings.Contains(text, want)
	})
	return text
}

func TestRunConfigurationToolsIntelliJ(t *testing.T) {
	t.Parallel()
	need(t, "javac", "java", "python3")
	dir := copyFixture(t, "intellij-app")
	out, err := exec.Command("javac", "-d", filepath.Join(dir, "app", "target", "classes"),
		filepath.Join(dir, "app", "src", "main", "java", "com", "example", "Main.java")).CombinedOutput()
	if err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	c := newToolClient(t, dir, Options{})

	var list ListConfigurationsResult
	text := c.ok(t, "get_restartable_run_configurations", nil, &list)
	if list.ProjectName != "intellij-app" || len(list.Configurations) != 8 {
		t.Fatalf("list = %+v", list)
	}
	if strings.Contains(text, "s3cret") {
		t.Error("the datasource password is listed")
	}
	for _, v := range list.Configurations {
		if v.Name == "OrderApplication" && (v.Env["SPRING_DATASOURCE_PASSWORD"] != Redacted || v.Env["APP_MODE"] != "local" || v.TypeID != "SpringBootApplicationConfigurationType") {
			t.Errorf("OrderApplication = %+v", v)
		}
		if v.Running || !v.Restartable {
			t.Errorf("%s: running %v restartable %v", v.Name, v.Running, v.Restartable)
		}
	}

	// Refusals.
	te, _ := c.fail(t, "restart_run_configuration", map[string]any{"configurationName": " "}, toolkit.CodeInvalidArgument)
	if len(te.AvailableOptions) != 8 {
		t.Errorf("options = %v", te.AvailableOptions)
	}
	c.fail(t, "restart_run_configuration", nil, toolkit.CodeInvalidArgument)
	c.fail(t, "restart_run_configuration", map[string]any{"configurationName": 5}, toolkit.CodeInvalidArgument)
	c.fail(t, "restart_run_configuration", map[string]any{"configurationName": "Scratch"}, toolkit.CodeRunConfigNotFound)
	c.fail(t, "restart_run_configuration", map[string]any{"configurationName": "main"}, toolkit.CodeRunConfigNotFound)
	c.fail(t, "restart_run_configuration", map[string]any{"configurationName": "worker", "projectPath": filepath.Join(dir, "nope")}, toolkit.CodeNoProject)

	// A real JVM runs the Application configuration's command line.
	var res RestartResult
	c.ok(t, "restart_run_configuration", map[string]any{"configurationName": "Main"}, &res)
	if res.Action != ActionStart || res.PID == 0 {
		t.Fatalf("Main = %+v", res)
	}
	waitOutput(t, c.m, res.PID, "args=one,two words,three")

	// The Python worker: restarted twice, exactly one instance remains.
	script := filepath.Join(dir, "scripts", "worker.py")
	var pids []int
	for i, want := range []string{ActionStart, ActionRestart, ActionRestart} {
		c.ok(t, "restart_run_configuration", map[string]any{"configurationName": "worker"}, &res)
		if res.Action != want || (i > 0 && res.StoppedPID != pids[i-1]) {
			t.Fatalf("restart %d = %+v", i, res)
		}
		pids = append(pids, res.PID)
		waitOutput(t, c.m, res.PID, "worker fixture started pid=")
	}
	text = waitOutput(t, c.m, res.PID, "tick 2")
	if !strings.Contains(text, "cwd=scripts") {
		t.Errorf("worker ran in the wrong directory: %s", text)
	}
	if got := processesWith(t, script); len(got) != 1 || got[0] != res.PID {
		t.Fatalf("worker processes %v, want only %d", got, res.PID)
	}
	c.ok(t, "get_restartable_run_configurations", nil, &list)
	for _, v := range list.Configurations {
		if (v.Name == "worker") != v.Running || (v.Running && v.PID != res.PID) {
			t.Errorf("%s running=%v pid=%d", v.Name, v.Running, v.PID)
		}
	}
	st := runConfigStatus{c.x}.Status(context.Background(), toolkit.StatusQuery{Project: dir})
	if sec := st.Data.(RunConfigSection); sec.Running != 1 || len(st.Suggestions) != 0 {
		t.Errorf("status with a running configuration = %+v", st)
	}

	// A second configuration of the same name makes the name ambiguous.
	writeFile(t, filepath.Join(dir, ".run", "worker.run.xml"), `<component name="ProjectRunConfigurationManager">
  <configuration name="worker" type="PythonConfigurationType" factoryName="Python">
    <option name="SCRIPT_NAME" value="$PROJECT_DIR$/scripts/worker.py" />
  </configuration>
</component>`)
	te, _ = c.fail(t, "restart_run_configuration", map[string]any{"configurationName": "worker"}, toolkit.CodeInvalidArgument)
	if strings.Join(te.AvailableOptions, ",") != ".run/worker.run.xml,.idea/workspace.xml" {
		t.Errorf("ambiguous options = %v", te.AvailableOptions)
	}
	c.ok(t, "restart_run_configuration", map[string]any{"configurationName": "worker", "source": ".idea/workspace.xml"}, &res)
	if res.Action != ActionRestart {
		t.Errorf("restart by source = %+v", res)
	}
}

func TestRunConfigurationToolsVSCode(t *testing.T) {
	t.Parallel()
	need(t, "node")
	dir := copyFixture(t, "vscode-app")
	c := newToolClient(t, dir, Options{Getenv: func(k string) string {
		if k == "DBG_FIXTURE_TOKEN" {
			return "tok-FIXTURE-SECRET"
		}
		return ""
	}})
	var list ListConfigurationsResult
	if text := c.ok(t, "get_restartable_run_configurations", nil, &list); strings.Contains(text, "tok-FIXTURE-SECRET") {
		t.Error("a token from the environment is listed")
	}
	te, _ := c.fail(t, "restart_run_configuration", map[string]any{"configurationName": "Server + Worker"}, toolkit.CodeInvalidArgument)
	if strings.Join(te.AvailableOptions, ",") != "Launch Server,Python: worker" {
		t.Errorf("compound = %+v", te)
	}
	if te, _ := c.fail(t, "restart_run_configuration", map[string]any{"configurationName": "Attach to 9229"}, toolkit.CodeInvalidArgument); !strings.Contains(te.Hint, "debug_run_configuration") {
		t.Errorf("attach = %+v", te)
	}
	var res RestartResult
	c.ok(t, "restart_run_configuration", map[string]any{"configurationName": "Launch Server"}, &res)
	waitOutput(t, c.m, res.PID, "server started args=--port,3000")
	if p, _ := c.m.ProcessByPID(res.PID); p.Kind != ProcessKind || p.Name != "Launch Server" {
		t.Errorf("registered process = %+v", p)
	}
}

func TestRegisterStopsProcessesWithItsContext(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	marker := "dbg-ctx-marker-" + filepath.Base(dir)
	writeFile(t, filepath.Join(dir, ".vscode", "launch.json"), `{"configurations": [
	  {"type": "node", "request": "launch", "name": "sh", "runtimeExecutable": "sh", "runtimeArgs": ["-c", "echo up; while :; do sleep 0.1; done", "`+marker+`"]}
	]}`)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m := sessions.NewManager(sessions.Config{Project: dir})
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "0"}, nil)
	tb := mcpbind.NewToolbox(srv, nil)
	x := New(m, Options{Context: ctx})
	x.Register(tb)
	defer func() { _ = x.Close(context.Background()) }()
	for _, want := range []string{"get_restartable_run_configurations", "restart_run_configuration", "debug_run_configuration",
		"get_git_repositories", "get_git_remotes", "git_fetch", "git_pull", "git_push"} {
		if !strings.Contains(strings.Join(tb.Names(), ","), want) {
			t.Errorf("tool %s not registered", want)
		}
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "restart_run_configuration", Arguments: map[string]any{"configurationName": "sh"}})
	if err != nil || r.IsError {
		t.Fatalf("restart: %v %+v", err, r)
	}
	waitFor(t, "process", func() bool { return len(processesWith(t, marker)) == 1 })
	cancel()
	deadline := time.Now().Add(10 * time.Second)
	for len(processesWith(t, marker)) != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the process outlived the server's context")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
