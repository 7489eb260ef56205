package sessions

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/adapters"
)

// debugpy describes its environment, every installed package's metadata
// read through importlib.metadata, for a log. dbg's hook skips that when
// no log records it: a launched debuggee stopped at a breakpoint has not
// searched the path for distributions (importlib.metadata's cache of
// searched path entries is empty). With DEBUGPY_LOG_DIR set, it has, and
// debugpy's log holds the description.
func TestPythonDescribesTheEnvironmentOnlyForALog(t *testing.T) {
	t.Parallel()
	prog := testdata(t, "python/loop.py")
	line := lineOf(t, prog, "# BREAK")
	logs := t.TempDir()
	for _, tc := range []struct {
		name string
		env  map[string]string
		// searched: whether the description was made in the debuggee.
		searched string
	}{
		{"no log", nil, "False"},
		{"log dir", map[string]string{"DEBUGPY_LOG_DIR": logs}, "True"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := pythonManager(t, adapters.NewPython())
			ctx := context.Background()
			s, _, err := m.Create(ctx, CreateRequest{Language: "python"})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.SetBreakpoint(ctx, BreakpointSpec{File: prog, Line: line}); err != nil {
				t.Fatal(err)
			}
			res, err := s.Launch(ctx, StartRequest{ScriptPath: prog, Env: tc.env, Wait: 60 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if res.State != StatePaused {
				t.Fatalf("launch: %+v", res)
			}
			if got := evalString(t, s, `str(__import__("importlib.metadata").metadata.FastPath.__new__.cache_info().currsize > 0)`); got != tc.searched {
				t.Errorf("distributions searched in the debuggee: %s, want %s", got, tc.searched)
			}
		})
	}
	found := false
	files, _ := filepath.Glob(filepath.Join(logs, "debugpy.server-*.log"))
	for _, f := range files {
		if b, err := os.ReadFile(f); err == nil && strings.Contains(string(b), "Installed packages:") {
			found = true
		}
	}
	if !found {
		t.Errorf("no debugpy.server log in %s describes the installed packages (%v)", logs, files)
	}
}
