package javadap

import (
	"bufio"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// JDK is an installed Java development kit.
type JDK struct {
	Home    string // the directory with bin/java and the release file
	Version string // JAVA_VERSION of the release file: "17.0.15", "25.0.3"
}

// Feature is the JDK's feature release number: 17 for "17.0.15", 8 for
// "1.8.0_392", 0 when unknown.
func (j JDK) Feature() int {
	v := strings.TrimPrefix(j.Version, "1.")
	if i := strings.IndexAny(v, ".+-_"); i >= 0 {
		v = v[:i]
	}
	n, _ := strconv.Atoi(v)
	return n
}

// Java is the JDK's java executable.
func (j JDK) Java() string { return filepath.Join(j.Home, "bin", "java") }

// jvmDirs are where Linux distributions and the Temurin packages install
// JDKs.
var jvmDirs = []string{"/usr/lib/jvm", "/usr/java", "/opt/java"}

// JDKOfJava returns the JDK a java executable belongs to (its symbolic
// links followed), ok=false when it is not in a JDK with a release file.
func JDKOfJava(java string) (JDK, bool) {
	p, err := filepath.EvalSymlinks(java)
	if err != nil {
		return JDK{}, false
	}
	home := filepath.Dir(filepath.Dir(p))
	v := releaseVersion(home)
	if v == "" {
		return JDK{}, false
	}
	return JDK{Home: home, Version: v}, true
}

// InstalledJDKs lists the JDKs (with javac) under the usual install
// directories and $JAVA_HOME, one per real directory, by feature release.
func InstalledJDKs() []JDK {
	var homes []string
	if h := os.Getenv("JAVA_HOME"); h != "" {
		homes = append(homes, h)
	}
	for _, d := range jvmDirs {
		ents, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range ents {
			homes = append(homes, filepath.Join(d, e.Name()))
		}
	}
	seen := map[string]bool{}
	var out []JDK
	for _, h := range homes {
		real, err := filepath.EvalSymlinks(h)
		if err != nil || seen[real] {
			continue
		}
		seen[real] = true
		if _, err := os.Stat(filepath.Join(real, "bin", "javac")); err != nil {
			continue
		}
		if v := releaseVersion(real); v != "" {
			out = append(out, JDK{Home: real, Version: v})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Feature() < out[j].Feature() })
	return out
}

// releaseVersion reads JAVA_VERSION from a JDK's release file.
func releaseVersion(home string) string {
	f, err := os.Open(filepath.Join(home, "release"))
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "JAVA_VERSION="); ok {
			return strings.Trim(v, `"`)
		}
	}
	return ""
}
