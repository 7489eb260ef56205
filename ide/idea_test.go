package ide

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestWorkspaceSkipsTemporaryAndTemplates(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join(fixture(t, "intellij-app"), ".idea", "workspace.xml"))
	if err != nil {
		t.Fatal(err)
	}
	cfgs, err := parseIdeaConfigs(b, sourceWorkspace, newMacros("/p"), true)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cfgs {
		switch c.Name {
		case "Scratch", "TemplateOnly", "":
			t.Errorf("%q must not be listed", c.Name)
		}
	}
	if len(cfgs) != 4 {
		t.Errorf("got %d configurations: %v", len(cfgs), Names(cfgs))
	}
	// A shared-configuration file read as a workspace has no RunManager.
	if cfgs, _ := parseIdeaConfigs([]byte(`<component name="ProjectRunConfigurationManager"><configuration name="x" type="Application"/></component>`), "s", newMacros("/p"), true); len(cfgs) != 0 {
		t.Errorf("workspace read shared component: %v", cfgs)
	}
}

func TestUnknownIdeaTypeIsListedButNotRunnable(t *testing.T) {
	t.Parallel()
	cfgs, err := parseIdeaConfigs([]byte(`<component name="ProjectRunConfigurationManager"><configuration name="x" type="CargoCommandRunConfiguration" factoryName="Cargo Command"/></component>`), "s", newMacros("/p"), false)
	if err != nil || len(cfgs) != 1 {
		t.Fatalf("%v %v", cfgs, err)
	}
	if cfgs[0].Runnable() || cfgs[0].Unsupported == "" || cfgs[0].TypeName != "Cargo Command" {
		t.Errorf("%+v", cfgs[0])
	}
}

func FuzzParseIdeaConfigs(f *testing.F) {
	f.Add([]byte(`<component name="ProjectRunConfigurationManager"><configuration name="a" type="Application"><option name="MAIN_CLASS_NAME" value="M"/><envs><env name="A" value="$PROJECT_DIR$"/></envs></configuration></component>`))
	f.Add([]byte(`<project><component name="RunManager"><configuration name="g" type="GoTestRunConfiguration"><kind value="FILE"/><filePath value="x.go"/></configuration></component></project>`))
	f.Add([]byte(`<component name="ProjectRunConfigurationManager"><configuration name="m" type="MavenRunConfiguration"><option name="goals"><list><option value="x"/></list></option></configuration></component>`))
	mx := newMacros("/p")
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = parseIdeaConfigs(b, "s", mx, false)
		_, _ = parseIdeaConfigs(b, "s", mx, true)
	})
}

func TestMoreIdeaTypes(t *testing.T) {
	t.Parallel()
	doc := `<project version="4"><component name="RunManager">
  <configuration name="dev" type="js.build_tools.npm" nameIsGenerated="true">
    <package-json value="$PROJECT_DIR$/web/package.json" />
    <command value="run" />
    <scripts><script value="dev" /></scripts>
    <arguments value="--port 4000" />
    <node-interpreter value="project" />
  </configuration>
  <configuration name="build.sh" type="ShConfigurationType">
    <option name="SCRIPT_PATH" value="$PROJECT_DIR$/build.sh" />
    <option name="SCRIPT_OPTIONS" value="--fast" />
    <option name="SCRIPT_WORKING_DIRECTORY" value="$PROJECT_DIR$" />
    <option name="INTERPRETER_PATH" value="/bin/bash" />
    <option name="EXECUTE_SCRIPT_FILE" value="true" />
  </configuration>
  <configuration name="inline" type="ShConfigurationType">
    <option name="SCRIPT_TEXT" value="echo hello from sh" />
    <option name="INTERPRETER_PATH" value="/bin/sh" />
    <option name="EXECUTE_SCRIPT_FILE" value="false" />
  </configuration>
  <configuration name="MainKt" type="JetRunConfigurationType">
    <option name="MAIN_CLASS_NAME" value="com.example.MainKt" />
    <module name="app" />
  </configuration>
  <configuration name="attach 5005" type="Remote">
    <option name="USE_SOCKET_TRANSPORT" value="true" />
    <option name="SERVER_MODE" value="false" />
    <option name="HOST" value="localhost" />
    <option name="PORT" value="5005" />
  </configuration>
</component></project>`
	cfgs, err := parseIdeaConfigs([]byte(doc), sourceWorkspace, newMacros("/p"), true)
	if err != nil || len(cfgs) != 5 {
		t.Fatalf("%v %v", Names(cfgs), err)
	}
	want := map[string][]string{
		"dev":      {"npm", "run", "dev", "--", "--port", "4000"},
		"build.sh": {"/bin/bash", "/p/build.sh", "--fast"},
		"inline":   {"/bin/sh", "-c", "echo hello from sh"},
		"MainKt":   {"java", "-cp", "/p/out/production/app", "com.example.MainKt"},
	}
	for _, c := range cfgs {
		if w, ok := want[c.Name]; ok && !reflect.DeepEqual(c.Command, w) {
			t.Errorf("%s: %q, want %q", c.Name, c.Command, w)
		}
	}
	if cfgs[0].Cwd != "/p/web" || cfgs[3].TypeName != "Kotlin" || cfgs[3].Kind != KindApplication {
		t.Errorf("npm cwd %q, kotlin %+v", cfgs[0].Cwd, cfgs[3])
	}
	remote := cfgs[4]
	if remote.Runnable() || remote.Kind != KindRemoteJVM {
		t.Errorf("remote = %+v", remote)
	}
	p, err := planDebug("/p", remote, false)
	if err != nil || p.start != nil || p.create.Language != "java" || p.create.Host != "localhost" || p.create.Port != 5005 {
		t.Errorf("remote plan = %+v %v", p, err)
	}

	// The inline shell configuration runs for real.
	r := newTestRunner(t, nil)
	inline := cfgs[2]
	inline.Cwd = t.TempDir()
	res, err := r.Restart(context.Background(), inline)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := r.Output(res.PID)
	waitFor(t, "shell output", func() bool { return strings.Contains(out.Text("stdout"), "hello from sh") })
}
