package testrun

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/textcut"
	"github.com/dbg-dev/dbg/toolkit"
)

// junitLauncher is the JUnit Platform Console Launcher's main class.
const junitLauncher = "org.junit.platform.console.ConsoleLauncher"

// junitLauncherArtifact is the console launcher's Maven coordinates, less
// the version, which is the project's JUnit Platform version.
const junitLauncherArtifact = "org.junit.platform:junit-platform-console-standalone"

// junitFastJVM are the options of the discovery's JVM, which runs for a
// moment: no optimising compiler, the serial collector.
var junitFastJVM = []string{"-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto"}

// junitEngineJar is the JUnit Platform engine jar's name, which holds the
// platform's version.
var junitEngineJar = regexp.MustCompile(`^junit-platform-engine-(\d[^/\\]*)\.jar$`)

// junitPlatformVersion finds the junit-platform-engine jar on cp: the
// project's JUnit Platform version, and the jar's path.
func junitPlatformVersion(cp string) (version, jar string, ok bool) {
	for _, e := range filepath.SplitList(cp) {
		if m := junitEngineJar.FindStringSubmatch(filepath.Base(e)); m != nil {
			return m[1], e, true
		}
	}
	return "", "", false
}

// hasConsoleLauncher reports whether the classpath holds the console
// launcher (the project declares junit-platform-console-standalone).
func hasConsoleLauncher(cp string) bool {
	for _, e := range filepath.SplitList(cp) {
		if strings.HasPrefix(filepath.Base(e), "junit-platform-console-standalone-") {
			return true
		}
	}
	return false
}

// noPlatformError is a classpath without the JUnit Platform.
func noPlatformError() error {
	return toolkit.NewError(toolkit.CodeUnsupported, "the project's test classpath has no JUnit Platform (junit-platform-engine): debug_test runs JUnit 5 and later",
		"add org.junit.jupiter:junit-jupiter (test scope); JUnit 4 tests run on the platform with org.junit.vintage:junit-vintage-engine")
}

// discoverJunit runs the launcher's own discovery (`discover
// --scan-classpath` over the test classes) and returns its verbose
// output, which junitIDs reads.
func discoverJunit(ctx context.Context, p *Project, b *junitBuild) (string, error) {
	cp := b.classpath
	if b.launcher != "" {
		cp += string(os.PathListSeparator) + b.launcher
	}
	argv := append([]string{"java"}, junitFastJVM...)
	argv = append(argv, "-cp", cp, junitLauncher, "discover", "--disable-banner", "--disable-ansi-colors", "--details=verbose")
	for _, d := range b.testClasses {
		argv = append(argv, "--scan-classpath", d)
	}
	res, err := run(ctx, p.Dir, p.Env, argv)
	if err != nil {
		return "", fmt.Errorf("junit discover: %w", err)
	}
	if res.ExitCode != 0 {
		return "", &BuildError{Tool: "junit", Output: textcut.LastLines(res.Output, 40)}
	}
	return res.Output, nil
}

// planLauncher runs the test with the console launcher as the main
// class: `execute --select-method`.
func planLauncher(p *Project, id TestID) *Plan {
	args := []string{"execute", "--disable-banner", "--disable-ansi-colors", "--details=none", "--select-method", id.junit.selector}
	cp := id.junit.build.classpath
	if l := id.junit.build.launcher; l != "" {
		cp += string(os.PathListSeparator) + l
	}
	return &Plan{
		Create:  sessions.CreateRequest{AdapterConfig: map[string]any{"classpath": cp}},
		Start:   sessions.StartRequest{ScriptPath: junitLauncher, Args: args, Env: p.Env},
		Command: append([]string{"java", "-cp", cp, junitLauncher}, args...),
	}
}

// mavenLauncher returns the console launcher jar of the JUnit Platform
// version on cp, from the local repository the project's dependencies
// come from; one not there yet is fetched with Maven (dependency:get),
// through the project's own settings and repositories.
func mavenLauncher(ctx context.Context, p *Project, mvn, cp string) (string, error) {
	version, engine, ok := junitPlatformVersion(cp)
	if !ok {
		return "", noPlatformError()
	}
	repo := mavenRepoOf(engine, "org/junit/platform/junit-platform-engine/"+version)
	jar := filepath.Join(repo, "org", "junit", "platform", "junit-platform-console-standalone", version,
		"junit-platform-console-standalone-"+version+".jar")
	if _, err := os.Stat(jar); err == nil {
		return jar, nil
	}
	res, err := run(ctx, p.Dir, mavenEnv(p), []string{mvn, "-q", "-B", mavenDependencyPlugin + ":get",
		"-Dartifact=" + junitLauncherArtifact + ":" + version, "-Dtransitive=false", "-Dmaven.repo.local=" + repo})
	if err != nil {
		return "", fmt.Errorf("mvn dependency:get %s:%s: %w", junitLauncherArtifact, version, err)
	}
	if _, serr := os.Stat(jar); res.ExitCode != 0 || serr != nil {
		return "", toolkit.NewError(toolkit.CodeAdapterFailed, fmt.Sprintf("the JUnit Platform Console Launcher %s, which lists the tests, could not be fetched: %s",
			version, mavenErrors(res.Output)), "add "+junitLauncherArtifact+":"+version+" (test scope) to pom.xml, or make it reachable from the project's repositories")
	}
	return jar, nil
}

// mavenRepoOf is the local repository that holds jar in folder rel (its
// group's path, artifact and version); a jar laid out otherwise is in none,
// and the user's default repository is taken.
func mavenRepoOf(jar, rel string) string {
	dir := filepath.Dir(jar)
	if repo, ok := strings.CutSuffix(filepath.ToSlash(dir), "/"+rel); ok {
		return filepath.FromSlash(repo)
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".m2", "repository")
}
