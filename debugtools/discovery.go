package debugtools

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/shirou/gopsutil/v4/process"

	"github.com/dbg-dev/dbg/proc"
)

// JVM is one local Java process as discovery sees it.
type JVM struct {
	PID         int      `json:"pid"`
	NSPID       int      `json:"nspid"` // pid inside the target's pid namespace
	UID         int      `json:"uid"`
	GID         int      `json:"gid"`
	Cmdline     []string `json:"cmdline,omitempty"`
	MainClass   string   `json:"mainClass"` // main class, or the jar for -jar
	JavaCommand string   `json:"javaCommand,omitempty"`
	JavaHome    string   `json:"javaHome,omitempty"`
	VMName      string   `json:"vmName,omitempty"`
	VMArgs      string   `json:"vmArgs,omitempty"`
	VMFlags     string   `json:"vmFlags,omitempty"`
	Cwd         string   `json:"cwd,omitempty"`
	PerfData    string   `json:"perfData,omitempty"` // the hsperfdata file read, if any
	DisplayName string   `json:"displayName"`
	AttachName  string   `json:"attachName"`
}

// hiddenMainClasses are IDE, build-tool and JDK tool JVMs that are never
// attach targets.
var hiddenMainClasses = []string{
	"org.gradle.launcher.daemon.bootstrap.GradleDaemon",
	"org.gradle.wrapper.GradleWrapperMain",
	"worker.org.gradle.process.internal.worker.GradleWorkerMain",
	"org.gradle.process.internal.worker.GradleWorkerMain",
	"com.intellij.idea.Main",
	"org.jetbrains.jps.cmdline.Launcher",
	"org.jetbrains.jps.cmdline.BuildMain",
	"org.jetbrains.kotlin.daemon.KotlinCompileDaemon",
	"org.jetbrains.idea.maven.server.RemoteMavenServer",
	"org.jetbrains.idea.maven.server.RemoteMavenServer36",
	"org.codehaus.plexus.classworlds.launcher.Launcher",
	"sun.tools.jps.Jps",
	"sun.tools.jcmd.JCmd",
	"sun.tools.jstack.JStack",
	"jdk.jcmd/sun.tools.jps.Jps",
	"jdk.jcmd/sun.tools.jcmd.JCmd",
	"org.eclipse.equinox.launcher.Main",
}

// Hidden reports whether j is an IDE, build daemon or JDK tool.
func (j *JVM) Hidden() bool {
	for _, h := range hiddenMainClasses {
		if j.MainClass == h {
			return true
		}
	}
	return strings.Contains(j.MainClass, "idea_rt") || strings.HasPrefix(j.MainClass, "com.intellij.")
}

// Discover lists the local JVMs: processes whose executable is java,
// plus every pid with an hsperfdata file. JVMs started with
// -XX:-UsePerfData are found from their command line. IDE and build
// daemons are kept; callers filter with Hidden.
func Discover(ctx context.Context) ([]JVM, error) {
	pids, err := process.PidsWithContext(ctx)
	if err != nil {
		return nil, fmt.Errorf("list processes: %w", err)
	}
	cands := map[int]bool{}
	for _, pid := range pids {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if isJavaExe(int(pid)) {
			cands[int(pid)] = true
		}
	}
	for _, f := range globPerf("/tmp") {
		if pid, err := strconv.Atoi(filepath.Base(f)); err == nil && proc.Exists(pid) {
			cands[pid] = true
		}
	}
	var out []JVM
	for pid := range cands {
		j, err := InspectJVM(ctx, pid)
		if err != nil {
			continue // gone, or not a JVM after all
		}
		out = append(out, *j)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].PID < out[b].PID })
	return out, nil
}

func globPerf(tmp string) []string {
	m, _ := filepath.Glob(filepath.Join(tmp, "hsperfdata_*", "*"))
	return m
}

// jvmLaunchers are the names of the JDK's launcher executables.
var jvmLaunchers = []string{"java", "javaw"}

// isJavaExe is a cheap check by the executable's name.
func isJavaExe(pid int) bool {
	c, err := proc.Comm(pid)
	return err == nil && slices.Contains(jvmLaunchers, c)
}

