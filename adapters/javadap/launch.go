package javadap

import (
	"archive/zip"
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	godap "github.com/google/go-dap"

	"github.com/dbg-dev/dbg/dap"
)

// LaunchConfig are the "launch" request arguments the adapter understands.
//
// The program is one of: MainClass (with Classpath), Program naming a
// ".jar", Program naming a ".java" source file (compiled with javac -g
// into a temporary directory when javac is found, else run with the JDK's
// source launcher), or Program naming a main class.
type LaunchConfig struct {
	MainClass   string            `json:"mainClass"`
	Classpath   stringList        `json:"classpath"`
	Program     string            `json:"program"`
	Args        []string          `json:"args"`
	VMArgs      stringList        `json:"vmArgs"`
	Cwd         string            `json:"cwd"`
	Env         map[string]string `json:"env"`
	JavaPath    string            `json:"javaPath"`
	JavaHome    string            `json:"javaHome"`
	StopOnEntry bool              `json:"stopOnEntry"`
	JustMyCode  *bool             `json:"justMyCode"`
	SourcePaths []string          `json:"sourcePaths"`
	// LibraryClasses are class patterns ("org.junit.*") that, like the
	// JDK's, are not the user's code: see libraryclasses.go.
	LibraryClasses []string `json:"libraryClasses"`
	// Command, when set, is run instead of a java command line: a build
	// tool's test run whose forked JVM takes JDWPAgentVar's option (see
	// launchcommand.go). Classpath then says where its classes are.
	Command []string `json:"command"`
}

type launchRequest struct {
	godap.Request
	Arguments LaunchConfig `json:"arguments"`
}

type attachRequest struct {
	godap.Request
	Arguments AttachConfig `json:"arguments"`
}

// AttachConfig are the "attach" request arguments.
type AttachConfig struct {
	Host        string     `json:"host"`
	Port        int        `json:"port"`
	Classpath   stringList `json:"classpath"`
	ProcessID   int        `json:"processId"`
	JustMyCode  *bool      `json:"justMyCode"`
	SourcePaths []string   `json:"sourcePaths"`
	StopOnEntry bool       `json:"stopOnEntry"`
}

// stringList accepts a JSON string (split on spaces for vmArgs, on the
// path separator for classpath by the caller) or a list of strings.
type stringList []string

func (s *stringList) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		if one == "" {
			*s = nil
		} else {
			*s = stringList{one}
		}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return fmt.Errorf("want a string or a list of strings: %w", err)
	}
	*s = many
	return nil
}

// jvmCommand is how a JVM is started for a launch.
type jvmCommand struct {
	argv      []string
	dir       string
	mainClass string   // known main class ("" when unknown)
	sourceDir string   // a directory of sources to map frames to
	classPath []string // where the program's class files are: directories and jars
	java      string   // the java executable
	cleanup   func()
}

var listenRE = regexp.MustCompile(`Listening for transport dt_socket at address: (\S+)`)

// FindJava returns the java executable a launch uses: javaPath, else
// javaHome/bin/java, else $JAVA_HOME/bin/java, else java on PATH. A
// javaHome that has no bin/java is an error, not a fallback, so that the
// JDK asked for is the JDK used.
func FindJava(javaPath, javaHome string) (string, error) {
	if javaPath != "" {
		return javaPath, nil
	}
	if javaHome != "" {
		p := filepath.Join(javaHome, "bin", "java")
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("javaHome %s is not a JDK: %w", javaHome, err)
		}
		return p, nil
	}
	if home := os.Getenv("JAVA_HOME"); home != "" {
		p := filepath.Join(home, "bin", "java")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	p, err := exec.LookPath("java")
	if err != nil {
		return "", errors.New("java not found: install a JDK (apt-get install openjdk-17-jdk-headless) or set javaHome, javaPath or JAVA_HOME")
	}
	return p, nil
}

// jdkTool returns a tool of the JDK that java belongs to (javac, jar),
// falling back to PATH only when that JDK has none (a bare JRE).
func jdkTool(java, tool string) string {
	p := filepath.Join(filepath.Dir(java), tool)
	if _, err := os.Stat(p); err == nil {
		return p
	}
	p, _ = exec.LookPath(tool)
	return p
}

