package ide

import (
	"errors"
	"path/filepath"
	"reflect"
	"testing"
)

func fixture(t testing.TB, name string) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "testdata", "projects", name))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func byName(t *testing.T, cfgs []RunConfiguration, name string) RunConfiguration {
	t.Helper()
	c, err := FindRunConfiguration(cfgs, name, "")
	if err != nil {
		t.Fatalf("configuration %q: %v (have %v)", name, err, Names(cfgs))
	}
	return c
}

func TestLoadIntelliJProject(t *testing.T) {
	t.Parallel()
	dir := fixture(t, "intellij-app")
	res := LoadRunConfigurations(dir, func(string) string { return "" })
	if len(res.Warnings) > 0 {
		t.Fatalf("warnings: %v", res.Warnings)
	}
	want := []string{"Main", "OrderApplication", "Build", "Package", "OrderServiceTest.placesOrder", "go-server", "server tests", "worker"}
	if got := Names(res.Configurations); !reflect.DeepEqual(got, want) {
		t.Fatalf("names = %v, want %v (no temporary Scratch, no templates)", got, want)
	}
	app := filepath.Join(dir, "app")
	cases := []struct {
		name, typeID, typeName, source, cwd string
		command                             []string
	}{
		{"Main", "Application", "Application", ".idea/runConfigurations/Main.xml", dir,
			[]string{"java", "-ea", "-cp", filepath.Join(app, "target", "classes"), "com.example.Main", "one", "two words", "three"}},
		{"OrderApplication", "SpringBootApplicationConfigurationType", "Spring Boot", ".idea/runConfigurations/OrderApplication.xml", app,
			[]string{"java", "-Xmx512m", "-Dapp.home=" + dir + "/data dir", "-Dspring.profiles.active=dev", "-cp", filepath.Join(app, "target", "classes"), "com.example.OrderApplication", "--server.port=8081"}},
		{"Build", "GradleRunConfiguration", "Gradle", ".run/Build.run.xml", dir,
			[]string{"gradle", "clean", "build", "--info", "-x", "test"}},
		{"Package", "MavenRunConfiguration", "Maven", ".run/Package.run.xml", app,
			[]string{"mvn", "clean", "package", "-Pprod", "-DskipTests"}},
		{"OrderServiceTest.placesOrder", "JUnit", "JUnit", ".idea/workspace.xml", app,
			[]string{"mvn", "test", "-Dtest=com.example.OrderServiceTest#placesOrder", "-Dsurefire.failIfNoSpecifiedTests=false", "-DargLine=-ea"}},
		{"go-server", "GoApplicationRunConfiguration", "Go Application", ".idea/workspace.xml", filepath.Join(dir, "server"),
			[]string{"go", "run", "-race", "example.com/app/server", "-addr", ":9090"}},
		{"server tests", "GoTestRunConfiguration", "Go Test", ".idea/workspace.xml", filepath.Join(dir, "server"),
			[]string{"go", "test", filepath.Join(dir, "server"), "-run", "^TestServe$"}},
		{"worker", "PythonConfigurationType", "Python", ".idea/workspace.xml", filepath.Join(dir, "scripts"),
			[]string{"python3", "-u", filepath.Join(dir, "scripts", "worker.py"), "--interval", "0.2"}},
	}
	for _, tc := range cases {
		c := byName(t, res.Configurations, tc.name)
		if c.TypeID != tc.typeID || c.TypeName != tc.typeName || c.Source != tc.source {
			t.Errorf("%s: type %q/%q source %q, want %q/%q %q", tc.name, c.TypeID, c.TypeName, c.Source, tc.typeID, tc.typeName, tc.source)
		}
		if c.Cwd != tc.cwd {
			t.Errorf("%s: cwd %q, want %q", tc.name, c.Cwd, tc.cwd)
		}
		if !reflect.DeepEqual(c.Command, tc.command) {
			t.Errorf("%s: command\n got %q\nwant %q", tc.name, c.Command, tc.command)
		}
	}
	if env := byName(t, res.Configurations, "worker").Env; env["WORKER_NAME"] != "fixture" {
		t.Errorf("worker env = %v", env)
	}
}

