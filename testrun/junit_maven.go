package testrun

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
)

// mavenDependencyPlugin is the maven-dependency-plugin dbg runs its goals
// of, pinned: a project that does not configure the plugin would get
// whichever version Maven's metadata names.
const mavenDependencyPlugin = "org.apache.maven.plugins:maven-dependency-plugin:3.8.1"

// mavenFastJVM speeds up Maven's own JVM, which runs for seconds: no
// optimising compiler. The test's JVM, which Surefire forks, is the
// project's.
const mavenFastJVM = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"

// mavenCommand is the project's Maven: its wrapper (mvnw) when it has
// one, else mvn on PATH.
func mavenCommand(dir string) (string, error) {
	return buildTool(dir, "mvnw", "mvn", "install Maven (apt-get install maven), or add the Maven wrapper")
}

// buildTool is the project's wrapper script when it has one, else tool
// on PATH; install says how to get one.
func buildTool(dir, wrapper, tool, install string) (string, error) {
	if w := filepath.Join(dir, wrapper); isExecutable(w) {
		return w, nil
	}
	p, err := exec.LookPath(tool)
	if err != nil {
		return "", toolkit.NewError(toolkit.CodeAdapterNotFound, tool+" is not installed and the project has no "+wrapper, install)
	}
	return p, nil
}

// isExecutable reports whether path is an executable regular file.
func isExecutable(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0
}

// mavenEnv is the run's environment with mavenFastJVM added to
// MAVEN_OPTS, unless those already tune the JVM (-XX:, where a second
// collector would stop it).
func mavenEnv(p *Project) map[string]string {
	opts, ok := p.Env["MAVEN_OPTS"]
	if !ok {
		opts = os.Getenv("MAVEN_OPTS")
	}
	if strings.Contains(opts, "-XX:") {
		return p.Env
	}
	return mergeEnv(p.Env, map[string]string{"MAVEN_OPTS": strings.TrimSpace(opts + " " + mavenFastJVM)})
}

// mavenBuild compiles the project's main and test classes and reads the
// test classpath (dependency:build-classpath): the class folders, then
// the dependencies. A build that fails answers Maven's message. A project
// without the console launcher gets the one of its JUnit Platform.
func mavenBuild(ctx context.Context, p *Project) (*junitBuild, error) {
	mvn, err := mavenCommand(p.Dir)
	if err != nil {
		return nil, err
	}
	f, err := os.CreateTemp("", "dbg-junit-cp-*.txt")
	if err != nil {
		return nil, err
	}
	out := f.Name()
	f.Close()
	defer os.Remove(out)
	// surefire:help names the Surefire the project's test phase runs.
	res, err := run(ctx, p.Dir, mavenEnv(p), []string{mvn, "-B", "test-compile", mavenDependencyPlugin + ":build-classpath",
		"surefire:help", "-Dmdep.outputFile=" + out, "-Dmdep.includeScope=test"})
	if err != nil {
		return nil, fmt.Errorf("mvn test-compile: %w", err)
	}
	if res.ExitCode != 0 {
		return nil, &BuildError{Tool: "mvn", Output: mavenErrors(res.Output)}
	}
	deps, err := os.ReadFile(out)
	if err != nil {
		return nil, fmt.Errorf("mvn dependency:build-classpath wrote no classpath: %w", err)
	}
	tests := filepath.Join(p.Dir, "target", "test-classes")
	cp := []string{tests, filepath.Join(p.Dir, "target", "classes")}
	if d := strings.TrimSpace(string(deps)); d != "" {
		cp = append(cp, d)
	}
	b := &junitBuild{tool: "maven", command: mvn, classpath: strings.Join(cp, string(os.PathListSeparator)), testClasses: []string{tests}}
	if m := surefireVersionLine.FindStringSubmatch(res.Output); m != nil {
		b.surefire = m[1]
	}
	if b.declared = hasConsoleLauncher(b.classpath); !b.declared {
		if b.launcher, err = mavenLauncher(ctx, p, mvn, b.classpath); err != nil {
			return nil, err
		}
	}
	return b, nil
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

// surefireVersionLine is how Maven announces the Surefire goal it runs.
var surefireVersionLine = regexp.MustCompile(`maven-surefire-plugin:(\d[^:\s]*):help`)

// surefireRunsPlatform reports whether a Surefire version runs JUnit
// Platform tests (2.22.0 and later); "" is a version Maven did not name.
func surefireRunsPlatform(version string) bool {
	var major, minor int
	if _, err := fmt.Sscanf(version, "%d.%d", &major, &minor); err != nil {
		return false
	}
	return major > 2 || major == 2 && minor >= 22
}

// surefireArgs are the arguments of Maven that run one test through the
// project's Surefire (its default-test execution, so that its
// configuration applies), the classes discovery compiled; Surefire selects
// methods by name, so an overloaded method runs every overload.
func surefireArgs(id TestID) []string {
	class, name := junitMethod(id.ID)
	return []string{"-B", "surefire:test@default-test", "-Dtest=" + class + "#" + name,
		"-Dsurefire.failIfNoSpecifiedTests=false", "-DfailIfNoTests=false", "-DskipTests=false"}
}

// planSurefire runs the test through `mvn surefire:test` with Surefire's
// debug option, under which its forked JVM connects to the Java adapter.
func planSurefire(p *Project, id TestID) (*Plan, error) {
	mvn := id.junit.build.command
	args := surefireArgs(id)
	argv := append(append([]string{mvn}, args...), "-Dmaven.surefire.debug="+p.Agent)
	return &Plan{
		Create:  sessions.CreateRequest{AdapterConfig: map[string]any{"command": argv}},
		Start:   sessions.StartRequest{ScriptPath: mvn, Env: mavenEnv(p)},
		Command: append([]string{mvn}, args...),
	}, nil
}
