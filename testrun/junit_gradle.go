package testrun

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/dbg-dev/dbg/safefs"
	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/textcut"
	"github.com/dbg-dev/dbg/toolkit"
)

// gradleInitScript is dbg's Gradle init script (-I): its task
// dbgTestClasspath compiles the root project's tests and prints their
// classpath, test class folders and the console launcher of their JUnit
// Platform version (resolved through the project's repositories); with
// the project property dbg.jdwp it runs the Test tasks' JVM under that
// JDWP agent, never up to date, with the test's output shown.
//
//go:embed junit_gradle_init.gradle
var gradleInitScript string

// The lines dbgTestClasspath prints.
const (
	gradleClasspathLine   = "dbg-classpath="
	gradleTestClassesLine = "dbg-test-classes="
	gradleLauncherLine    = "dbg-launcher="
)

// gradleJDWPProperty is the project property that carries the JDWP agent
// option to the init script.
const gradleJDWPProperty = "dbg.jdwp"

// gradleCommand is the project's Gradle: its wrapper (gradlew) when it
// has one, else gradle on PATH.
func gradleCommand(dir string) (string, error) {
	return buildTool(dir, "gradlew", "gradle", "add the Gradle wrapper (gradle wrapper) or install Gradle")
}

// writeInitScript writes the init script into dir under a name of its
// content, once, and returns its path.
func writeInitScript(dir string) (string, error) {
	sum := sha256.Sum256([]byte(gradleInitScript))
	path := filepath.Join(dir, "dbg-init-"+hex.EncodeToString(sum[:6])+".gradle")
	if b, err := os.ReadFile(path); err == nil && string(b) == gradleInitScript {
		return path, nil
	}
	tmp, err := safefs.CreateTemp(dir, "dbg-init-*.tmp")
	if err != nil {
		return "", err
	}
	if _, err := tmp.WriteString(gradleInitScript); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return "", err
	}
	tmp.Close()
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	return path, nil
}

// gradleInitDir is where the init script is kept: a private folder of
// the user's cache (see safefs.UserCacheDir).
func gradleInitDir() (string, error) {
	d, err := safefs.UserCacheDir()
	return filepath.Join(d, "dbg", "gradle"), err
}

// gradleListArgs are Gradle's arguments that print the test classpath.
// No daemon: every process of the build ends with it.
func gradleListArgs(init string) []string {
	return []string{"--no-daemon", "--console=plain", "-q", "-I", init, "dbgTestClasspath"}
}

// gradleBuild compiles the tests with Gradle and reads what the init
// script's task printed.
func gradleBuild(ctx context.Context, p *Project) (*junitBuild, error) {
	gradle, err := gradleCommand(p.Dir)
	if err != nil {
		return nil, err
	}
	var init string
	dir, err := gradleInitDir()
	if err == nil {
		init, err = writeInitScript(dir)
	}
	if err != nil {
		return nil, fmt.Errorf("write the Gradle init script: %w", err)
	}
	res, err := run(ctx, p.Dir, p.Env, append([]string{gradle}, gradleListArgs(init)...))
	if err != nil {
		return nil, fmt.Errorf("gradle dbgTestClasspath: %w", err)
	}
	if res.ExitCode != 0 {
		return nil, &BuildError{Tool: "gradle", Output: gradleErrors(res.Output)}
	}
	b, err := parseGradleBuild(res.Output)
	if err != nil {
		return nil, err
	}
	b.command, b.initScript = gradle, init
	return b, nil
}

// parseGradleBuild reads the init script task's lines.
func parseGradleBuild(out string) (*junitBuild, error) {
	b := &junitBuild{tool: "gradle"}
	seen := false
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimRight(l, "\r")
		if v, ok := strings.CutPrefix(l, gradleClasspathLine); ok {
			b.classpath, seen = v, true
		} else if v, ok := strings.CutPrefix(l, gradleTestClassesLine); ok {
			b.testClasses = filepath.SplitList(v)
		} else if v, ok := strings.CutPrefix(l, gradleLauncherLine); ok {
			b.launcher = v
		}
	}
	if !seen {
		return nil, toolkit.NewError(toolkit.CodeUnsupported, "gradle printed no test classpath: the root project applies no java plugin: "+textcut.LastLines(out, 20),
			"debug_test runs the root project's tests; a multi-project build's subprojects are not supported")
	}
	if b.declared = hasConsoleLauncher(b.classpath); b.declared {
		b.launcher = ""
	} else if b.launcher == "" {
		return nil, noPlatformError()
	}
	return b, nil
}

// gradleErrors keeps the compiler's error lines and Gradle's "What went
// wrong" section, else the output's end.
func gradleErrors(out string) string {
	var keep []string
	wrong := false
	for _, l := range strings.Split(out, "\n") {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "* What went wrong:"):
			wrong = true
			keep = append(keep, t)
		case wrong && (t == "" || strings.HasPrefix(t, "* Try:")):
			wrong = false
		case wrong || strings.Contains(t, ": error: ") || strings.HasPrefix(t, "e: "):
			keep = append(keep, t)
		}
	}
	if len(keep) == 0 {
		return textcut.LastLines(out, 40)
	}
	return strings.Join(keep, "\n")
}

// gradleTestArgs are Gradle's arguments that run one test: its Test
// task's --tests filter (Class.method), through the init script.
func gradleTestArgs(init string, id TestID) []string {
	class, name := junitMethod(id.ID)
	return []string{"--no-daemon", "--console=plain", "-I", init, "test", "--tests", class + "." + name}
}

// planGradle runs the test through `gradle test`, whose test JVM the init
// script starts under the JDWP agent that connects to the Java adapter.
func planGradle(p *Project, id TestID) (*Plan, error) {
	b := id.junit.build
	args := gradleTestArgs(b.initScript, id)
	argv := append(append([]string{b.command}, args...), "-P"+gradleJDWPProperty+"="+p.Agent)
	return &Plan{
		Create:  sessions.CreateRequest{AdapterConfig: map[string]any{"command": argv}},
		Start:   sessions.StartRequest{ScriptPath: b.command, Env: p.Env},
		Command: append([]string{b.command}, args...),
	}, nil
}
