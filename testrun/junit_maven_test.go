package testrun

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/adapters/javadap"
)

// The Surefire run: the project's default-test execution, the method
// without its parameter types, Surefire's debug option holding the
// adapter's agent; the answer's command is the same run without it.
func TestPlanSurefireRunsTheProjectsSurefireUnderTheAgent(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	b := &junitBuild{tool: "maven", command: "/usr/bin/mvn", classpath: "CP", surefire: "3.5.4"}
	id := TestID{ID: "com.shop.CartTest#total(int)", junit: &junitRun{selector: "com.shop.CartTest#total(int)", build: b}}
	pl, err := planJunit(t.Context(), &Project{Dir: dir, Agent: adapters.Java{}.Traits().CommandAgent}, id, StopAt{Mode: StopStart})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"/usr/bin/mvn", "-B", "surefire:test@default-test", "-Dtest=com.shop.CartTest#total",
		"-Dsurefire.failIfNoSpecifiedTests=false", "-DfailIfNoTests=false", "-DskipTests=false"}
	if !slices.Equal(pl.Command, want) {
		t.Errorf("command = %q, want %q", pl.Command, want)
	}
	argv, _ := pl.Create.AdapterConfig["command"].([]string)
	if !slices.Equal(argv, append(want, "-Dmaven.surefire.debug="+javadap.JDWPAgentVar)) {
		t.Errorf("launch command = %q", argv)
	}
	if pl.Start.ScriptPath != "/usr/bin/mvn" || pl.Start.Cwd != dir || pl.Create.AdapterConfig["classpath"] != "CP" {
		t.Errorf("plan = %+v", pl)
	}
	if !slices.Contains(pl.Create.AdapterConfig["libraryClasses"].([]string), "org.apache.maven.surefire.*") {
		t.Errorf("Surefire's booter is not a library: %v", pl.Create.AdapterConfig["libraryClasses"])
	}
	if len(pl.Breakpoints) != 1 || pl.Breakpoints[0].Function != "com.shop.CartTest.total" {
		t.Errorf("stopAt start breakpoints = %+v", pl.Breakpoints)
	}
	if env := pl.Start.Env["MAVEN_OPTS"]; env == "" {
		t.Errorf("no MAVEN_OPTS in %v", pl.Start.Env)
	}
}

// A project that declares the console launcher runs the test with it.
func TestPlanJunitRunsADeclaredLauncher(t *testing.T) {
	t.Parallel()
	b := &junitBuild{tool: "maven", command: "mvn", classpath: "CP", declared: true}
	id := TestID{ID: "com.shop.CartTest#pairs", junit: &junitRun{selector: "com.shop.CartTest#pairs(int, int, int)", build: b}}
	pl, err := planJunit(t.Context(), &Project{Dir: t.TempDir()}, id, StopAt{Mode: StopFailure})
	if err != nil {
		t.Fatal(err)
	}
	if pl.Start.ScriptPath != junitLauncher || pl.Create.AdapterConfig["command"] != nil ||
		!slices.Contains(pl.Start.Args, "com.shop.CartTest#pairs(int, int, int)") || len(pl.Breakpoints) != 0 {
		t.Fatalf("plan = %+v", pl)
	}
}

func TestMavenEnvAddsToMavenOpts(t *testing.T) {
	t.Setenv("MAVEN_OPTS", "-Xmx1g")
	if got := mavenEnv(&Project{})["MAVEN_OPTS"]; got != "-Xmx1g "+mavenFastJVM {
		t.Errorf("MAVEN_OPTS = %q", got)
	}
	env := mavenEnv(&Project{Env: map[string]string{"MAVEN_OPTS": "-Dx=1", "A": "b"}})
	if env["MAVEN_OPTS"] != "-Dx=1 "+mavenFastJVM || env["A"] != "b" {
		t.Errorf("env = %v", env)
	}
	// A tuned JVM is left alone: a second collector would stop it.
	env = mavenEnv(&Project{Env: map[string]string{"MAVEN_OPTS": "-XX:+UseG1GC"}})
	if env["MAVEN_OPTS"] != "-XX:+UseG1GC" {
		t.Errorf("tuned MAVEN_OPTS = %q", env["MAVEN_OPTS"])
	}
}