// InspectJVM describes the JVM of pid from its process entry and, when
// present, its hsperfdata file (also inside a container's root).
func InspectJVM(ctx context.Context, pid int) (*JVM, error) {
	p, err := process.NewProcessWithContext(ctx, int32(pid))
	if err != nil {
		return nil, fmt.Errorf("process %d: %w", pid, err)
	}
	j := &JVM{PID: pid, NSPID: pid}
	j.Cmdline, _ = p.CmdlineSliceWithContext(ctx)
	j.Cwd, _ = p.CwdWithContext(ctx)
	if !readStatus(pid, j) {
		return nil, fmt.Errorf("process %d: its owner cannot be read", pid)
	}
	if pd, path := readPerfFor(pid, j.NSPID, j.UID); pd != nil {
		j.PerfData = path
		j.JavaCommand = pd.Strings["sun.rt.javaCommand"]
		j.VMName = pd.Strings["java.property.java.vm.name"]
		j.VMArgs = pd.Strings["java.rt.vmArgs"]
		j.VMFlags = pd.Strings["java.rt.vmFlags"]
	}
	if j.PerfData == "" && !looksLikeJava(j.Cmdline) {
		return nil, fmt.Errorf("process %d is not a JVM", pid)
	}
	if j.JavaCommand == "" {
		j.JavaCommand = javaCommandFromArgs(j.Cmdline)
	}
	// The JDK is the one the process runs, as the kernel says: never what
	// a file in /tmp claims.
	j.JavaHome = javaHomeOf(pid)
	if f := strings.Fields(j.JavaCommand); len(f) > 0 {
		j.MainClass = f[0]
	}
	j.DisplayName = j.MainClass
	if j.DisplayName == "" {
		j.DisplayName = fmt.Sprintf("java (pid %d)", pid)
	}
	j.AttachName = attachNameOf(j.MainClass)
	return j, nil
}

func looksLikeJava(cmd []string) bool {
	if len(cmd) == 0 {
		return false
	}
	return slices.Contains(jvmLaunchers, filepath.Base(cmd[0]))
}

// attachNameOf turns a main class or jar into an application name:
// com.example.DemoApplication -> DemoApplication, /x/app-1.0.jar -> app-1.0.
func attachNameOf(main string) string {
	if main == "" {
		return "java"
	}
	if strings.HasSuffix(main, ".jar") {
		return strings.TrimSuffix(filepath.Base(main), ".jar")
	}
	if i := strings.LastIndexByte(main, '/'); i >= 0 { // module/class
		main = main[i+1:]
	}
	if i := strings.LastIndexByte(main, '.'); i >= 0 {
		return main[i+1:]
	}
	return main
}

// readStatus fills NSPID, UID and GID from the process's status, and
// reports whether it could.
func readStatus(pid int, j *JVM) bool {
	st, err := proc.ReadStatus(pid)
	if err != nil {
		return false
	}
	if st.NSPID > 0 {
		j.NSPID = st.NSPID
	}
	j.UID, j.GID = st.UID, st.GID
	return true
}

// optsWithValue are java launcher options whose value is the next word.
var optsWithValue = map[string]bool{
	"-cp": true, "-classpath": true, "--class-path": true, "-p": true, "--module-path": true,
	"--upgrade-module-path": true, "--add-modules": true, "--limit-modules": true,
	"--add-exports": true, "--add-opens": true, "--add-reads": true, "--patch-module": true,
	"--enable-native-access": true,
}

// javaCommandFromArgs rebuilds sun.rt.javaCommand from a java command
// line: the main class (or jar, or module/class) and its arguments.
func javaCommandFromArgs(cmd []string) string {
	if len(cmd) < 2 {
		return ""
	}
	args := cmd[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-jar" && i+1 < len(args):
			return strings.Join(args[i+1:], " ")
		case (a == "-m" || a == "--module") && i+1 < len(args):
			return strings.Join(args[i+1:], " ")
		case strings.HasPrefix(a, "--module="):
			return strings.Join(append([]string{strings.TrimPrefix(a, "--module=")}, args[i+1:]...), " ")
		case optsWithValue[a]:
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return strings.Join(args[i:], " ")
		}
	}
	return ""
}

// VMOptions returns every JVM option the process was started with: its
// command line before the main class, the vm args from hsperfdata, and
// the options environment variables the launcher reads.
func (j *JVM) VMOptions() []string {
	var out []string
	for _, a := range j.Cmdline[min(1, len(j.Cmdline)):] {
		if !strings.HasPrefix(a, "-") {
			break
		}
		out = append(out, a)
	}
	out = append(out, strings.Fields(j.VMArgs)...)
	out = append(out, strings.Fields(j.VMFlags)...)
	if env, err := proc.Environ(j.PID); err == nil {
		for _, kv := range env {
			k, v, _ := strings.Cut(kv, "=")
			if k == "JAVA_TOOL_OPTIONS" || k == "JDK_JAVA_OPTIONS" || k == "_JAVA_OPTIONS" {
				out = append(out, strings.Fields(v)...)
			}
		}
	}
	return out
}
