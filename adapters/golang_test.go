package adapters

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// A launch.json mode "auto" or "debug" leaves the choice to the Go
// adapter; another mode is passed on.
func TestGoLaunchArgsModeFromLaunchJSON(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	test := filepath.Join(dir, "x_test.go")
	if err := os.WriteFile(test, []byte("package x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for extra, want := range map[string]string{"auto": "test", "debug": "test", "replay": "replay"} {
		args, err := Go{}.LaunchArgs(context.Background(), Target{Mode: Launch, Program: test, Extra: map[string]any{"mode": extra, "keep": 1}})
		if err != nil {
			t.Fatal(err)
		}
		if args["mode"] != want || args["keep"] != 1 {
			t.Errorf("extra mode %q: args %v, want mode %q", extra, args, want)
		}
	}
}
