package ide

import (
	"context"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
)

func needDebugpy(t *testing.T) {
	t.Helper()
	need(t, "python3")
	if err := exec.Command("python3", "-c", "import debugpy").Run(); err != nil {
		t.Skip("debugpy is not installed (scripts/deps/ide.sh installs it)")
	}
}

func TestDebugRunConfigurationPython(t *testing.T) {
	t.Parallel()
	needDebugpy(t)
	dir := copyFixture(t, "vscode-app")
	c := newToolClient(t, dir, Options{}, adapters.Default())
	var res DebugResult
	c.ok(t, "debug_run_configuration", map[string]any{"configurationName": "Python: worker"}, &res)
	if res.Mode != DebugSession || res.Language != "python" || res.SessionID == "" || res.Start == nil {
		t.Fatalf("result = %+v", res)
	}
	// With a breakpoint in the loop, the session starts paused there.
	var res2 DebugResult
	c.ok(t, "debug_run_configuration", map[string]any{"configurationName": "Python: worker",
		"breakpoints": []map[string]any{{"file": "worker.py", "line": 4}}}, &res2)
	if st := res2.Start; st == nil || st.State != sessions.StatePaused || st.LastStop == nil || st.LastStop.Location == nil || st.LastStop.Location.Line != 4 {
		t.Errorf("start with a breakpoint = %+v", res2.Start)
	}
	s, err := c.m.Get(res.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "debuggee output", func() bool { return strings.Contains(s.Output().Text(""), "vscode worker started") })
	if st := s.Info().State; st != sessions.StateRunning {
		t.Errorf("state = %s", st)
	}
	// A compound runs its members as one group.
	var comp DebugResult
	c.ok(t, "debug_run_configuration", map[string]any{"configurationName": "Server + Worker"}, &comp)
	if comp.Group != "Server + Worker" || len(comp.Members) != 2 || comp.Members[0].SessionID == "" || comp.Members[1].SessionID == "" {
		t.Fatalf("compound = %+v", comp)
	}
	if g := c.m.Groups(); len(g) != 1 || g[0].Name != "Server + Worker" || len(g[0].Sessions) != 2 {
		t.Errorf("groups = %+v", g)
	}
	for _, mem := range comp.Members {
		if s, err := c.m.Get(mem.SessionID); err != nil || s.Info().Group != "Server + Worker" {
			t.Errorf("member %s: %v, %+v", mem.SessionID, err, s)
		}
	}
	c.fail(t, "debug_run_configuration", map[string]any{"configurationName": "nope"}, toolkit.CodeRunConfigNotFound)
}

func TestDebugRunConfigurationJVMWithoutJavaAdapter(t *testing.T) {
	t.Parallel()
	need(t, "javac", "java")
	dir := copyFixture(t, "intellij-app")
	out, err := exec.Command("javac", "-d", filepath.Join(dir, "app", "target", "classes"),
		filepath.Join(dir, "app", "src", "main", "java", "com", "example", "Main.java")).CombinedOutput()
	if err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	c := newToolClient(t, dir, Options{}) // no adapters at all
	var res DebugResult
	c.ok(t, "debug_run_configuration", map[string]any{"configurationName": "Main"}, &res)
	if res.Mode != DebugJVM || res.PID == 0 {
		t.Fatalf("result = %+v", res)
	}
	waitOutput(t, c.m, res.PID, "args=one,two words,three")
	// Maven configurations have no debug mapping.
	c.fail(t, "debug_run_configuration", map[string]any{"configurationName": "Package"}, toolkit.CodeInvalidArgument)
}

