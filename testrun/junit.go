package testrun

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/dbg-dev/dbg/sessions"
)

// junitSourceDirs are a Maven or Gradle project's source folders, where
// the Java adapter finds the user's sources.
var junitSourceDirs = []string{"src/test/java", "src/main/java"}

// junitLibraries are the classes of JUnit, its launchers and the build
// tools' test runners (Surefire's booter, Gradle's test worker), which the
// Java adapter does not take for the user's code: the exceptions they
// throw and catch inside themselves do not stop the run.
var junitLibraries = []string{"org.junit.*", "org.opentest4j.*", "org.apiguardian.*",
	"org.apache.maven.surefire.*", "org.gradle.*", "worker.org.gradle.*"}

// junitRun is what discovery found out about a test that its run needs.
type junitRun struct {
	selector string // the launcher's --select-method argument: Class#method(params)
	build    *junitBuild
}

// junitBuild is what the project's build tool said about its tests.
type junitBuild struct {
	tool        string   // "maven" or "gradle"
	command     string   // the build tool's command: mvnw, mvn, gradlew or gradle
	classpath   string   // the test classpath: class folders, then dependencies
	testClasses []string // the folders of the compiled test classes
	// launcher is the JUnit Platform Console Launcher's jar, which
	// discovers the tests; "" when the project has it on its classpath.
	launcher string
	// declared: the project declares the console launcher, which then
	// runs the test (else the build tool's own test run does).
	declared bool
	// initScript is dbg's Gradle init script.
	initScript string
	// surefire is the version of the project's Surefire (Maven).
	surefire string
}

// junitFramework runs JUnit 5 (the JUnit Platform) tests of a Maven or
// Gradle project. The build tool compiles the tests and names their
// classpath; the JUnit Platform Console Launcher discovers them (the
// project's own, or the one of its JUnit Platform version, fetched
// through the build tool). One test runs the way the project runs its
// tests: with the console launcher as main class when the project
// declares it (or its Surefire predates the JUnit Platform), else through Maven Surefire's or Gradle's own test JVM,
// with the project's configuration (argLine, system properties), under
// the Java adapter. Exception stops are taken when the exception is an
// assertion's (opentest4j's AssertionFailedError, Java's AssertionError)
// or thrown by the user's own code; the run goes on past those JUnit, the
// build tools and the JDK throw and catch inside themselves. The answer
// points at the first frame of the user's code.
func junitFramework() *Framework {
	return &Framework{
		Name:     "junit",
		Language: "java",
		Detect:   func(dir string) bool { return junitTool(dir) != "" },
		List:     listJunit,
		Plan:     planJunit,
		Message:  junitMessage,
		UserFile: junitUserFile,
		Claims:   func(id string) bool { return strings.Contains(id, "#") },
		Accept:   junitAccept,
		// The classpath comes from discovery's build.
		PlanAfterList: true,
	}
}

// junitTool is the build tool of the project at dir: "maven" (pom.xml),
// "gradle" (build.gradle, settings.gradle, or their .kts), or "".
func junitTool(dir string) string {
	if exists(dir, "pom.xml") {
		return "maven"
	}
	for _, f := range []string{"build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts"} {
		if exists(dir, f) {
			return "gradle"
		}
	}
	return ""
}

// listJunit builds the tests with the project's build tool and lists them
// with the console launcher's discovery.
// A project unchanged since its last discovery reuses it (junit_cache.go).
func listJunit(ctx context.Context, p *Project, _ string) ([]TestID, error) {
	tool := junitTool(p.Dir)
	fp, keep := projectFingerprint(p)
	if keep {
		if b, out, ok := loadJunitCache(p, tool, fp); ok {
			return junitIDs(out, p.Dir, b), nil
		}
	}
	var b *junitBuild
	var err error
	switch tool {
	case "maven":
		b, err = mavenBuild(ctx, p)
	case "gradle":
		b, err = gradleBuild(ctx, p)
	default:
		return nil, fmt.Errorf("%s has no pom.xml, build.gradle or settings.gradle", p.Dir)
	}
	if err != nil {
		return nil, err
	}
	out, err := discoverJunit(ctx, p, b)
	if err != nil {
		return nil, err
	}
	if keep {
		saveJunitCache(p, fp, b, out)
	}
	return junitIDs(out, p.Dir, b), nil
}

// junitMethodSource is how the launcher's verbose discovery names a test
// method's source.
var junitMethodSource = regexp.MustCompile(`MethodSource \[className = '([^']+)', methodName = '([^']+)', methodParameterTypes = '([^']*)'\]`)

// junitIDs reads the test methods out of the verbose discovery's output:
// ids are Class#method, with the parameter types where the class has
// several methods of the name.
func junitIDs(out, dir string, b *junitBuild) []TestID {
	type method struct{ class, name, params string }
	var methods []method
	perName := map[string]int{}
	seen := map[method]bool{}
	for _, m := range junitMethodSource.FindAllStringSubmatch(out, -1) {
		k := method{m[1], m[2], m[3]}
		if !seen[k] {
			seen[k] = true
			methods = append(methods, k)
			perName[k.class+"#"+k.name]++
		}
	}
	var ids []TestID
	for _, m := range methods {
		id := m.class + "#" + m.name
		selector := id + "(" + m.params + ")"
		if perName[id] > 1 {
			id = selector
		}
		file := filepath.Join("src", "test", "java", filepath.FromSlash(strings.ReplaceAll(topClass(m.class), ".", "/"))+".java")
		if !exists(dir, file) {
			file = ""
		}
		ids = append(ids, TestID{ID: id, File: file, junit: &junitRun{selector: selector, build: b}})
	}
	return ids
}