// buildCommand turns a launch config into a java command line.
func buildCommand(ctx context.Context, cfg *LaunchConfig) (*jvmCommand, error) {
	java, err := FindJava(cfg.JavaPath, cfg.JavaHome)
	if err != nil {
		return nil, err
	}
	jc := &jvmCommand{dir: cfg.Cwd, cleanup: func() {}, java: java}
	argv := []string{java, "-agentlib:jdwp=transport=dt_socket,server=y,suspend=y,address=127.0.0.1:0"}
	for _, a := range cfg.VMArgs {
		if len(cfg.VMArgs) == 1 {
			argv = append(argv, strings.Fields(a)...)
		} else {
			argv = append(argv, a)
		}
	}
	var cp []string
	for _, c := range cfg.Classpath {
		cp = append(cp, filepath.SplitList(c)...)
	}
	prog := cfg.Program
	switch {
	case cfg.MainClass != "" && !strings.HasSuffix(prog, ".jar") && !strings.HasSuffix(prog, ".java"):
		if len(cp) > 0 {
			argv = append(argv, "-cp", strings.Join(cp, string(os.PathListSeparator)))
		}
		argv = append(argv, cfg.MainClass)
		jc.mainClass = cfg.MainClass
	case strings.HasSuffix(prog, ".jar"):
		abs, _ := filepath.Abs(prog)
		if len(cp) > 0 {
			argv = append(argv, "-cp", strings.Join(append([]string{abs}, cp...), string(os.PathListSeparator)))
		}
		jc.mainClass = cfg.MainClass
		if jc.mainClass == "" {
			jc.mainClass = jarMainClass(abs)
		}
		if len(cp) > 0 && jc.mainClass != "" {
			argv = append(argv, jc.mainClass)
		} else {
			argv = append(argv, "-jar", abs)
		}
		if jc.dir == "" {
			jc.dir = filepath.Dir(abs)
		}
		jc.classPath = append(jc.classPath, abs)
	case strings.HasSuffix(prog, ".java"):
		abs, err := filepath.Abs(prog)
		if err != nil {
			return nil, err
		}
		if _, err := os.Stat(abs); err != nil {
			return nil, fmt.Errorf("program %s: %w", prog, err)
		}
		jc.sourceDir = filepath.Dir(abs)
		if jc.dir == "" {
			jc.dir = jc.sourceDir
		}
		// Compile with -g so locals are visible; fall back to the source
		// launcher (no local variable names) when javac is missing.
		javac := jdkTool(java, "javac")
		main := mainClassOfSource(abs)
		if javac != "" && main != "" {
			out, cleanup, err := compileSource(ctx, javac, abs, cp)
			if err != nil {
				return nil, err
			}
			jc.cleanup = cleanup
			argv = append(argv, "-cp", strings.Join(append([]string{out}, cp...), string(os.PathListSeparator)), main)
			jc.mainClass = main
			jc.classPath = append(jc.classPath, out)
		} else {
			if len(cp) > 0 {
				argv = append(argv, "-cp", strings.Join(cp, string(os.PathListSeparator)))
			}
			argv = append(argv, abs)
		}
	case prog != "":
		if len(cp) > 0 {
			argv = append(argv, "-cp", strings.Join(cp, string(os.PathListSeparator)))
		}
		argv = append(argv, prog)
		jc.mainClass = prog
	default:
		return nil, errors.New("launch: give mainClass (with classpath), a .jar or a .java file as program")
	}
	jc.argv = append(argv, cfg.Args...)
	jc.classPath = append(jc.classPath, cp...)
	return jc, nil
}

// jarMainClass reads Main-Class from a jar's manifest ("" if absent).
func jarMainClass(jar string) string {
	z, err := zip.OpenReader(jar)
	if err != nil {
		return ""
	}
	defer z.Close()
	for _, f := range z.File {
		if f.Name != "META-INF/MANIFEST.MF" {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return ""
		}
		defer rc.Close()
		sc := bufio.NewScanner(rc)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "Main-Class:"); ok {
				return strings.TrimSpace(v)
			}
		}
	}
	return ""
}

var (
	packageRE = regexp.MustCompile(`(?m)^\s*package\s+([\w.]+)\s*;`)
	typeRE    = regexp.MustCompile(`\b(?:class|interface|enum|record)\s+([A-Za-z_$][\w$]*)`)
)

