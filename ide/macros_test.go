package ide

import (
	"path/filepath"
	"testing"
)

func TestModuleDirMacro(t *testing.T) {
	t.Parallel()
	dir := fixture(t, "intellij-app")
	mx := newMacros(dir)
	if got := mx.expand("$MODULE_DIR$/x", "app"); got != filepath.Join(dir, "app")+"/x" {
		t.Errorf("MODULE_DIR = %q", got)
	}
	if got := mx.expand("$MODULE_DIR$", "unknown"); got != dir {
		t.Errorf("unknown module dir = %q", got)
	}
	if got := mx.path("rel/p", ""); got != filepath.Join(dir, "rel", "p") {
		t.Errorf("relative path = %q", got)
	}
}
