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

// junitLauncher is the JUnit Platform Console Launcher's main class; the
// project has it on its test classpath (the
// org.junit.platform:junit-platform-console-standalone test dependency).
const junitLauncher = "org.junit.platform.console.ConsoleLauncher"

// junitSourceDirs are a Maven project's source folders, where the Java
// adapter finds the user's sources.
var junitSourceDirs = []string{"src/test/java", "src/main/java"}

// junitLibraries are the classes of the launcher and JUnit, which the Java
// adapter does not take for the user's code: the exceptions they throw
// and catch inside themselves do not stop the run.
var junitLibraries = []string{"org.junit.*", "org.opentest4j.*", "org.apiguardian.*"}

// junitRun is what discovery found out about a test that its run needs.
type junitRun struct {
	classpath string
	selector  string // the --select-method argument: Class#method(params)
}

// junitFramework builds a Maven project's tests with mvn (test-compile,
// and the test classpath from dependency:build-classpath), and runs one
// test with the JUnit Platform Console Launcher under the Java adapter.
// Exception stops are taken when the exception is an assertion's
// (opentest4j's AssertionFailedError, Java's AssertionError) or thrown by
// the user's own code; the run goes on past those JUnit and the JDK throw
// and catch inside themselves. The answer points at the first frame of
// the user's code.
func junitFramework() *Framework {
	return &Framework{
		Name:     "junit",
		Language: "java",
		Detect:   func(dir string) bool { return exists(dir, "pom.xml") },
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

// mavenClasspath compiles the project's main and test classes and
// returns the test classpath: the class folders, then the dependencies.
// A build that fails answers Maven's message.
func mavenClasspath(ctx context.Context, p *Project) (string, error) {
	f, err := os.CreateTemp("", "dbg-junit-cp-*.txt")
	if err != nil {
		return "", err
	}
	out := f.Name()
	f.Close()
	defer os.Remove(out)
	res, err := run(ctx, p.Dir, p.Env, []string{"mvn", "-q", "-B", "test-compile", "dependency:build-classpath",
		"-Dmdep.outputFile=" + out, "-Dmdep.includeScope=test"})
	if err != nil {
		return "", fmt.Errorf("mvn test-compile: %w", err)
	}
	if res.ExitCode != 0 {
		return "", &BuildError{Tool: "mvn", Output: mavenErrors(res.Output)}
	}
	deps, err := os.ReadFile(out)
	if err != nil {
		return "", fmt.Errorf("mvn dependency:build-classpath wrote no classpath: %w", err)
	}
	cp := []string{filepath.Join(p.Dir, "target", "test-classes"), filepath.Join(p.Dir, "target", "classes")}
	if d := strings.TrimSpace(string(deps)); d != "" {
		cp = append(cp, d)
	}
	return strings.Join(cp, string(os.PathListSeparator)), nil
}

// mavenErrors keeps Maven's [ERROR] lines (the compiler's messages)
// without its help text, else the whole output.
func mavenErrors(out string) string {
	var keep []string
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(strings.ReplaceAll(l, "\x1b[0m", ""))
		if strings.HasPrefix(l, "[ERROR] ") && !strings.Contains(l, "-> [Help") && !strings.Contains(l, "Re-run Maven") &&
			!strings.Contains(l, "full stack trace") && !strings.Contains(l, "cwiki.apache.org") && !strings.Contains(l, "possible solutions") {
			keep = append(keep, l)
		}
	}
	if len(keep) == 0 {
		return out
	}
	return strings.Join(keep, "\n")
}

// junitMethodSource is how the launcher's verbose discovery names a test
// method's source.
var junitMethodSource = regexp.MustCompile(`MethodSource \[className = '([^']+)', methodName = '([^']+)', methodParameterTypes = '([^']*)'\]`)

// listJunit runs the launcher's own discovery (`discover
// --scan-classpath` over the test classes): ids are Class#method, with
// the parameter types where the class has several methods of the name.
func listJunit(ctx context.Context, p *Project, _ string) ([]TestID, error) {
	cp, err := mavenClasspath(ctx, p)
	if err != nil {
		return nil, err
	}
	if !strings.Contains(cp, "junit-platform-console-standalone") {
		return nil, fmt.Errorf("the project's test classpath has no JUnit Platform Console Launcher: add org.junit.platform:junit-platform-console-standalone (test scope, the version of its junit-platform) to pom.xml")
	}
	res, err := run(ctx, p.Dir, p.Env, []string{"java", "-cp", cp, junitLauncher, "discover", "--disable-banner",
		"--disable-ansi-colors", "--details=verbose", "--scan-classpath", filepath.Join(p.Dir, "target", "test-classes")})
	if err != nil {
		return nil, fmt.Errorf("junit discover: %w", err)
	}
	if res.ExitCode != 0 {
		return nil, &BuildError{Tool: "junit", Output: lastLines(res.Output, 40)}
	}
	return junitIDs(res.Output, p.Dir, cp), nil
}

// junitIDs reads the test methods out of the verbose discovery's output.
func junitIDs(out, dir, cp string) []TestID {
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
		ids = append(ids, TestID{ID: id, File: file, junit: &junitRun{classpath: cp, selector: selector}})
	}
	return ids
}

// topClass is the top-level class of a nested class's binary name.
func topClass(class string) string {
	c, _, _ := strings.Cut(class, "$")
	return c
}

func planJunit(_ context.Context, p *Project, id TestID, stopAt StopAt) (*Plan, error) {
	if id.junit == nil {
		return nil, fmt.Errorf("discovery did not find how to run %s", id.ID)
	}
	var src []string
	for _, d := range junitSourceDirs {
		if exists(p.Dir, d) {
			src = append(src, filepath.Join(p.Dir, d))
		}
	}
	args := []string{"execute", "--disable-banner", "--disable-ansi-colors", "--details=none", "--select-method", id.junit.selector}
	pl := &Plan{
		Create: sessions.CreateRequest{Language: "java", Name: "test " + id.ID, SourcePaths: src,
			AdapterConfig: map[string]any{"classpath": id.junit.classpath, "libraryClasses": junitLibraries}},
		Start: sessions.StartRequest{ScriptPath: junitLauncher, Args: args, Cwd: p.Dir, Env: p.Env,
			ExceptionFilters: []string{"caught", "uncaught"}},
		Command: append([]string{"java", "-cp", id.junit.classpath, junitLauncher}, args...),
	}
	if stopAt.Mode == StopStart {
		class, name, _ := strings.Cut(id.ID, "#")
		name, _, _ = strings.Cut(name, "(")
		pl.Breakpoints = append(pl.Breakpoints, sessions.BreakpointSpec{Function: class + "." + name})
	}
	return pl, nil
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
	if !under(file, p.Dir) || under(file, filepath.Join(p.Dir, "target")) {
		return false
	}
	_, err := os.Stat(file)
	return err == nil
}

// junitAccept: an assertion's failure, or an exception the user's code
// threw.
func junitAccept(r *failureReader) bool {
	t := r.stop.Text
	if strings.HasPrefix(t, "org.opentest4j.AssertionFailedError") || strings.HasPrefix(t, "org.opentest4j.MultipleFailuresError") ||
		strings.HasPrefix(t, "java.lang.AssertionError") {
		return true
	}
	return len(r.frames) > 0 && r.frames[0].File != "" && r.fw.UserFile(r.p, r.frames[0].File)
}
