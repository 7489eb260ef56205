package debugtools

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/dbg-dev/dbg/proc"
	"github.com/dbg-dev/dbg/toolkit"
)

// Toolset holds the JVM tools. A server lists it by default when its
// project builds for the JVM or a JVM of the user runs.
const Toolset = "jvm"

// Lead are the JVM tools a server lists by default, when its project
// builds for the JVM or a JVM runs: the one call that attaches to a JVM
// when needed and invokes a method in it. The other JVM tools are listed
// once asked for (--toolsets jvm, enable_toolset jvm), and answer calls
// all the same.
var Lead = []string{"attach_local_jvm"}

// jvmBuildFiles mark a JVM project.
var jvmBuildFiles = []string{"pom.xml", "build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts", "build.xml"}

// declareToolset declares the jvm toolset of the server's project.
func declareToolset(tb *toolkit.Toolbox, m Manager) {
	tb.DeclareToolset(toolkit.Toolset{Name: Toolset,
		Description: "JVM: attach the agent, invoke methods, logs, SQL, HTTP endpoints (DebugTools)",
		Wanted: func() bool {
			dir, err := m.ResolveProject("")
			return err == nil && (jvmProject(dir) || jvmRunning())
		},
		Lead: Lead})
}

func jvmProject(dir string) bool {
	for _, f := range jvmBuildFiles {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			return true
		}
	}
	return false
}

// jvmRunning reports whether a JVM one may attach runs: an hsperfdata
// file of a live process that is not an IDE's or a build daemon.
func jvmRunning() bool {
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	for _, f := range globPerf("/tmp") {
		pid, err := strconv.Atoi(filepath.Base(f))
		if err != nil || !proc.Exists(pid) {
			continue
		}
		if j, err := InspectJVM(ctx, pid); err == nil && !j.Hidden() {
			return true
		}
	}
	return false
}