// topClass is the top-level class of a nested class's binary name.
func topClass(class string) string {
	c, _, _ := strings.Cut(class, "$")
	return c
}

// planJunit runs the test with the project's console launcher, or through
// its build tool's test run.
func planJunit(ctx context.Context, p *Project, id TestID, stopAt StopAt) (*Plan, error) {
	if id.junit == nil || id.junit.build == nil {
		return nil, fmt.Errorf("discovery did not find how to run %s", id.ID)
	}
	var pl *Plan
	var err error
	switch b := id.junit.build; {
	case b.declared || b.tool == "maven" && !surefireRunsPlatform(b.surefire):
		// A Surefire older than 2.22 finds no JUnit Platform tests.
		pl = planLauncher(p, id)
	case b.tool == "gradle":
		pl, err = planGradle(p, id)
	default:
		pl, err = planSurefire(p, id)
	}
	if err != nil {
		return nil, err
	}
	var src []string
	for _, d := range junitSourceDirs {
		if exists(p.Dir, d) {
			src = append(src, filepath.Join(p.Dir, d))
		}
	}
	pl.Create.Language, pl.Create.Name, pl.Create.SourcePaths = "java", "test "+id.ID, src
	if _, ok := pl.Create.AdapterConfig["classpath"]; !ok {
		pl.Create.AdapterConfig["classpath"] = id.junit.build.classpath
	}
	pl.Create.AdapterConfig["libraryClasses"] = junitLibraries
	pl.Start.Cwd, pl.Start.ExceptionFilters = p.Dir, []string{"caught", "uncaught"}
	if stopAt.Mode == StopStart {
		class, name := junitMethod(id.ID)
		pl.Breakpoints = append(pl.Breakpoints, sessions.BreakpointSpec{Function: class + "." + name})
	}
	return pl, nil
}

// junitMethod splits a test id into its class and its method's name.
func junitMethod(id string) (class, name string) {
	class, name, _ = strings.Cut(id, "#")
	name, _, _ = strings.Cut(name, "(")
	return class, name
}

// junitExpected reads expected and actual from an assertion's message
// ("expected: <6> but was: <5>").
var junitExpected = regexp.MustCompile(`(?s)expected: <(.*)> but was: <(.*)>`)

// junitMessage is the exception's type and message, with the assertion's
// expected and actual values.
func junitMessage(_ context.Context, r *failureReader) Failure {
	f := Failure{Message: strings.TrimSpace(r.stop.Text)}
	if m := junitExpected.FindStringSubmatch(f.Message); m != nil {
		f.Expected, f.Actual = m[1], m[2]
	}
	return f
}

// junitUserFile: the project's sources, not its build output. A class
// whose source is not found is named by its bare file name, which the
// session may have joined to the project's folder: the file must exist.
func junitUserFile(p *Project, file string) bool {
	if !under(file, p.Dir) || under(file, filepath.Join(p.Dir, "target")) || under(file, filepath.Join(p.Dir, "build")) {
		return false
	}
	_, err := os.Stat(file)
	return err == nil
}

// junitAccept: an assertion's failure, or an exception the user's code
// threw, that reaches the test runner: one caught on its way (by the
// code under test, a library, or an assertion that expects it) is not the
// failure, and the run goes on to the one that is.
func junitAccept(r *failureReader) bool {
	if c := caughtIn(r.stop.Description); c != "" && !junitReachesRunner(c) {
		return false
	}
	t := r.stop.Text
	if strings.HasPrefix(t, "org.opentest4j.AssertionFailedError") || strings.HasPrefix(t, "org.opentest4j.MultipleFailuresError") ||
		strings.HasPrefix(t, "java.lang.AssertionError") {
		return true
	}
	return len(r.frames) > 0 && r.frames[0].File != "" && r.fw.UserFile(r.p, r.frames[0].File)
}

// caughtIn is the frame that catches the exception of a Java adapter's
// exception stop ("Exception: T, caught in Class.method(File.java:N)"), or
// "" for an uncaught one.
func caughtIn(description string) string {
	_, c, _ := strings.Cut(description, ", caught in ")
	return c
}

// junitExpecting are JUnit's classes that catch an exception the test
// expects (assertThrows, @Test(expected), ExpectedException): not a
// failure.
var junitExpecting = []string{"org.junit.jupiter.api.AssertThrows", "org.junit.Assert.", "org.junit.internal.runners.statements.ExpectException",
	"org.junit.rules.ExpectedException"}

// javaRuntime are the JDK's packages: reflection catches what a test
// method throws to hand it to JUnit.
var javaRuntime = []string{"java.", "javax.", "jdk.", "sun.", "com.sun."}

// junitReachesRunner reports whether an exception caught at frame (a
// Java stack frame, "Class.method(File.java:N)") reaches the test runner,
// and so fails the test: caught by JUnit's, a build tool's or the JDK's
// frames, not by an assertion that expects it. One the code under test
// or a library it uses catches is handled there, and is not the failure.
func junitReachesRunner(frame string) bool {
	name, _, _ := strings.Cut(frame, "(")
	for _, e := range junitExpecting {
		if strings.HasPrefix(name, e) {
			return false
		}
	}
	for _, p := range append(javaRuntime, junitLibraries...) {
		if strings.HasPrefix(name, strings.TrimSuffix(p, "*")) {
			return true
		}
	}
	return false
}
