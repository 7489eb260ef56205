package adapters

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbg-dev/dbg/safefs"
	"github.com/dbg-dev/dbg/safefs/attacker"
)

// Finding 1: the attacker makes the folder of delve's builds first
// (mkdir -m777 /tmp/dbg-go-build-<uid>) and renames her binary over the
// one delve will run. The build folder is now a private one of dbg's
// cache, and her rename fails.
func TestGoBuildFolderIsNoOtherUsersFolder(t *testing.T) {
	eve := attacker.New(t)
	attacker.ProtectedSymlinks(t)
	tmp := attacker.SharedTemp(t)
	t.Setenv("TMPDIR", tmp)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	hers := filepath.Join(tmp, fmt.Sprintf("dbg-go-build-%d", os.Getuid()))
	eve.MustRun(t, "sh", "-c", "mkdir -m 777 "+hers+" && chmod 777 "+hers+" && printf '#!/bin/sh\\necho owned\\n' > "+tmp+"/evil && chmod 755 "+tmp+"/evil")

	dir := goModule(t, "package main\n\nfunc main() {}\n")
	args, err := Go{BuildDir: t.TempDir()}.LaunchArgs(context.Background(), Target{Mode: Launch, Program: dir, Extra: map[string]any{"buildFlags": "-tags=x"}})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := args["output"].(string)
	if out == "" {
		t.Fatalf("no output path: %v", args)
	}
	defer os.Remove(out)
	if strings.HasPrefix(out, hers) {
		t.Fatalf("delve builds into the attacker's folder: %s", out)
	}
	fi, err := os.Lstat(filepath.Dir(out))
	if err != nil || safefs.Owner(fi) != os.Geteuid() || fi.Mode().Perm() != 0o700 {
		t.Fatalf("build folder %s: %v, %v; want a 0700 folder of uid %d", filepath.Dir(out), fi, err, os.Geteuid())
	}
	if res, err := eve.Run("mv", "-f", tmp+"/evil", out); err == nil {
		t.Fatalf("the attacker replaced %s: %s", out, res)
	}
	if fi, err := os.Lstat(out); err != nil || safefs.Owner(fi) != os.Geteuid() || fi.Size() != 0 {
		t.Fatalf("the output file is no longer dbg's: %v %v", fi, err)
	}
}
