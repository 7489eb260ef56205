package testrun

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/adapters/javadap"
)

// The Gradle run: no daemon, the init script, the Test task's --tests
// filter, and the agent passed as the project property the init script
// reads; the answer's command is the same run without it.
func TestPlanGradleRunsTheTestTaskUnderTheAgent(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	b := &junitBuild{tool: "gradle", command: filepath.Join(dir, "gradlew"), classpath: "CP", initScript: "/c/dbg-init.gradle"}
	id := TestID{ID: "com.shop.CartTest#pairs", junit: &junitRun{selector: "com.shop.CartTest#pairs(int, int, int)", build: b}}
	pl, err := planJunit(t.Context(), &Project{Dir: dir, Agent: adapters.Java{}.Traits().CommandAgent}, id, StopAt{Mode: StopFailure})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{b.command, "--no-daemon", "--console=plain", "-I", "/c/dbg-init.gradle", "test", "--tests", "com.shop.CartTest.pairs"}
	if !slices.Equal(pl.Command, want) {
		t.Errorf("command = %q, want %q", pl.Command, want)
	}
	argv, _ := pl.Create.AdapterConfig["command"].([]string)
	if !slices.Equal(argv, append(want, "-Pdbg.jdwp="+javadap.JDWPAgentVar)) {
		t.Errorf("launch command = %q", argv)
	}
	if pl.Start.ScriptPath != b.command || pl.Start.Cwd != dir {
		t.Errorf("plan = %+v", pl)
	}
}

// The init script reads the property the plan passes, and prints the
// lines parseGradleBuild reads.
func TestGradleInitScriptMatchesItsReaders(t *testing.T) {
	t.Parallel()
	for _, want := range []string{"projectProperties['" + gradleJDWPProperty + "']", "'" + gradleClasspathLine + "'",
		"'" + gradleTestClassesLine + "'", "'" + gradleLauncherLine + "'", "tasks.register('dbgTestClasspath')",
		"outputs.upToDateWhen { false }", "junit-platform-console-standalone:${version}"} {
		if !strings.Contains(gradleInitScript, want) {
			t.Errorf("the init script lacks %s", want)
		}
	}
	if !slices.Contains(gradleListArgs("/i"), "dbgTestClasspath") || !slices.Contains(gradleListArgs("/i"), "--no-daemon") {
		t.Errorf("list args %q", gradleListArgs("/i"))
	}
}

func TestParseGradleBuild(t *testing.T) {
	t.Parallel()
	sep := string(os.PathListSeparator)
	out := "> Task :compileJava\n" + gradleClasspathLine + "/p/build/classes/java/test" + sep + "/c/junit-platform-engine-1.14.1.jar\r\n" +
		gradleTestClassesLine + "/p/build/classes/java/test\n" + gradleLauncherLine + "/c/junit-platform-console-standalone-1.14.1.jar\n"
	b, err := parseGradleBuild(out)
	if err != nil {
		t.Fatal(err)
	}
	if b.tool != "gradle" || b.classpath != "/p/build/classes/java/test"+sep+"/c/junit-platform-engine-1.14.1.jar" || b.declared ||
		!slices.Equal(b.testClasses, []string{"/p/build/classes/java/test"}) || b.launcher != "/c/junit-platform-console-standalone-1.14.1.jar" {
		t.Errorf("build = %+v", b)
	}
	b, err = parseGradleBuild(gradleClasspathLine + "/p/t" + sep + "/c/junit-platform-console-standalone-1.14.1.jar\n" + gradleLauncherLine + "/c/x.jar\n")
	if err != nil || !b.declared || b.launcher != "" {
		t.Errorf("a declared launcher: %+v, %v", b, err)
	}
	if _, err := parseGradleBuild(gradleClasspathLine + "/p/t\n" + gradleLauncherLine + "\n"); err == nil || !strings.Contains(err.Error(), "JUnit Platform") {
		t.Errorf("no JUnit Platform: %v", err)
	}
	if _, err := parseGradleBuild("BUILD SUCCESSFUL\n"); err == nil || !strings.Contains(err.Error(), "java plugin") {
		t.Errorf("no classpath: %v", err)
	}
}

func TestGradleErrorsKeepTheCompilersLines(t *testing.T) {
	t.Parallel()
	out := "> Task :compileTestJava FAILED\n/p/src/test/java/com/shop/CartTest.java:44: error: cannot find symbol\n" +
		"class Broken { int x = nope(); }\n\nFAILURE: Build failed with an exception.\n\n* What went wrong:\n" +
		"Execution failed for task ':compileTestJava'.\n> Compilation failed; see the compiler error output for details.\n\n* Try:\n> Run with --stacktrace\n"
	want := "/p/src/test/java/com/shop/CartTest.java:44: error: cannot find symbol\n* What went wrong:\n" +
		"Execution failed for task ':compileTestJava'.\n> Compilation failed; see the compiler error output for details."
	if got := gradleErrors(out); got != want {
		t.Errorf("gradleErrors = %q", got)
	}
}

