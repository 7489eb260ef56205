package ide

import (
	"os"
	"path/filepath"
	"strings"
)

// splitArgs splits a parameter string the way IntelliJ does: on
// whitespace, with double quotes grouping (and removed) and \" standing
// for a quote.
func splitArgs(s string) []string {
	var out []string
	var cur strings.Builder
	inQuote, have := false, false
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '\\' && i+1 < len(s) && s[i+1] == '"':
			cur.WriteByte('"')
			have = true
			i++
		case ch == '"':
			inQuote = !inQuote
			have = true
		case !inQuote && (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r'):
			if have {
				out = append(out, cur.String())
				cur.Reset()
				have = false
			}
		default:
			cur.WriteByte(ch)
			have = true
		}
	}
	if have {
		out = append(out, cur.String())
	}
	return out
}

// javaClasspath guesses the output folders of a module: the first of the
// usual build outputs that exists, else the one its build tool would
// write.
func javaClasspath(moduleDir, module string) string {
	groups := [][]string{
		{"target/classes"},
		{"build/classes/java/main", "build/classes/kotlin/main", "build/resources/main"},
		{filepath.Join("out", "production", module)},
	}
	var found []string
	for _, g := range groups {
		for _, p := range g {
			if isDir(filepath.Join(moduleDir, p)) {
				found = append(found, filepath.Join(moduleDir, p))
			}
		}
		if len(found) > 0 {
			return strings.Join(found, string(os.PathListSeparator))
		}
	}
	switch {
	case fileExists(filepath.Join(moduleDir, "pom.xml")):
		return filepath.Join(moduleDir, "target", "classes")
	case fileExists(filepath.Join(moduleDir, "build.gradle")), fileExists(filepath.Join(moduleDir, "build.gradle.kts")):
		return filepath.Join(moduleDir, "build", "classes", "java", "main")
	}
	return filepath.Join(moduleDir, "out", "production", module)
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

func javaCommand(rc *RunConfiguration, mx *macros) {
	if rc.Program == "" {
		rc.Unsupported = "the configuration names no main class"
		return
	}
	cp := javaClasspath(mx.moduleDir(rc.Module), rc.Module)
	rc.classpath = cp
	rc.Command = append([]string{"java"}, rc.VMArgs...)
	rc.Command = append(rc.Command, "-cp", cp, rc.Program)
	rc.Command = append(rc.Command, rc.Args...)
}

// junitCommand runs the test through the module's build tool, which
// knows the test classpath.
func junitCommand(rc *RunConfiguration, mx *macros, testObject, pkg, method string) {
	dir := mx.moduleDir(rc.Module)
	if rc.Cwd == "" {
		rc.Cwd = dir
	}
	var selMaven, selGradle string
	switch testObject {
	case "package":
		selMaven, selGradle = pkg+".**", pkg+".*"
		rc.Program = pkg
	case "method":
		selMaven, selGradle = rc.Program+"#"+method, rc.Program+"."+method
	default:
		selMaven, selGradle = rc.Program, rc.Program
	}
	switch {
	case fileExists(filepath.Join(dir, "pom.xml")):
		rc.Command = []string{tool(dir, "mvnw", "mvn"), "test", "-Dtest=" + selMaven, "-Dsurefire.failIfNoSpecifiedTests=false"}
		if len(rc.VMArgs) > 0 {
			rc.Command = append(rc.Command, "-DargLine="+strings.Join(rc.VMArgs, " "))
		}
		rc.Cwd = dir
	case fileExists(filepath.Join(dir, "build.gradle")), fileExists(filepath.Join(dir, "build.gradle.kts")):
		rc.Command = []string{tool(dir, "gradlew", "gradle"), "test", "--tests", selGradle}
		rc.Cwd = dir
	default:
		rc.Unsupported = "the module has no pom.xml or build.gradle to run its tests with"
	}
}

// tool returns dir/wrapper when the project ships a wrapper script, else
// the command name.
func tool(dir, wrapper, name string) string {
	if p := filepath.Join(dir, wrapper); fileExists(p) {
		return p
	}
	return name
}

func gradleCommand(rc *RunConfiguration) {
	if len(rc.Args) == 0 {
		rc.Unsupported = "the configuration names no Gradle task"
		return
	}
	rc.Command = append([]string{tool(rc.Cwd, "gradlew", "gradle")}, rc.Args...)
	if len(rc.VMArgs) > 0 {
		if rc.Env == nil {
			rc.Env = map[string]string{}
		}
		rc.Env["GRADLE_OPTS"] = strings.Join(rc.VMArgs, " ")
	}
}

func mavenCommand(rc *RunConfiguration) {
	if rc.Program == "" {
		rc.Unsupported = "the configuration names no Maven goal"
		return
	}
	rc.Command = append([]string{tool(rc.Cwd, "mvnw", "mvn")}, rc.Args...)
}

func goCommand(rc *RunConfiguration, pattern string) {
	if rc.Program == "" {
		rc.Unsupported = "the configuration names no package, directory or file"
		return
	}
	verb := "run"
	if rc.Kind == KindGoTest {
		verb = "test"
	}
	rc.Command = append([]string{"go", verb}, rc.VMArgs...)
	rc.Command = append(rc.Command, rc.Program)
	if pattern != "" {
		rc.testPattern = pattern
		rc.Command = append(rc.Command, "-run", pattern)
	}
	rc.Command = append(rc.Command, rc.Args...)
}

// projectPython returns the interpreter of the project's virtual
// environment (.venv or venv), the one an IDE picks as the project SDK,
// or "" when there is none.
func projectPython(project string) string {
	for _, venv := range []string{".venv", "venv"} {
		p := filepath.Join(project, venv, "bin", "python")
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p
		}
	}
	return ""
}

