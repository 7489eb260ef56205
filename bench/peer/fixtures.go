package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// A fixture is one language's loop program from testdata/ with where to
// stop in it and what to evaluate there.
type fixture struct {
	lang   string
	source string // the file the breakpoint is set in
	line   int
	expr   string
	// program is start_debugging's scriptPath; classpath, for Java, the
	// folder the class was compiled to (so neither server compiles it in
	// the timed part).
	program, classpath string
}

// fixtureSpecs are the fixtures by language: file under testdata/, the
// marker comment of the breakpoint line, the expression.
var fixtureSpecs = map[string][3]string{
	"python":     {"python/loop.py", "# BREAK", "total + 10"},
	"go":         {"go/loop/main.go", "// BREAK", "total + 10"},
	"javascript": {"javascript/loop.js", "// BP:loop", "total + 10"},
	"java":       {"java/Loop.java", "// BP:loop", "sum + i"},
}

// loadFixture finds lang's fixture under root/testdata; for Java it
// compiles Loop.java with javac -g from javaHome into tmp.
func loadFixture(root, lang, javaHome, tmp string) (fixture, error) {
	spec, ok := fixtureSpecs[lang]
	if !ok {
		return fixture{}, fmt.Errorf("no fixture for language %q", lang)
	}
	src := filepath.Join(root, "testdata", spec[0])
	data, err := os.ReadFile(src)
	if err != nil {
		return fixture{}, err
	}
	line := markerLine(string(data), spec[1])
	if line == 0 {
		return fixture{}, fmt.Errorf("%s: no line marked %q", src, spec[1])
	}
	fx := fixture{lang: lang, source: src, line: line, expr: spec[2], program: src}
	if lang == "java" {
		fx.classpath = filepath.Join(tmp, "java-classes")
		javac := "javac"
		if javaHome != "" {
			javac = filepath.Join(javaHome, "bin", "javac")
		}
		if out, err := exec.Command(javac, "-g", "-d", fx.classpath, src).CombinedOutput(); err != nil {
			return fixture{}, fmt.Errorf("javac: %w: %s", err, clip(string(out)))
		}
	}
	return fx, nil
}

// markerLine is the 1-based number of the first line ending in marker, 0
// when there is none.
func markerLine(text, marker string) int {
	for i, l := range strings.Split(text, "\n") {
		if strings.HasSuffix(strings.TrimSpace(l), marker) {
			return i + 1
		}
	}
	return 0
}

// dbgStart is dbg's start_debugging for fx: a Java class by name on its
// classpath, any other program by path.
func dbgStart(fx fixture) map[string]any {
	args := map[string]any{"scriptPath": fx.program, "dapLaunchArgs": map[string]any{"stopOnEntry": false}}
	if fx.lang == "java" {
		args["scriptPath"] = "Loop"
		args["adapterLaunchConfig"] = map[string]any{"classpath": fx.classpath}
	}
	return args
}

// peerStart is mcp-debugger's: its Java adapter takes the main class from
// the .java name and the classpath and source path from the launch
// arguments.
func peerStart(fx fixture) map[string]any {
	launch := map[string]any{"stopOnEntry": false}
	if fx.lang == "java" {
		launch["classpath"] = fx.classpath
		launch["sourcePath"] = filepath.Dir(fx.source)
	}
	return map[string]any{"scriptPath": fx.program, "dapLaunchArgs": launch}
}
