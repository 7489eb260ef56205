package adapters

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/dbg-dev/dbg/adapters/javadap"
)

// Java is the built-in Java adapter: a DAP server over JDWP (package
// javadap) that runs inside dbg and needs nothing but a JDK.
//
// Launch accepts a ".java" source file (compiled with javac -g, or run
// with the JDK's source launcher), a ".jar", or a main class name with
// adapterConfig.classpath. adapterConfig may also carry mainClass,
// classpath, vmArgs and javaHome, the JDK whose java and javac are used
// (else $JAVA_HOME, else java on PATH); JDK 17 and later are supported,
// virtual threads from JDK 21. adapterConfig.command, a build tool's
// command line holding "${jdwpAgent}" (mvn surefire:test
// -Dmaven.surefire.debug=${jdwpAgent}), launches the JVM that command
// forks instead. Attach takes a JDWP host and port, or the
// pid of a JVM whose command line names a JDWP address; adapterConfig's
// classpath then says where that JVM's class files are, so breakpoints
// are verified before their classes load (by pid, its -cp is read).
type Java struct{}

// javaInstall is how a JDK is installed on Debian and Ubuntu.
const javaInstall = "apt-get install -y openjdk-17-jdk-headless"

// Language implements Adapter.
func (Java) Language() string { return "java" }

// Find implements Adapter. The adapter is built in; what must be found is
// a JVM to launch programs with.
func (Java) Find(ctx context.Context) Info {
	info := Info{Language: "java", Adapter: "built-in (JDWP)", Builtin: true, Launch: true, AttachPID: true, AttachPort: true,
		InstallCommand: javaInstall, Aliases: []string{"jvm", "jdwp"}}
	p, err := findJavaBinary("", "")
	if err != nil {
		info.Note = "no java found: launching needs a JDK (attach by port works without one)"
		return info
	}
	info.Found, info.Path = true, p
	info.Version = commandVersion(ctx, p, "-version")
	info.Note = jdkNote(p)
	if _, err := exec.LookPath(filepath.Join(filepath.Dir(p), "javac")); err != nil {
		info.Note += "; javac not found next to java: .java programs run with the source launcher, without local variable names"
	}
	return info
}

// jdkNote says which JDK launches use and which others are installed.
func jdkNote(java string) string {
	note := "launches use " + java
	using, ok := javadap.JDKOfJava(java)
	if ok {
		note = fmt.Sprintf("launches use JDK %s (%s)", using.Version, using.Home)
	}
	var others []string
	for _, j := range javadap.InstalledJDKs() {
		if !ok || j.Home != using.Home {
			others = append(others, fmt.Sprintf("JDK %s (%s)", j.Version, j.Home))
		}
	}
	if len(others) > 0 {
		note += "; also installed: " + strings.Join(others, ", ")
	}
	return note + "; JAVA_HOME or adapterConfig.javaHome picks the JDK"
}

