package testrun

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/dbg-dev/dbg/safefs/attacker"
)

// Finding 7: the attacker links the report paths Jest and RSpec write
// (/tmp/dbg-rspec-<pid>.json, /tmp/dbg-jest-<pid>.json) to a file of the
// victim's, which the runner then overwrites. Reports now go to new files
// of unpredictable names in a private folder: the victim's file stays as
// it was, and discovery still reads the runner's own report.
func TestReportFilesAreNoOtherUsersLinks(t *testing.T) {
	eve := attacker.New(t)
	attacker.ProtectedSymlinks(t)
	tmp := attacker.SharedTemp(t)
	t.Setenv("TMPDIR", tmp)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	victim := filepath.Join(t.TempDir(), "victim.txt")
	if err := os.WriteFile(victim, []byte("the victim's file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_ = os.Chmod(filepath.Dir(victim), 0o755)
	for _, tool := range []string{"rspec", "jest"} {
		eve.MustRun(t, "ln", "-s", victim, filepath.Join(tmp, fmt.Sprintf("dbg-%s-%d.json", tool, os.Getpid())))
	}
	ctx := context.Background()
	check := func(tool string, ids []TestID, err error) {
		t.Helper()
		if err != nil || len(ids) == 0 {
			t.Errorf("%s discovery: %v, %v", tool, ids, err)
		}
		if b, _ := os.ReadFile(victim); string(b) != "the victim's file\n" {
			t.Fatalf("%s wrote through the attacker's link: the victim's file now holds %.80q", tool, b)
		}
	}
	if _, err := exec.LookPath("rspec"); err != nil {
		t.Errorf("rspec is not installed (scripts/deps installs it): %v", err)
	} else {
		ids, err := listRspec(ctx, &Project{Dir: filepath.Join(fixtures(t), "rspec")}, "")
		check("rspec", ids, err)
	}
	jest := os.Getenv("DBG_JEST_DIR")
	if jest == "" {
		home, _ := os.UserHomeDir()
		jest = filepath.Join(home, ".cache", "dbg-test", "jest")
	}
	if _, err := os.Stat(filepath.Join(jest, "node_modules", "jest", "bin", "jest.js")); err != nil {
		t.Logf("jest is not installed (scripts/install-test-deps.sh installs it): only RSpec was tried")
		return
	}
	dir := t.TempDir()
	writeFile(t, dir, "package.json", `{"name": "f", "version": "1.0.0"}`)
	writeFile(t, dir, "__tests__/a.test.js", "test('total', () => { expect(1).toBe(1); });\n")
	if err := os.Symlink(filepath.Join(jest, "node_modules"), filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	ids, err := listJest(ctx, &Project{Dir: dir}, "")
	check("jest", ids, err)
}
