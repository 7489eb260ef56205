package javadap

import (
	"context"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/shirou/gopsutil/v4/process"
)

// jdwpAddressRE finds the address option of a -agentlib:jdwp (or
// -Xrunjdwp) argument.
var jdwpAddressRE = regexp.MustCompile(`(?:-agentlib:jdwp=|-Xrunjdwp:)(\S*)`)

// JDWPAddressOfCommandLine returns the host:port a JVM's command line
// asks its JDWP agent to listen on, or ok=false when the JVM has no
// socket JDWP agent listening as a server.
func JDWPAddressOfCommandLine(args []string) (addr string, ok bool) {
	for _, a := range args {
		m := jdwpAddressRE.FindStringSubmatch(a)
		if m == nil {
			continue
		}
		opts := map[string]string{}
		for _, kv := range strings.Split(m[1], ",") {
			if k, v, found := strings.Cut(kv, "="); found {
				opts[k] = v
			}
		}
		if opts["server"] != "y" || (opts["transport"] != "" && opts["transport"] != "dt_socket") {
			continue
		}
		a := opts["address"]
		if a == "" {
			continue
		}
		if _, err := strconv.Atoi(a); err == nil {
			return "127.0.0.1:" + a, true
		}
		host, port, err := net.SplitHostPort(a)
		if err != nil || port == "0" {
			continue
		}
		if host == "*" || host == "" || host == "0.0.0.0" {
			host = "127.0.0.1"
		}
		return net.JoinHostPort(host, port), true
	}
	return "", false
}

// restartHint says how to make a JVM debuggable.
const restartHint = "restart the JVM with -agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=127.0.0.1:5005 " +
	"(or JAVA_TOOL_OPTIONS=\"-agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=127.0.0.1:5005\") and attach with port 5005"

// attachAddress returns the JDWP address to attach to: host:port, or the
// address found on a process's command line.
func attachAddress(ctx context.Context, cfg AttachConfig) (string, error) {
	if cfg.Port > 0 {
		host := cfg.Host
		if host == "" {
			host = "127.0.0.1"
		}
		return net.JoinHostPort(host, strconv.Itoa(cfg.Port)), nil
	}
	if cfg.ProcessID <= 0 {
		return "", errors.New("attach needs port (the JVM's JDWP port) or processId")
	}
	return AttachAddressOfPID(ctx, cfg.ProcessID)
}

// AttachAddressOfPID returns the JDWP address of a running JVM, read from
// its command line (or JAVA_TOOL_OPTIONS). A JVM without a JDWP socket
// agent is an error that says how to restart it with one.
func AttachAddressOfPID(ctx context.Context, pid int) (string, error) {
	cfg := AttachConfig{ProcessID: pid}
	p, err := process.NewProcessWithContext(ctx, int32(cfg.ProcessID))
	if err != nil {
		return "", fmt.Errorf("process %d: %w", cfg.ProcessID, err)
	}
	args, err := p.CmdlineSliceWithContext(ctx)
	if err != nil {
		return "", fmt.Errorf("read the command line of process %d: %w", cfg.ProcessID, err)
	}
	if addr, ok := JDWPAddressOfCommandLine(args); ok {
		return addr, nil
	}
	if env, err := p.EnvironWithContext(ctx); err == nil {
		for _, e := range env {
			if v, ok := strings.CutPrefix(e, "JAVA_TOOL_OPTIONS="); ok {
				if addr, ok := JDWPAddressOfCommandLine(strings.Fields(v)); ok {
					return addr, nil
				}
			}
		}
	}
	return "", fmt.Errorf("process %d has no JDWP agent listening on a fixed socket address; %s", cfg.ProcessID, restartHint)
}

// processSourceRoots guesses where a running JVM's sources are: its
// working directory (with the Maven/Gradle source folders under it) and
// the directories on its class path.
func processSourceRoots(ctx context.Context, pid int) []string {
	p, err := process.NewProcessWithContext(ctx, int32(pid))
	if err != nil {
		return nil
	}
	var roots []string
	if cwd, err := p.CwdWithContext(ctx); err == nil && cwd != "" {
		roots = append(roots, conventionalRoots(cwd)...)
	}
	if args, err := p.CmdlineSliceWithContext(ctx); err == nil {
		for _, e := range classPathOfCommandLine(args) {
			if !strings.HasSuffix(e, ".jar") {
				roots = append(roots, e)
			}
		}
	}
	return roots
}

// processClassPath returns a running JVM's class path entries, relative
// ones resolved against its working directory.
func processClassPath(ctx context.Context, pid int) []string {
	p, err := process.NewProcessWithContext(ctx, int32(pid))
	if err != nil {
		return nil
	}
	args, err := p.CmdlineSliceWithContext(ctx)
	if err != nil {
		return nil
	}
	cwd, _ := p.CwdWithContext(ctx)
	var out []string
	for _, e := range classPathOfCommandLine(args) {
		if !filepath.IsAbs(e) && cwd != "" {
			e = filepath.Join(cwd, e)
		}
		out = append(out, e)
	}
	if cwd != "" {
		out = append(out, conventionalClassDirs(cwd)...)
	}
	return out
}

// classPathOfCommandLine returns the -cp (or -classpath, --class-path)
// entries and the -jar of a java command line.
func classPathOfCommandLine(args []string) []string {
	var out []string
	for i := 0; i+1 < len(args); i++ {
		switch args[i] {
		case "-cp", "-classpath", "--class-path":
			out = append(out, filepath.SplitList(args[i+1])...)
		case "-jar":
			out = append(out, args[i+1])
		}
	}
	return out
}

// conventionalClassDirs returns the folders Maven and Gradle compile
// classes into under a project directory.
func conventionalClassDirs(dir string) []string {
	return []string{filepath.Join(dir, "target", "classes"), filepath.Join(dir, "target", "test-classes"),
		filepath.Join(dir, "build", "classes", "java", "main"), filepath.Join(dir, "build", "classes", "java", "test")}
}

// conventionalRoots returns dir and the source folders build tools use
// under it.
func conventionalRoots(dir string) []string {
	return []string{dir, filepath.Join(dir, "src", "main", "java"), filepath.Join(dir, "src", "test", "java"), filepath.Join(dir, "src")}
}
