package testrun

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// A JUnit project's build and discovery take seconds, most of them the
// build tool's start. Their result is kept in the project's build folder
// (target/dbg-junit.json, build/dbg-junit.json) under a fingerprint of
// every file of the project outside its build output, of its parent's
// pom.xml, of the user's Maven settings and of the run's environment:
// while none of those changed, a list_tests or debug_test reuses it and
// runs neither the build tool nor the discovery (a debug_test after
// list_tests, a second run of a test). Any edit, a `mvn clean`, a
// dependency gone from the local repository, or a SNAPSHOT dependency
// (which can change without the project changing) builds again.

// junitCacheVersion changes when the cached content does.
const junitCacheVersion = "2"

// maxFingerprintFiles bounds the project walk; a larger project is
// built every time.
const maxFingerprintFiles = 20000

// junitBuildDirs are build output and tool folders, which are not the
// project's sources.
var junitBuildDirs = map[string]bool{"target": true, "build": true, ".git": true, ".gradle": true, ".idea": true, ".vscode": true, "node_modules": true}

// junitCached is the cache file's content.
type junitCached struct {
	Fingerprint string   `json:"fingerprint"`
	Tool        string   `json:"tool"`
	Command     string   `json:"command"`
	Classpath   string   `json:"classpath"`
	TestClasses []string `json:"testClasses"`
	Launcher    string   `json:"launcher,omitempty"`
	Declared    bool     `json:"declared,omitempty"`
	InitScript  string   `json:"initScript,omitempty"`
	Surefire    string   `json:"surefire,omitempty"`
	// Methods are the discovery's MethodSource lines.
	Methods []string `json:"methods"`
}

// junitCacheFile is the cache file of the project at dir.
func junitCacheFile(dir, tool string) string {
	out := "target"
	if tool == "gradle" {
		out = "build"
	}
	return filepath.Join(dir, out, "dbg-junit.json")
}

// projectFingerprint digests the project's files, its parent's pom.xml,
// the user's Maven settings and the environment the build sees; ok is
// false for a project too large to walk.
func projectFingerprint(p *Project) (string, bool) {
	var lines []string
	n := 0
	err := filepath.WalkDir(p.Dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != p.Dir && junitBuildDirs[d.Name()] {
				return filepath.SkipDir
			}
			return nil
		}
		if n++; n > maxFingerprintFiles {
			return fs.SkipAll
		}
		lines = append(lines, statLine(path))
		return nil
	})
	if err != nil || n > maxFingerprintFiles {
		return "", false
	}
	home, _ := os.UserHomeDir()
	lines = append(lines, statLine(filepath.Join(filepath.Dir(p.Dir), "pom.xml")), statLine(filepath.Join(home, ".m2", "settings.xml")))
	for _, k := range []string{"MAVEN_OPTS", "GRADLE_OPTS", "JAVA_HOME", "PATH", "MAVEN_ARGS"} {
		lines = append(lines, "env "+k+"="+os.Getenv(k))
	}
	for k, v := range p.Env {
		lines = append(lines, "run "+k+"="+v)
	}
	sort.Strings(lines)
	h := sha256.New()
	fmt.Fprintln(h, junitCacheVersion, p.Dir)
	for _, l := range lines {
		fmt.Fprintln(h, l)
	}
	return hex.EncodeToString(h.Sum(nil)), true
}

// statLine is a file's path, size and modification time ("-" when absent).
func statLine(path string) string {
	st, err := os.Stat(path)
	if err != nil {
		return path + " -"
	}
	return fmt.Sprintf("%s %d %d", path, st.Size(), st.ModTime().UnixNano())
}

// loadJunitCache returns the cached build and discovery of the project
// when its fingerprint is fp and every file they name is still there.
func loadJunitCache(p *Project, tool, fp string) (*junitBuild, string, bool) {
	b, err := os.ReadFile(junitCacheFile(p.Dir, tool))
	if err != nil {
		return nil, "", false
	}
	var c junitCached
	if json.Unmarshal(b, &c) != nil || c.Fingerprint != fp || c.Tool != tool {
		return nil, "", false
	}
	files := append(filepath.SplitList(c.Classpath), c.TestClasses...)
	for _, f := range append(files, c.Command, c.Launcher, c.InitScript) {
		if _, err := os.Stat(f); f != "" && err != nil {
			return nil, "", false
		}
	}
	jb := &junitBuild{tool: c.Tool, command: c.Command, classpath: c.Classpath, testClasses: c.TestClasses,
		launcher: c.Launcher, declared: c.Declared, initScript: c.InitScript, surefire: c.Surefire}
	return jb, strings.Join(c.Methods, "\n"), true
}

// saveJunitCache keeps a build and its discovery's output; a classpath
// with a SNAPSHOT dependency is not kept.
func saveJunitCache(p *Project, fp string, b *junitBuild, discovery string) {
	if strings.Contains(b.classpath, "-SNAPSHOT") {
		return
	}
	c := junitCached{Fingerprint: fp, Tool: b.tool, Command: b.command, Classpath: b.classpath, TestClasses: b.testClasses,
		Launcher: b.launcher, Declared: b.declared, InitScript: b.initScript, Surefire: b.surefire, Methods: []string{}}
	for _, l := range strings.Split(discovery, "\n") {
		if junitMethodSource.MatchString(l) {
			c.Methods = append(c.Methods, strings.TrimSpace(l))
		}
	}
	data, err := json.Marshal(c)
	if err != nil {
		return
	}
	path := junitCacheFile(p.Dir, b.tool)
	if _, err := os.Stat(filepath.Dir(path)); err != nil {
		return // no build folder: the build wrote elsewhere
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "dbg-junit-*.tmp")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), path) != nil {
		os.Remove(tmp.Name())
	}
}
