package ide

import (
	"os"
	"path/filepath"
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