// findJavaBinary returns explicit, javaHome/bin/java, $JAVA_HOME/bin/java
// or java from PATH.
func findJavaBinary(explicit, javaHome string) (string, error) {
	if explicit != "" {
		if _, err := os.Stat(explicit); err != nil {
			return "", fmt.Errorf("executablePath %s: %w", explicit, err)
		}
		return explicit, nil
	}
	if javaHome != "" {
		return javadap.FindJava("", javaHome)
	}
	if home := os.Getenv("JAVA_HOME"); home != "" {
		p := filepath.Join(home, "bin", "java")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	p, err := lookPath("java")
	if err != nil {
		return "", &NotFoundError{Language: "java", What: "a JDK (java)", Install: "dbg adapters install java"}
	}
	return p, nil
}

// InstallCommands implements Installer.
func (Java) InstallCommands() [][]string {
	return [][]string{{"apt-get", "install", "-y", "openjdk-17-jdk-headless"}}
}

// Start implements Adapter: the adapter runs in-process.
func (Java) Start(_ context.Context, t Target) (*Endpoint, error) {
	if t.Mode == Launch {
		home, _ := t.Extra["javaHome"].(string)
		if _, err := findJavaBinary(t.ExecutablePath, home); err != nil {
			return nil, err
		}
	}
	srv := javadap.NewServer()
	return InProcess(srv, nil, srv.Close), nil
}

// LaunchArgs implements Adapter.
func (Java) LaunchArgs(_ context.Context, t Target) (map[string]any, error) {
	args := map[string]any{"stopOnEntry": t.StopOnEntry}
	if len(t.Args) > 0 {
		args["args"] = t.Args
	}
	if t.Cwd != "" {
		args["cwd"] = absPath(t.Cwd)
	}
	if len(t.Env) > 0 {
		args["env"] = t.Env
	}
	if t.ExecutablePath != "" {
		args["javaPath"] = t.ExecutablePath
	}
	if t.JustMyCode != nil {
		args["justMyCode"] = *t.JustMyCode
	}
	if len(t.SourcePaths) > 0 {
		args["sourcePaths"] = t.SourcePaths
	}
	if _, ok := t.Extra["command"]; ok {
		// A build tool's command starts the JVM (javadap's launch
		// command); scriptPath names that tool.
		return merge(args, t.Extra), nil
	}
	mainClass, _ := t.Extra["mainClass"].(string)
	prog := t.Program
	switch {
	case strings.HasSuffix(prog, ".java") || strings.HasSuffix(prog, ".jar"):
		abs := absPath(prog)
		if _, err := os.Stat(abs); err != nil {
			return nil, fmt.Errorf("scriptPath %s: %w", prog, err)
		}
		args["program"] = abs
	case prog != "" && mainClass == "":
		if _, err := os.Stat(prog); err != nil && strings.ContainsAny(prog, `/\`) && isJavaIdentifier(filepath.Base(prog)) {
			prog = filepath.Base(prog) // a class name the caller made absolute
		}
		if strings.ContainsAny(prog, `/\`) {
			return nil, fmt.Errorf("scriptPath %q: give a .java file, a .jar, or a main class name (with adapterConfig.classpath)", prog)
		}
		args["mainClass"] = prog
	case prog == "" && mainClass == "":
		return nil, errors.New("scriptPath is required: a .java file, a .jar, or a main class name with adapterConfig.classpath")
	}
	if _, ok := t.Extra["classpath"]; !ok && args["mainClass"] != nil {
		cp := t.Cwd
		if cp == "" {
			cp, _ = os.Getwd()
		}
		args["classpath"] = absPath(cp)
	}
	return merge(args, t.Extra), nil
}

// isJavaIdentifier reports whether s can be a Java class name.
func isJavaIdentifier(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// AttachArgs implements Adapter. By pid, the JDWP address is read from the
// process's command line now, so a JVM without one fails early with the
// flags to restart it with.
func (Java) AttachArgs(ctx context.Context, t Target) (map[string]any, error) {
	args := map[string]any{"stopOnEntry": t.StopOnEntry}
	if t.JustMyCode != nil {
		args["justMyCode"] = *t.JustMyCode
	}
	if roots := javaSourceRoots(t); len(roots) > 0 {
		args["sourcePaths"] = roots
	}
	switch {
	case t.Port > 0:
		host := t.Host
		if host == "" {
			host = "127.0.0.1"
		}
		args["host"], args["port"] = host, t.Port
	case t.PID > 0:
		addr, err := javadap.AttachAddressOfPID(ctx, t.PID)
		if err != nil {
			return nil, err
		}
		host, port, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		n, _ := strconv.Atoi(port)
		args["host"], args["port"], args["processId"] = host, n, t.PID
	default:
		if _, ok := t.Extra["port"]; !ok {
			return nil, errors.New("java attach needs port (the JVM's JDWP port) or processId")
		}
	}
	return merge(args, t.Extra), nil
}

// StopReason implements Adapter.
func (Java) StopReason(r string) string { return r }

// ExceptionFilters implements Adapter.
func (Java) ExceptionFilters(mode string) []string {
	return standardFilters(mode, "caught", "uncaught")
}

// Traits implements Adapter: a program may be a main class name; the
// built-in adapter is served standalone, holds the thread for a
// logpoint's output, and connects the JVM a build tool forks through
// ${jdwpAgent}.
func (Java) Traits() Traits {
	return Traits{
		NamedProgram: isJavaClassName,
		Extensions:   []string{".java", ".jar"}, Commands: []string{"java", "javaw"},
		HeldLogpoints: true,
		Builtin:       &Builtin{Name: "java", Serve: javadap.Serve},
		LaunchTypes:   []string{"java"},
		CommandAgent:  javadap.JDWPAgentVar,
		Children: ChildProcesses{Reason: "a JVM the program starts has no debug agent of dbg's: start it with " +
			"-agentlib:jdwp=transport=dt_socket,server=y,suspend=y,address=127.0.0.1:PORT and attach by port " +
			"(create_debug_session {language: java, port: PORT})"},
		NoCore: javaNoCore,
		Remote: javaRemote(),
	}
}

// isJavaClassName accepts Java main class names (com.example.Main, or
// Main in the default package), which name no file.
func isJavaClassName(p string) bool {
	if strings.ContainsAny(p, "/\\") || strings.HasSuffix(p, ".java") || strings.HasSuffix(p, ".jar") {
		return false
	}
	parts := strings.Split(p, ".")
	for _, part := range parts {
		if part == "" {
			return false
		}
		for i, r := range part {
			if !(r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
				return false
			}
		}
	}
	last := parts[len(parts)-1]
	return last[0] >= 'A' && last[0] <= 'Z'
}

// javaSourceRoots are the source roots of an attach: sourcePaths, then
// the local roots of the path mappings (JDWP names a class's source file
// relative to its package, so a remote path is never seen).
func javaSourceRoots(t Target) []string {
	roots := append([]string(nil), t.SourcePaths...)
	for _, m := range t.PathMappings {
		roots = append(roots, m.LocalRoot)
	}
	return roots
}
