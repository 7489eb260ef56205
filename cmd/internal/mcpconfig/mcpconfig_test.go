package mcpconfig

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestClientPaths(t *testing.T) {
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	want := map[string]string{
		"claude":   "/h/.claude.json",
		"codex":    "/h/.codex/config.toml",
		"cursor":   "/h/.cursor/mcp.json",
		"gemini":   "/h/.gemini/settings.json",
		"windsurf": "/h/.codeium/windsurf/mcp_config.json",
	}
	for name, path := range want {
		c, err := Find(strings.ToUpper(name))
		if err != nil {
			t.Fatal(err)
		}
		if got := c.Path("/h", getenv); got != path {
			t.Errorf("%s: %s, want %s", name, got, path)
		}
	}
	env["CLAUDE_CONFIG_DIR"], env["CODEX_HOME"] = "/c", "/x"
	for name, path := range map[string]string{"claude": "/c/.claude.json", "codex": "/x/config.toml"} {
		if c, _ := Find(name); c.Path("/h", getenv) != path {
			t.Errorf("%s with its variable: %s, want %s", name, c.Path("/h", getenv), path)
		}
	}
	for goos, dir := range map[string]string{"linux": "/h/.config/Code/User", "darwin": "/h/Library/Application Support/Code/User", "windows": "/h/AppData/Roaming/Code/User"} {
		if got := vscodeUserDir(goos, "/h", func(string) string { return "" }); got != filepath.FromSlash(dir) {
			t.Errorf("%s: %s, want %s", goos, got, dir)
		}
	}
	if got := vscodeUserDir("linux", "/h", func(string) string { return "/xdg" }); got != "/xdg/Code/User" {
		t.Errorf("XDG_CONFIG_HOME: %s", got)
	}
	if _, err := Find("emacs"); err == nil || !strings.Contains(err.Error(), Names()) {
		t.Errorf("unknown client: %v", err)
	}
	if Names() != "claude, codex, cursor, gemini, vscode, windsurf" {
		t.Errorf("names %s", Names())
	}
}

func TestPrepareApply(t *testing.T) {
	dir := t.TempDir()
	c, _ := Find("vscode")
	path := filepath.Join(dir, "new", "mcp.json")
	ed, err := Prepare(c, path, "dbg", Entry(c, "/d", "mcp"))
	if err != nil || ed.Exists || ed.Replaced || !strings.Contains(ed.Diff(), `"type": "stdio"`) {
		t.Fatalf("new file: %+v %v", ed, err)
	}
	if err := ed.CheckTracked(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := ed.Apply(); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("new file %v %v", st, err)
	}
	ed, err = Prepare(c, path, "dbg", Entry(c, "/d", "mcp"))
	if err != nil || !ed.Unchanged() {
		t.Fatalf("second install: %+v %v", ed, err)
	}
	ed, err = Prepare(c, path, "dbg", Entry(c, "/e", "mcp"))
	if err != nil || !ed.Replaced || !strings.Contains(ed.Diff(), "+      \"command\": \"/e\",") {
		t.Fatalf("replace: %+v %v", ed, err)
	}
	// A change made since Prepare read the file is kept.
	if err := os.WriteFile(path, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := ed.Apply(); err == nil || !strings.Contains(err.Error(), "changed while it was being edited") {
		t.Fatalf("concurrent change: %v", err)
	}

	codex, _ := Find("codex")
	bad := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(bad, []byte("mcp_servers = { dbg = {} }\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = Prepare(codex, bad, "dbg", Entry(codex, "/d"))
	if err == nil || !strings.Contains(err.Error(), "Add this to it by hand:\n\n[mcp_servers.dbg]\ncommand = \"/d\"\nargs = []\n") {
		t.Fatalf("refusal: %v", err)
	}
}
