package adapters

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func goModule(t *testing.T, main string) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	dir := t.TempDir()
	for name, body := range map[string]string{"go.mod": "module example.com/p\n\ngo 1.21\n", "main.go": main} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func inode(t *testing.T, p string) (uint64, time.Time) {
	t.Helper()
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return st.Sys().(*syscall.Stat_t).Ino, st.ModTime()
}

// A Go program launched from source is built once: a second launch of
// the unchanged program (restart_debugging) runs the same binary, and an
// edit builds a new one that prints the new value.
func TestGoLaunchReusesUnchangedBuild(t *testing.T) {
	t.Parallel()
	dir := goModule(t, "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"one\") }\n")
	g := Go{BuildDir: t.TempDir()}
	ctx := context.Background()
	launch := func() string {
		t.Helper()
		args, err := g.LaunchArgs(ctx, Target{Mode: Launch, Program: dir})
		if err != nil {
			t.Fatal(err)
		}
		if args["mode"] != "exec" {
			t.Fatalf("mode = %v, want exec of a prebuilt binary (args %v)", args["mode"], args)
		}
		if args["cwd"] != dir || args["dlvCwd"] != dir {
			t.Errorf("cwd %v, dlvCwd %v, want %s", args["cwd"], args["dlvCwd"], dir)
		}
		return args["program"].(string)
	}
	run := func(bin string) string {
		out, err := exec.Command(bin).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v %s", bin, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	bin := launch()
	if got := run(bin); got != "one" {
		t.Fatalf("first build prints %q", got)
	}
	ino, mt := inode(t, bin)
	if again := launch(); again != bin {
		t.Fatalf("second launch built %s, want %s", again, bin)
	}
	if ino2, mt2 := inode(t, bin); ino2 != ino || !mt2.Equal(mt) {
		t.Errorf("the unchanged program was rebuilt (inode %d→%d, mtime %v→%v)", ino, ino2, mt, mt2)
	}
	later := time.Now().Add(2 * time.Second)
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"two\") }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_ = os.Chtimes(filepath.Join(dir, "main.go"), later, later)
	if got := run(launch()); got != "two" {
		t.Errorf("after the edit the binary prints %q, want two", got)
	}
	// Another file of the module (an embedded or helper file) counts too.
	if err := os.WriteFile(filepath.Join(dir, "extra.go"), []byte("package main\n\nfunc init() { println(\"init\") }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := run(launch()); got != "init\ntwo" {
		t.Errorf("after adding a file the binary prints %q", got)
	}
}

// A program that does not build is left to delve, which reports the
// compiler's error as before.
func TestGoLaunchBuildFailureLeftToDelve(t *testing.T) {
	t.Parallel()
	dir := goModule(t, "package main\n\nfunc main() { undefined() }\n")
	args, err := Go{BuildDir: t.TempDir()}.LaunchArgs(context.Background(), Target{Mode: Launch, Program: dir})
	if err != nil {
		t.Fatal(err)
	}
	if args["mode"] != "debug" || args["program"] != dir {
		t.Errorf("args %v, want delve's own debug build of %s", args, dir)
	}
	if out, _ := args["output"].(string); out == "" {
		t.Errorf("no output path outside the tree: %v", args)
	}
}

// Build flags and an output path of the launch go to delve's own build.
func TestGoLaunchOwnBuildOptions(t *testing.T) {
	t.Parallel()
	dir := goModule(t, "package main\n\nfunc main() {}\n")
	for _, extra := range []map[string]any{{"buildFlags": "-tags=x"}, {"output": filepath.Join(t.TempDir(), "b")}} {
		args, err := Go{BuildDir: t.TempDir()}.LaunchArgs(context.Background(), Target{Mode: Launch, Program: dir, Extra: extra})
		if err != nil {
			t.Fatal(err)
		}
		if args["mode"] != "debug" {
			t.Errorf("extra %v: mode %v, want debug", extra, args["mode"])
		}
	}
}

func TestLocalReplace(t *testing.T) {
	t.Parallel()
	for gomod, want := range map[string]bool{
		"module a\nreplace b => ../b\n":            true,
		"module a\nreplace b => /abs/b\n":          true,
		"module a\nreplace b v1.0.0 => c v1.2.0\n": false,
		"module a\nrequire b v1.0.0\n":             false,
	} {
		if got := localReplace(gomod); got != want {
			t.Errorf("localReplace(%q) = %v", gomod, got)
		}
	}
}

// A single .go file outside any module is built and reused too; a file
// in a subfolder does not count.
func TestGoLaunchFileOutsideModule(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "hello.go")
	if err := os.WriteFile(src, []byte("package main\n\nfunc main() { println(\"hi\") }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g := Go{BuildDir: t.TempDir()}
	first, err := g.LaunchArgs(context.Background(), Target{Mode: Launch, Program: src})
	if err != nil || first["mode"] != "exec" {
		t.Fatalf("args %v %v, want exec of a prebuilt binary", first, err)
	}
	ino, mt := inode(t, first["program"].(string))
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sub", "other.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	again, err := g.LaunchArgs(context.Background(), Target{Mode: Launch, Program: src})
	if err != nil || again["program"] != first["program"] {
		t.Fatalf("second launch %v %v", again, err)
	}
	if ino2, mt2 := inode(t, again["program"].(string)); ino2 != ino || !mt2.Equal(mt) {
		t.Error("the unchanged file was rebuilt")
	}
}

func TestGoModulePath(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if got := GoModulePath(dir); got != "" {
		t.Fatalf("no go.mod: %q, want none", got)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("// a comment\n  module \"example.com/q\" \n\ngo 1.21\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := GoModulePath(dir); got != "example.com/q" {
		t.Fatalf("GoModulePath = %q, want example.com/q", got)
	}
}
