package adapters

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A package's tests launched by mode "test" (debug_test's way) are built
// once like a _test.go file's: the launch runs the cached test binary
// ("exec"), a second launch runs the same one, and the binary holds the
// package's tests.
func TestGoLaunchTestModeReusesUnchangedBuild(t *testing.T) {
	t.Parallel()
	dir := goModule(t, "package main\n\nfunc main() {}\n")
	test := "package main\n\nimport \"testing\"\n\nfunc TestOne(t *testing.T) {}\n"
	if err := os.WriteFile(filepath.Join(dir, "main_test.go"), []byte(test), 0o644); err != nil {
		t.Fatal(err)
	}
	g := Go{BuildDir: t.TempDir()}
	ctx := context.Background()
	launch := func() string {
		t.Helper()
		args, err := g.LaunchArgs(ctx, Target{Mode: Launch, Program: dir, Cwd: dir, Extra: map[string]any{"mode": "test"}})
		if err != nil {
			t.Fatal(err)
		}
		if args["mode"] != "exec" {
			t.Fatalf("mode = %v, want exec of a prebuilt test binary (args %v)", args["mode"], args)
		}
		return args["program"].(string)
	}
	bin := launch()
	out, err := exec.Command(bin, "-test.list", ".").CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "TestOne" {
		t.Fatalf("%s -test.list: %v %s", bin, err, out)
	}
	ino, mod := inode(t, bin)
	if again := launch(); again != bin {
		t.Fatalf("second launch runs %s, want %s", again, bin)
	}
	if ino2, mod2 := inode(t, bin); ino2 != ino || !mod2.Equal(mod) {
		t.Error("the unchanged test binary was built again")
	}
}