func pythonCommand(rc *RunConfiguration, project, interpreter string, module bool) {
	if rc.Program == "" {
		rc.Unsupported = "the configuration names no script or module"
		return
	}
	rc.pythonMod = module
	if interpreter == "" {
		interpreter = projectPython(project)
	}
	rc.interpreter = interpreter
	if interpreter == "" {
		interpreter = "python3"
	}
	rc.Command = append([]string{interpreter}, rc.VMArgs...)
	if module {
		rc.Command = append(rc.Command, "-m")
	}
	rc.Command = append(rc.Command, rc.Program)
	rc.Command = append(rc.Command, rc.Args...)
}

func nodeCommand(rc *RunConfiguration, runtime string) {
	if rc.Program == "" {
		rc.Unsupported = "the configuration names no program"
		return
	}
	rc.interpreter = runtime
	if runtime == "" {
		runtime = "node"
	}
	rc.Command = append([]string{runtime}, rc.VMArgs...)
	rc.Command = append(rc.Command, rc.Program)
	rc.Command = append(rc.Command, rc.Args...)
}

func npmCommand(rc *RunConfiguration, manager, command string, extra []string) {
	if command == "" {
		command = "run"
	}
	tool := "npm"
	switch m := strings.ToLower(manager); {
	case strings.Contains(m, "yarn"):
		tool = "yarn"
	case strings.Contains(m, "pnpm"):
		tool = "pnpm"
	}
	rc.Command = append([]string{tool, command}, rc.Args...)
	if len(extra) > 0 {
		if tool == "npm" {
			rc.Command = append(rc.Command, "--")
		}
		rc.Command = append(rc.Command, extra...)
	}
}

func shellCommand(rc *RunConfiguration, interpreter, script, text string) {
	if interpreter == "" {
		interpreter = "/bin/sh"
	}
	switch {
	case script != "":
		rc.Command = append(append([]string{interpreter}, rc.VMArgs...), script)
		rc.Command = append(rc.Command, rc.Args...)
	case strings.TrimSpace(text) != "":
		rc.Program = "script text"
		rc.Command = append(append([]string{interpreter}, rc.VMArgs...), "-c", text)
	default:
		rc.Unsupported = "the configuration names no script"
	}
}