func TestPlanDebug(t *testing.T) {
	t.Parallel()
	dir := fixture(t, "intellij-app")
	res := LoadRunConfigurations(dir, nil)
	get := func(name string) RunConfiguration {
		c, err := FindRunConfiguration(res.Configurations, name, "")
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	p, err := planDebug(dir, get("OrderApplication"), false)
	if err != nil {
		t.Fatal(err)
	}
	if p.create.Language != "java" || p.start.ScriptPath != "com.example.OrderApplication" || p.start.Cwd != filepath.Join(dir, "app") ||
		!reflect.DeepEqual(p.start.DAPLaunchArgs["classpath"], []string{filepath.Join(dir, "app", "target", "classes")}) ||
		p.start.Env["APP_MODE"] != "local" {
		t.Errorf("spring boot plan = %+v %+v", p.create, p.start)
	}
	p, err = planDebug(dir, get("server tests"), true)
	if err != nil {
		t.Fatal(err)
	}
	if p.create.Language != "go" || p.start.DAPLaunchArgs["mode"] != "test" || !reflect.DeepEqual(p.start.Args, []string{"-test.run", "^TestServe$"}) || !p.start.StopOnEntry {
		t.Errorf("go test plan = %+v", p.start)
	}

	vs := fixture(t, "vscode-app")
	vres := LoadRunConfigurations(vs, func(string) string { return "" })
	vc, _ := FindRunConfiguration(vres.Configurations, "Attach to 9229", "")
	if p, err = planDebug(vs, vc, false); err != nil || p.start != nil || p.create.Port != 9229 || p.create.Language != "javascript" {
		t.Errorf("attach plan = %+v %v", p, err)
	}
	vc, _ = FindRunConfiguration(vres.Configurations, "Python: module", "")
	if p, err = planDebug(vs, vc, false); err != nil || p.start.ScriptPath != "-m http.server" {
		t.Errorf("module plan = %+v %v", p.start, err)
	}
	vc, _ = FindRunConfiguration(vres.Configurations, "Go: api", "")
	if p, err = planDebug(vs, vc, false); err != nil || p.start.AdapterLaunchConfig["buildFlags"] != "-tags=dev" || p.start.AdapterLaunchConfig["mode"] != "auto" {
		// launch.json's mode goes to the Go adapter, which reads "auto" as its own choice
		t.Errorf("go plan = %+v %v", p.start, err)
	}
}

func TestGoPackageDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/app\n\ngo 1.22\n")
	if got := goPackageDir(dir, dir, "example.com/app/server"); got != filepath.Join(dir, "server") {
		t.Errorf("got %s", got)
	}
	if got := goPackageDir(dir, dir, "example.com/app"); got != dir {
		t.Errorf("root package: %s", got)
	}
	if got := goPackageDir(dir, filepath.Join(dir, "x"), "other.org/y"); got != filepath.Join(dir, "x") {
		t.Errorf("foreign package: %s", got)
	}
}

func TestDebugRunConfigurationJavaAdapter(t *testing.T) {
	t.Parallel()
	need(t, "javac", "java")
	dir := copyFixture(t, "intellij-app")
	out, err := exec.Command("javac", "-g", "-d", filepath.Join(dir, "app", "target", "classes"),
		filepath.Join(dir, "app", "src", "main", "java", "com", "example", "Main.java")).CombinedOutput()
	if err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	reg := adapters.NewRegistry()
	reg.Register(adapters.Java{})
	c := newToolClient(t, dir, Options{}, reg)
	var res DebugResult
	c.ok(t, "debug_run_configuration", map[string]any{"configurationName": "Main",
		"breakpoints": []map[string]any{{"file": "app/src/main/java/com/example/Main.java", "line": 5}}}, &res)
	if res.Mode != DebugSession || res.Language != "java" || res.SessionID == "" || res.NextAction != toolkit.NextInspectStop {
		t.Fatalf("result = %+v", res)
	}
	st := res.Start
	if st == nil || st.State != sessions.StatePaused || st.LastStop == nil || st.LastStop.Location == nil || st.LastStop.Location.Line != 5 {
		t.Fatalf("start = %+v", st)
	}
	s, err := c.m.Get(res.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Continue(context.Background(), 0, time.Second); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "debuggee output", func() bool { return strings.Contains(s.Output().Text(""), "args=one,two words,three") })
}

// TestPlanDebugCore: a vscode-go entry of mode core opens its core file
// with its program, and starts nothing.
func TestPlanDebugCore(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	doc := `{"configurations": [{"name": "crash", "type": "go", "request": "launch", "mode": "core",
		"program": "${workspaceFolder}/bin/app", "coreFilePath": "cores/core.42"}]}`
	cfgs, err := parseLaunchJSON([]byte(doc), dir, func(string) string { return "" })
	if err != nil || len(cfgs) != 1 {
		t.Fatalf("parse: %v, %+v", err, cfgs)
	}
	p, err := planDebug(dir, cfgs[0], false)
	if err != nil {
		t.Fatal(err)
	}
	if p.start != nil || p.create.CoreFile != filepath.Join(dir, "cores", "core.42") || p.create.Program != filepath.Join(dir, "bin", "app") || p.create.Language != "go" {
		t.Errorf("plan = %+v, start %+v", p.create, p.start)
	}
}

// TestLaunchCompoundStopAll reads a compound's stopAll.
func TestLaunchCompoundStopAll(t *testing.T) {
	t.Parallel()
	doc := `{"configurations": [], "compounds": [{"name": "both", "configurations": ["a", {"name": "b"}], "stopAll": true}]}`
	cfgs, err := parseLaunchJSON([]byte(doc), t.TempDir(), func(string) string { return "" })
	if err != nil || len(cfgs) != 1 || !cfgs[0].StopAll || len(cfgs[0].Members) != 2 {
		t.Fatalf("compound = %+v (%v)", cfgs, err)
	}
}