// The init script is written once, under a name of its content.
func TestWriteInitScriptOnce(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "cache")
	p, err := writeInitScript(dir)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(p)
	q, err := writeInitScript(dir)
	if err != nil || q != p {
		t.Fatalf("second write: %s, %v", q, err)
	}
	st2, _ := os.Stat(q)
	b, _ := os.ReadFile(p)
	if string(b) != gradleInitScript || !st.ModTime().Equal(st2.ModTime()) {
		t.Errorf("init script rewritten or wrong")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("cache holds %d files", len(entries))
	}
}

// The wrapper wins over the tools on PATH.
func TestBuildToolWrappers(t *testing.T) {
	dir := t.TempDir()
	for _, w := range []string{"mvnw", "gradlew"} {
		if err := os.WriteFile(filepath.Join(dir, w), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if m, err := mavenCommand(dir); err != nil || m != filepath.Join(dir, "mvnw") {
		t.Errorf("mavenCommand = %s, %v", m, err)
	}
	if g, err := gradleCommand(dir); err != nil || g != filepath.Join(dir, "gradlew") {
		t.Errorf("gradleCommand = %s, %v", g, err)
	}
	t.Setenv("PATH", t.TempDir())
	if _, err := gradleCommand(t.TempDir()); err == nil || !strings.Contains(err.Error(), "gradlew") {
		t.Errorf("no Gradle: %v", err)
	}
}

// groovyVersion is the Groovy that runs the init script's test
// (scripts/deps/tests.sh fetches it into the local Maven repository).
const groovyVersion = "4.0.33"

// The init script, run by Groovy against stand-ins for the Gradle objects
// it uses (testdata/gradle_init_harness.groovy): dbgTestClasspath prints
// what parseGradleBuild reads, with the launcher of the engine's version;
// with dbg.jdwp the Test task takes the agent, one JVM, never up to date,
// and shows the test's output; without it the Test task is left alone.
func TestGradleInitScriptRuns(t *testing.T) {
	t.Parallel()
	home, _ := os.UserHomeDir()
	jar := filepath.Join(home, ".m2", "repository", "org", "apache", "groovy", "groovy", groovyVersion, "groovy-"+groovyVersion+".jar")
	if _, err := os.Stat(jar); err != nil {
		t.Skipf("Groovy %s is not in the local Maven repository (scripts/deps/tests.sh fetches it)", groovyVersion)
	}
	if _, err := exec.LookPath("java"); err != nil {
		t.Skip("java is not installed")
	}
	init, err := writeInitScript(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	harness, _ := filepath.Abs(filepath.Join("testdata", "gradle_init_harness.groovy"))
	groovy := func(jdwp string) string {
		t.Helper()
		out, err := exec.CommandContext(t.Context(), "java", "-cp", jar, "groovy.ui.GroovyMain", harness, init, jdwp).CombinedOutput()
		if err != nil {
			t.Fatalf("groovy: %v\n%s", err, out)
		}
		return string(out)
	}
	out := groovy("-agentlib:jdwp=transport=dt_socket,server=n,suspend=y,address=127.0.0.1:5005")
	b, err := parseGradleBuild(out)
	if err != nil {
		t.Fatalf("parseGradleBuild: %v\n%s", err, out)
	}
	if b.launcher != "/r/junit-platform-console-standalone-1.14.1.jar" || b.classpath != "/p/build/classes/java/test:/r/junit-platform-engine-1.14.1.jar" ||
		!slices.Equal(b.testClasses, []string{"/p/build/classes/java/test"}) {
		t.Errorf("build = %+v", b)
	}
	for _, want := range []string{"harness-dependsOn=testClasses\n", "harness-coordinates=org.junit.platform:junit-platform-console-standalone:1.14.1\n",
		"harness-jvmArgs=-agentlib:jdwp=transport=dt_socket,server=n,suspend=y,address=127.0.0.1:5005\n", "harness-upToDate=false\n",
		"harness-forks=1,0\n", "harness-streams=true\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("with dbg.jdwp: no %q in\n%s", want, out)
		}
	}
	out = groovy("")
	if !strings.Contains(out, "harness-jvmArgs=\n") || !strings.Contains(out, "harness-upToDate=null\n") {
		t.Errorf("without dbg.jdwp the Test task is changed:\n%s", out)
	}
}