// The launcher of the project's JUnit Platform version is found in the
// repository its engine jar comes from.
func TestMavenLauncherIsTheOneOfThePlatformsVersion(t *testing.T) {
	t.Parallel()
	repo := t.TempDir()
	engine := filepath.Join(repo, "org", "junit", "platform", "junit-platform-engine", "1.14.1", "junit-platform-engine-1.14.1.jar")
	launcher := filepath.Join(repo, "org", "junit", "platform", "junit-platform-console-standalone", "1.14.1", "junit-platform-console-standalone-1.14.1.jar")
	for _, f := range []string{engine, launcher} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cp := "/p/target/test-classes" + string(os.PathListSeparator) + engine
	if v, jar, ok := junitPlatformVersion(cp); !ok || v != "1.14.1" || jar != engine {
		t.Fatalf("junitPlatformVersion = %q %q %v", v, jar, ok)
	}
	got, err := mavenLauncher(t.Context(), &Project{Dir: t.TempDir()}, "mvn-not-run", cp)
	if err != nil || got != launcher {
		t.Fatalf("mavenLauncher = %q, %v; want %s", got, err, launcher)
	}
	if _, err := mavenLauncher(t.Context(), &Project{Dir: t.TempDir()}, "mvn-not-run", "/p/target/classes"); err == nil {
		t.Fatal("a classpath without the JUnit Platform has a launcher")
	}
	home, _ := os.UserHomeDir()
	if got := mavenRepoOf("/opt/lib/junit-platform-engine-1.14.1.jar", "org/junit/platform/junit-platform-engine/1.14.1"); got != filepath.Join(home, ".m2", "repository") {
		t.Errorf("mavenRepoOf a jar outside a repository = %s", got)
	}
}

func TestJunitToolDetectsMavenAndGradle(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ file, tool string }{
		{"pom.xml", "maven"}, {"build.gradle", "gradle"}, {"build.gradle.kts", "gradle"}, {"settings.gradle", "gradle"},
		{"settings.gradle.kts", "gradle"}, {"Makefile", ""},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, c.file), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if got := junitTool(dir); got != c.tool {
			t.Errorf("junitTool with %s = %q, want %q", c.file, got, c.tool)
		}
	}
}

// A Surefire older than 2.22 runs no JUnit Platform tests: the fetched
// console launcher runs the test.
func TestPlanJunitRunsTheLauncherUnderAnOldSurefire(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		version string
		runs    bool
	}{{"3.5.4", true}, {"2.22.0", true}, {"3.0.0-M5", true}, {"2.21.0", false}, {"2.12.4", false}, {"", false}} {
		if got := surefireRunsPlatform(c.version); got != c.runs {
			t.Errorf("surefireRunsPlatform(%q) = %v", c.version, got)
		}
	}
	b := &junitBuild{tool: "maven", command: "mvn", classpath: "CP", launcher: "/r/launcher.jar", surefire: "2.12.4"}
	id := TestID{ID: "com.shop.CartTest#pairs", junit: &junitRun{selector: "com.shop.CartTest#pairs(int, int, int)", build: b}}
	pl, err := planJunit(t.Context(), &Project{Dir: t.TempDir()}, id, StopAt{Mode: StopFailure})
	if err != nil {
		t.Fatal(err)
	}
	cp := "CP" + string(os.PathListSeparator) + "/r/launcher.jar"
	if pl.Start.ScriptPath != junitLauncher || pl.Create.AdapterConfig["classpath"] != cp || !slices.Equal(pl.Command[:3], []string{"java", "-cp", cp}) {
		t.Fatalf("plan = %+v", pl)
	}
	if m := surefireVersionLine.FindStringSubmatch("[INFO] --- maven-surefire-plugin:2.12.4:help (default-cli) @ cart ---"); m == nil || m[1] != "2.12.4" {
		t.Errorf("surefireVersionLine = %q", m)
	}
}