func TestLoadVSCodeProject(t *testing.T) {
	t.Parallel()
	dir := fixture(t, "vscode-app")
	res := LoadRunConfigurations(dir, func(k string) string {
		if k == "DBG_FIXTURE_TOKEN" {
			return "tok-123"
		}
		return ""
	})
	if len(res.Warnings) > 0 {
		t.Fatalf("warnings: %v", res.Warnings)
	}
	want := []string{"Launch Server", "Python: worker", "Python: module", "Go: api", "Go: tests", "Attach to 9229", "Server + Worker"}
	if got := Names(res.Configurations); !reflect.DeepEqual(got, want) {
		t.Fatalf("names = %v, want %v", got, want)
	}
	srv := byName(t, res.Configurations, "Launch Server")
	if w := []string{"node", "--enable-source-maps", filepath.Join(dir, "src", "server.js"), "--port", "3000"}; !reflect.DeepEqual(srv.Command, w) {
		t.Errorf("node command %q, want %q", srv.Command, w)
	}
	if srv.Env["API_TOKEN"] != "tok-123" || srv.Env["URL"] != "http://localhost:3000/path//x" {
		t.Errorf("node env = %v", srv.Env)
	}
	if srv.Cwd != dir || srv.TypeID != "node" || srv.Source != ".vscode/launch.json" {
		t.Errorf("node cwd %q type %q source %q", srv.Cwd, srv.TypeID, srv.Source)
	}
	if c := byName(t, res.Configurations, "Python: module"); !reflect.DeepEqual(c.Command, []string{"python3", "-m", "http.server", "8000"}) {
		t.Errorf("python module command %q", c.Command)
	}
	if c := byName(t, res.Configurations, "Go: api"); !reflect.DeepEqual(c.Command, []string{"go", "run", "-tags=dev", filepath.Join(dir, "cmd", "api"), "-v"}) {
		t.Errorf("go command %q", c.Command)
	}
	if c := byName(t, res.Configurations, "Go: tests"); c.Kind != KindGoTest || c.Command[1] != "test" {
		t.Errorf("go test = %+v", c)
	}
	if c := byName(t, res.Configurations, "Attach to 9229"); c.Runnable() || c.Unsupported == "" {
		t.Errorf("attach entry runnable: %+v", c)
	}
	comp := byName(t, res.Configurations, "Server + Worker")
	if comp.Kind != KindCompound || !reflect.DeepEqual(comp.Members, []string{"Launch Server", "Python: worker"}) {
		t.Errorf("compound = %+v", comp)
	}
}

func TestFindRunConfiguration(t *testing.T) {
	t.Parallel()
	cfgs := []RunConfiguration{{Name: "a", Source: "x"}, {Name: "b", Source: "x"}, {Name: "b", Source: "y"}}
	if _, err := FindRunConfiguration(cfgs, "c", ""); !errors.Is(err, errNotFound) {
		t.Errorf("unknown: %v", err)
	}
	var amb *AmbiguousError
	if _, err := FindRunConfiguration(cfgs, "b", ""); !errors.As(err, &amb) || len(amb.Sources) != 2 {
		t.Errorf("ambiguous: %v", err)
	}
	if c, err := FindRunConfiguration(cfgs, "b", "y"); err != nil || c.Source != "y" {
		t.Errorf("by source: %v %v", c, err)
	}
	if _, err := FindRunConfiguration(cfgs, "A", ""); err == nil {
		t.Error("names are exact")
	}
}

func TestBrokenFilesWarnButDoNotHideOthers(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, ".run", "bad.run.xml"), "<component name=\"ProjectRunConfigurationManager\"><configuration")
	writeFile(t, filepath.Join(dir, ".run", "good.run.xml"), `<component name="ProjectRunConfigurationManager"><configuration name="ok" type="PythonConfigurationType" factoryName="Python"><option name="SCRIPT_NAME" value="$PROJECT_DIR$/a.py"/></configuration></component>`)
	writeFile(t, filepath.Join(dir, ".vscode", "launch.json"), `{"configurations": [ {"name": 1} `)
	res := LoadRunConfigurations(dir, nil)
	if len(res.Warnings) != 2 {
		t.Errorf("warnings = %v", res.Warnings)
	}
	c := byName(t, res.Configurations, "ok")
	if !reflect.DeepEqual(c.Command, []string{"python3", filepath.Join(dir, "a.py")}) || c.Cwd != dir {
		t.Errorf("ok = %+v", c)
	}
}