// javaPackage returns the package a source file declares ("" for none).
func javaPackage(src string) string {
	if m := packageRE.FindStringSubmatch(stripJavaComments(src)); m != nil {
		return m[1]
	}
	return ""
}

// mainClassOfSource returns the first top-level type of a source file,
// qualified by its package: the class the JDK's source launcher runs.
func mainClassOfSource(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	src := stripJavaComments(string(b))
	depth := 0
	var top strings.Builder
	for _, r := range src {
		switch r {
		case '{':
			depth++
			top.WriteRune(' ')
		case '}':
			depth--
		default:
			if depth == 0 {
				top.WriteRune(r)
			}
		}
	}
	m := typeRE.FindStringSubmatch(top.String())
	if m == nil {
		return ""
	}
	if pkg := javaPackage(string(b)); pkg != "" {
		return pkg + "." + m[1]
	}
	return m[1]
}

// stripJavaComments blanks comments, string and char literals.
func stripJavaComments(s string) string {
	out := []byte(s)
	for i := 0; i < len(out); i++ {
		switch {
		case out[i] == '/' && i+1 < len(out) && out[i+1] == '/':
			for i < len(out) && out[i] != '\n' {
				out[i] = ' '
				i++
			}
		case out[i] == '/' && i+1 < len(out) && out[i+1] == '*':
			for i < len(out) && !(out[i] == '*' && i+1 < len(out) && out[i+1] == '/') {
				if out[i] != '\n' {
					out[i] = ' '
				}
				i++
			}
			if i+1 < len(out) {
				out[i], out[i+1] = ' ', ' '
				i++
			}
		case out[i] == '"' || out[i] == '\'':
			q := out[i]
			i++
			for i < len(out) && out[i] != q && out[i] != '\n' {
				if out[i] == '\\' && i+1 < len(out) {
					out[i] = ' '
					i++
				}
				out[i] = ' '
				i++
			}
		}
	}
	return string(out)
}

// outputSink routes the debuggee's output lines. Lines that arrive before
// a sink is set are buffered.
type outputSink struct {
	mu      sync.Mutex
	sink    func(category, line string)
	pending [][2]string
	port    chan string
}

func (o *outputSink) line(stream, line string) {
	if stream == "stdout" && o.port != nil {
		if m := listenRE.FindStringSubmatch(line); m != nil {
			select {
			case o.port <- m[1]:
			default:
			}
			return
		}
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.sink == nil {
		o.pending = append(o.pending, [2]string{stream, line})
		return
	}
	o.sink(stream, line)
}

func (o *outputSink) setSink(f func(category, line string)) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.sink = f
	for _, p := range o.pending {
		f(p[0], p[1])
	}
	o.pending = nil
}

// startJVM starts the JVM suspended under JDWP and returns it with the
// address its agent listens on.
func startJVM(ctx context.Context, jc *jvmCommand, env map[string]string, out *outputSink) (*dap.Process, string, error) {
	cmd := exec.Command(jc.argv[0], jc.argv[1:]...)
	cmd.Dir = jc.dir
	if len(env) > 0 {
		cmd.Env = os.Environ()
		for k, v := range env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
	}
	out.port = make(chan string, 1)
	p, err := dap.StartProcess(cmd, dap.ProcessOptions{OnLine: out.line})
	if err != nil {
		return nil, "", fmt.Errorf("start %s: %w", jc.argv[0], err)
	}
	t := time.NewTimer(30 * time.Second)
	defer t.Stop()
	select {
	case addr := <-out.port:
		if _, err := strconv.Atoi(addr); err == nil {
			addr = "127.0.0.1:" + addr
		}
		return p, addr, nil
	case <-p.Exited():
		return nil, "", fmt.Errorf("the JVM exited before its debug agent listened (%v): %s", p.ExitErr(), p.StderrTail())
	case <-ctx.Done():
		p.Kill()
		return nil, "", fmt.Errorf("waiting for the JVM's debug agent: %w", ctx.Err())
	case <-t.C:
		p.Kill()
		return nil, "", fmt.Errorf("the JVM did not print its JDWP address within 30s: %s", p.StderrTail())
	}
}
