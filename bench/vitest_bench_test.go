package bench

import (
	"os"
	"path/filepath"
	"testing"
)

// linkVitest links the pinned Vitest ($DBG_VITEST_DIR, as
// scripts/deps/tests.sh installs it) into a copy of the vitest fixture.
func linkVitest(b *testing.B, dir string) {
	cache := os.Getenv("DBG_VITEST_DIR")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, ".cache", "dbg-test", "vitest")
	}
	if _, err := os.Stat(filepath.Join(cache, "node_modules", "vitest", "vitest.mjs")); err != nil {
		b.Skip("vitest is not installed (scripts/install-test-deps.sh installs it)")
	}
	if err := os.Symlink(filepath.Join(cache, "node_modules"), filepath.Join(dir, "node_modules")); err != nil {
		b.Fatal(err)
	}
}
