package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
)

// mcpiEnv is a factory whose home is a fresh temporary directory and
// whose client-specific variables are unset.
func mcpiEnv(t *testing.T) (*factory, string, *bytes.Buffer) {
	t.Helper()
	home := t.TempDir()
	ios, _, stdout, _ := iostreams.Test()
	e := &factory{io: ios, now: time.Now, registry: adapters.Default,
		getenv: func(k string) string {
			switch k {
			case "HOME":
				return home
			case "XDG_CONFIG_HOME", "CODEX_HOME", "CLAUDE_CONFIG_DIR", "APPDATA":
				return ""
			}
			return os.Getenv(k)
		}}
	return e, home, stdout
}

// mcpiRun runs `dbg mcp install args...` in-process.
func mcpiRun(t *testing.T, e *factory, args ...string) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	root := newCmdRoot(e)
	root.SetArgs(append([]string{"mcp", "install"}, args...))
	return root.ExecuteContext(ctx)
}

var (
	mcpiLineComment  = regexp.MustCompile(`//[^\n]*`)
	mcpiBlockComment = regexp.MustCompile(`(?s)/\*.*?\*/`)
	mcpiTrailing     = regexp.MustCompile(`,(\s*[}\]])`)
)

// mcpiDecode decodes JSONC written by the tests (no "//" inside
// strings) independently of the code under test.
func mcpiDecode(t *testing.T, b []byte) map[string]any {
	t.Helper()
	s := mcpiBlockComment.ReplaceAllString(string(b), "")
	s = mcpiLineComment.ReplaceAllString(s, "")
	s = mcpiTrailing.ReplaceAllString(s, "$1")
	var v map[string]any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("result is not JSON with comments: %v\n%s", err, b)
	}
	return v
}

func mcpiRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mcpiWrite(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

// mcpiCheckEntry checks v[key][name] is a server running command with args.
func mcpiCheckEntry(t *testing.T, v map[string]any, key, name string, stdio bool, command string, args ...string) {
	t.Helper()
	servers, ok := v[key].(map[string]any)
	if !ok {
		t.Fatalf("no %q object in %v", key, v)
	}
	entry, ok := servers[name].(map[string]any)
	if !ok {
		t.Fatalf("no %q server in %v", name, servers)
	}
	want := map[string]any{"command": command}
	if len(args) > 0 {
		want["args"] = mcpiAny(args)
	}
	if stdio {
		want["type"] = "stdio"
	}
	got, _ := json.Marshal(entry)
	wantJSON, _ := json.Marshal(want)
	if string(got) != string(wantJSON) {
		t.Fatalf("entry = %s, want %s", got, wantJSON)
	}
}

func mcpiAny(l []string) []any {
	out := make([]any, len(l))
	for i, s := range l {
		out[i] = s
	}
	return out
}

// mcpiNoTemp fails when the atomic write left files behind in dir.
func mcpiNoTemp(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

type mcpiCase struct {
	client string
	rel    string // path under home
	key    string
	stdio  bool
}

func mcpiJSONCases() []mcpiCase {
	vscode := filepath.Join(".config", "Code", "User", "mcp.json")
	switch runtime.GOOS {
	case "darwin":
		vscode = filepath.Join("Library", "Application Support", "Code", "User", "mcp.json")
	case "windows":
		vscode = filepath.Join("AppData", "Roaming", "Code", "User", "mcp.json")
	}
	return []mcpiCase{
		{"claude", ".claude.json", "mcpServers", true},
		{"cursor", filepath.Join(".cursor", "mcp.json"), "mcpServers", false},
		{"vscode", vscode, "servers", true},
		{"windsurf", filepath.Join(".codeium", "windsurf", "mcp_config.json"), "mcpServers", false},
		{"gemini", filepath.Join(".gemini", "settings.json"), "mcpServers", false},
	}
}

func TestMCPInstallFreshHome(t *testing.T) {
	t.Parallel()
	for _, tc := range mcpiJSONCases() {
		t.Run(tc.client, func(t *testing.T) {
			e, home, out := mcpiEnv(t)
			project := t.TempDir()
			if err := mcpiRun(t, e, "--client", tc.client, "--command", "/opt/dbg/bin/dbg", "--project", project); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(home, tc.rel)
			b := mcpiRead(t, path)
			var v map[string]any
			if err := json.Unmarshal(b, &v); err != nil {
				t.Fatalf("new file is not plain JSON: %v\n%s", err, b)
			}
			mcpiCheckEntry(t, v, tc.key, "dbg", tc.stdio, "/opt/dbg/bin/dbg", "mcp", "--project", project)
			if len(v) != 1 {
				t.Errorf("new file holds more than %q: %s", tc.key, b)
			}
			if !strings.Contains(out.String(), "Added MCP server \"dbg\" to "+path) {
				t.Errorf("output does not say what was written where:\n%s", out)
			}
			if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("new file mode = %v, %v; want 0600", fi.Mode(), err)
			}
			mcpiNoTemp(t, filepath.Dir(path))
		})
	}
	t.Run("codex", func(t *testing.T) {
		e, home, out := mcpiEnv(t)
		if err := mcpiRun(t, e, "--client", "codex", "--command", `C:\dbg "x"\dbg.exe`, "--name", "my dbg"); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(home, ".codex", "config.toml")
		want := "[mcp_servers.\"my dbg\"]\ncommand = \"C:\\\\dbg \\\"x\\\"\\\\dbg.exe\"\nargs = [\"mcp\"]\n"
		if got := string(mcpiRead(t, path)); got != want {
			t.Fatalf("config.toml =\n%s\nwant\n%s", got, want)
		}
		if !strings.Contains(out.String(), path) {
			t.Errorf("output does not name %s:\n%s", path, out)
		}
	})
}

func TestMCPInstallKeepsCommentsAndServers(t *testing.T) {
	t.Parallel()
	for _, tc := range mcpiJSONCases() {
		t.Run(tc.client, func(t *testing.T) {
			e, home, out := mcpiEnv(t)
			path := filepath.Join(home, tc.rel)
			orig := `{
  // servers I use
  "theme": "dark", /* block
  comment */
  "` + tc.key + `": {
    "other": {
      "command": "node",
      "args": ["server.js"], // the other one
    }, // keep me
  },
  "projects": {"/p": {"` + tc.key + `": {"x": {"command": "y"}}}},
}
`
			mcpiWrite(t, path, orig, 0o644)
			if err := mcpiRun(t, e, "--client", tc.client, "--command", "/usr/bin/dbg"); err != nil {
				t.Fatal(err)
			}
			b := mcpiRead(t, path)
			for _, c := range []string{"// servers I use", "/* block\n  comment */", "// the other one", "// keep me"} {
				if !bytes.Contains(b, []byte(c)) {
					t.Errorf("comment %q lost:\n%s", c, b)
				}
			}
			v := mcpiDecode(t, b)
			mcpiCheckEntry(t, v, tc.key, "dbg", tc.stdio, "/usr/bin/dbg", "mcp")
			mcpiCheckEntry(t, v, tc.key, "other", false, "node", "server.js")
			if v["theme"] != "dark" {
				t.Errorf("theme lost: %v", v)
			}
			nested := v["projects"].(map[string]any)["/p"].(map[string]any)[tc.key].(map[string]any)
			if _, ok := nested["dbg"]; ok || len(nested) != 1 {
				t.Errorf("a nested %q object was edited: %v", tc.key, nested)
			}
			if strings.Contains(out.String(), "Replaced") {
				t.Errorf("output says replaced on a first install:\n%s", out)
			}

			// A second install with another command replaces the entry.
			out.Reset()
			if err := mcpiRun(t, e, "--client", tc.client, "--command", "/new/dbg", "--project", "/srv/app"); err != nil {
				t.Fatal(err)
			}
			b2 := mcpiRead(t, path)
			v = mcpiDecode(t, b2)
			mcpiCheckEntry(t, v, tc.key, "dbg", tc.stdio, "/new/dbg", "mcp", "--project", "/srv/app")
			mcpiCheckEntry(t, v, tc.key, "other", false, "node", "server.js")
			if n := bytes.Count(b2, []byte(`"dbg"`)); n != 1 {
				t.Errorf(`"dbg" appears %d times:\n%s`, n, b2)
			}
			if !bytes.Contains(b2, []byte("// keep me")) {
				t.Errorf("comment lost on replace:\n%s", b2)
			}
			if !strings.Contains(out.String(), `Replaced existing MCP server "dbg" in `+path) {
				t.Errorf("output does not say the entry was replaced:\n%s", out)
			}
		})
	}
}

func TestMCPInstallRefusesUnsafeJSON(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, in, why string }{
		{"broken", "{\n  \"mcpServers\": {\n", "cannot parse"},
		{"array at the top", "[]", "not an object"},
		{"servers not an object", `{"mcpServers": []}`, "not an object"},
		{"servers twice", `{"mcpServers": {}, "mcpServers": {}}`, "twice"},
		{"only comments", "// nothing\n", "only comments"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, home, _ := mcpiEnv(t)
			path := filepath.Join(home, ".cursor", "mcp.json")
			mcpiWrite(t, path, tc.in, 0o644)
			err := mcpiRun(t, e, "--client", "cursor", "--command", "/d")
			if err == nil || !strings.Contains(err.Error(), tc.why) || !strings.Contains(err.Error(), path) ||
				!strings.Contains(err.Error(), `"dbg": {`) {
				t.Fatalf("err = %v; want a refusal naming %s, saying %q, with the snippet", err, path, tc.why)
			}
			if got := string(mcpiRead(t, path)); got != tc.in {
				t.Errorf("refused file changed:\n%s", got)
			}
		})
	}
}

// TestMCPInstallCodexReplaces replaces the entry of a config.toml in
// place, keeping its mode (the exact edits are tested in ide/cfgfile).
func TestMCPInstallCodexReplaces(t *testing.T) {
	t.Parallel()
	e, home, out := mcpiEnv(t)
	path := filepath.Join(home, ".codex", "config.toml")
	orig := "model = \"o3\" # default model\n\n[mcp_servers.dbg]\ncommand = \"old\"\n\n[mcp_servers.dbg.env]\nA = \"1\"\n\n[profiles.fast]\n"
	mcpiWrite(t, path, orig, 0o640)
	if err := mcpiRun(t, e, "--client", "codex", "--command", "/usr/local/bin/dbg", "--project", "/work/app"); err != nil {
		t.Fatal(err)
	}
	want := "model = \"o3\" # default model\n\n[mcp_servers.dbg]\ncommand = \"/usr/local/bin/dbg\"\nargs = [\"mcp\", \"--project\", \"/work/app\"]\n\n[profiles.fast]\n"
	if got := string(mcpiRead(t, path)); got != want {
		t.Fatalf("config.toml =\n%s\nwant\n%s", got, want)
	}
	if !strings.Contains(out.String(), `Replaced existing MCP server "dbg" in `+path) {
		t.Errorf("output does not say the entry was replaced:\n%s", out)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode = %v, want 0640", fi.Mode())
	}
	// A file it cannot edit is refused with the table to add by hand.
	mcpiWrite(t, path, "mcp_servers = { dbg = {} }\n", 0o600)
	err := mcpiRun(t, e, "--client", "codex", "--command", "/d")
	if err == nil || !strings.Contains(err.Error(), "Add this to it by hand:\n\n[mcp_servers.dbg]\ncommand = \"/d\"\n") {
		t.Fatalf("inline table: %v", err)
	}
}

func TestMCPInstallGitTrackedRefused(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed (scripts/deps/ide.sh installs it)")
	}
	repo := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+repo)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	tracked := filepath.Join(repo, "sub", "mcp.json")
	orig := "{\n  \"mcpServers\": {}\n}\n"
	mcpiWrite(t, tracked, orig, 0o644)
	git("add", "sub/mcp.json")
	git("commit", "-q", "-m", "config")

	for _, dry := range []bool{false, true} {
		e, _, _ := mcpiEnv(t)
		args := []string{"--client", "cursor", "--path", tracked, "--command", "/d"}
		if dry {
			args = append(args, "--dry-run")
		}
		err := mcpiRun(t, e, args...)
		if err == nil || !strings.Contains(err.Error(), tracked) || !strings.Contains(err.Error(), "git tracks it") ||
			!strings.Contains(err.Error(), "\"mcpServers\": {\n  \"dbg\": {\n    \"command\": \"/d\",") {
			t.Fatalf("dry-run %v: err = %v; want a refusal naming the file with the snippet", dry, err)
		}
		if got := string(mcpiRead(t, tracked)); got != orig {
			t.Fatalf("tracked file changed:\n%s", got)
		}
	}

	// An untracked file in the same repository is edited.
	untracked := filepath.Join(repo, "sub", "other.json")
	mcpiWrite(t, untracked, orig, 0o644)
	e, _, _ := mcpiEnv(t)
	if err := mcpiRun(t, e, "--client", "cursor", "--path", untracked, "--command", "/d"); err != nil {
		t.Fatalf("untracked file refused: %v", err)
	}
	mcpiCheckEntry(t, mcpiDecode(t, mcpiRead(t, untracked)), "mcpServers", "dbg", false, "/d", "mcp")
}

func TestMCPInstallDryRunWritesNothing(t *testing.T) {
	t.Parallel()
	e, home, out := mcpiEnv(t)
	if err := mcpiRun(t, e, "--client", "gemini", "--command", "/d", "--dry-run"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(home, ".gemini")); !os.IsNotExist(err) {
		t.Fatalf("dry run created files: %v", err)
	}
	if !strings.Contains(out.String(), "Dry run") || !strings.Contains(out.String(), `"command": "/d"`) {
		t.Errorf("dry run does not show the new file:\n%s", out)
	}

	path := filepath.Join(home, ".cursor", "mcp.json")
	orig := "{\n  // c\n  \"mcpServers\": {}\n}\n"
	mcpiWrite(t, path, orig, 0o644)
	before, _ := os.Stat(path)
	out.Reset()
	if err := mcpiRun(t, e, "--client", "cursor", "--command", "/d", "--dry-run"); err != nil {
		t.Fatal(err)
	}
	if got := string(mcpiRead(t, path)); got != orig {
		t.Fatalf("dry run changed the file:\n%s", got)
	}
	if after, _ := os.Stat(path); !after.ModTime().Equal(before.ModTime()) {
		t.Error("dry run touched the file")
	}
	mcpiNoTemp(t, filepath.Dir(path))
	for _, l := range []string{"-  \"mcpServers\": {}", "+  \"mcpServers\": {", "+      \"command\": \"/d\",", "   // c"} {
		if !strings.Contains(out.String(), l+"\n") {
			t.Errorf("diff lacks %q:\n%s", l, out)
		}
	}
}

func TestMCPInstallUnknownClient(t *testing.T) {
	t.Parallel()
	e, home, _ := mcpiEnv(t)
	err := mcpiRun(t, e, "--client", "emacs", "--command", "/d")
	if err == nil || !strings.Contains(err.Error(), `unknown client "emacs"`) ||
		!strings.Contains(err.Error(), "claude, codex, cursor, gemini, vscode, windsurf") {
		t.Fatalf("err = %v; want the known clients listed", err)
	}
	err = mcpiRun(t, e, "--command", "/d")
	if err == nil || !strings.Contains(err.Error(), "--client is required") || !strings.Contains(err.Error(), "vscode") {
		t.Fatalf("err = %v; want --client required with the known clients", err)
	}
	if ents, _ := os.ReadDir(home); len(ents) != 0 {
		t.Errorf("failed install wrote into home: %v", ents)
	}
}

func TestMCPInstallKeepsFileMode(t *testing.T) {
	t.Parallel()
	e, home, _ := mcpiEnv(t)
	path := filepath.Join(home, ".claude.json")
	mcpiWrite(t, path, `{"numStartups": 3, "mcpServers": {"a": {"command": "b"}}}`, 0o640)
	if err := mcpiRun(t, e, "--client", "claude", "--command", "/d"); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o640 {
		t.Errorf("mode = %v, want 0640", fi.Mode())
	}
	var v map[string]any
	if err := json.Unmarshal(mcpiRead(t, path), &v); err != nil {
		t.Fatalf("plain JSON became invalid: %v", err)
	}
	mcpiCheckEntry(t, v, "mcpServers", "dbg", true, "/d", "mcp")
	mcpiCheckEntry(t, v, "mcpServers", "a", false, "b")
	if v["numStartups"] != 3.0 {
		t.Errorf("numStartups lost: %v", v)
	}
	mcpiNoTemp(t, home)
}

func TestMCPInstallFollowsSymlink(t *testing.T) {
	t.Parallel()
	e, home, _ := mcpiEnv(t)
	dotfiles := t.TempDir()
	target := filepath.Join(dotfiles, "mcp.json")
	mcpiWrite(t, target, "{}", 0o600)
	link := filepath.Join(home, ".cursor", "mcp.json")
	if err := os.MkdirAll(filepath.Dir(link), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	if err := mcpiRun(t, e, "--client", "cursor", "--command", "/d"); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("symlink replaced by a file: %v %v", fi, err)
	}
	mcpiCheckEntry(t, mcpiDecode(t, mcpiRead(t, target)), "mcpServers", "dbg", false, "/d", "mcp")
}

func TestMCPInstallDefaultCommand(t *testing.T) {
	t.Parallel()
	e, home, out := mcpiEnv(t)
	if err := mcpiRun(t, e, "--client", "windsurf", "--name", "debugger"); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	v := mcpiDecode(t, mcpiRead(t, filepath.Join(home, ".codeium", "windsurf", "mcp_config.json")))
	mcpiCheckEntry(t, v, "mcpServers", "debugger", false, self, "mcp")
	// Installing the same entry again changes nothing.
	out.Reset()
	if err := mcpiRun(t, e, "--client", "windsurf", "--name", "debugger"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "nothing to change") {
		t.Errorf("second identical install: %s", out)
	}
}

// TestMCPInstallBinaryEndToEnd installs with the built dbg binary, then
// starts the configured server as the client would and lists its tools.
func TestMCPInstallBinaryEndToEnd(t *testing.T) {
	t.Parallel()
	home, project := t.TempDir(), t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	install := exec.CommandContext(ctx, dbgBinary, "mcp", "install", "--client", "cursor", "--project", project)
	install.Env = append(os.Environ(), "HOME="+home)
	out, err := install.CombinedOutput()
	if err != nil {
		t.Fatalf("dbg mcp install: %v\n%s", err, out)
	}
	path := filepath.Join(home, ".cursor", "mcp.json")
	if !strings.Contains(string(out), path) {
		t.Errorf("output does not name %s:\n%s", path, out)
	}
	var cfg struct {
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal(mcpiRead(t, path), &cfg); err != nil {
		t.Fatal(err)
	}
	srv, ok := cfg.MCPServers["dbg"]
	if !ok || srv.Command != dbgBinary || strings.Join(srv.Args, " ") != "mcp --project "+project {
		t.Fatalf("entry = %+v, want %s mcp --project %s", srv, dbgBinary, project)
	}

	cmd := exec.Command(srv.Command, srv.Args...)
	cmd.Env = append(os.Environ(), "DBG_STATE_DIR="+t.TempDir())
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "install-e2e", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("starting the configured server: %v", err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, tool := range tools.Tools {
		found = found || tool.Name == "create_debug_session"
	}
	if !found {
		t.Errorf("the configured server lacks create_debug_session (%d tools)", len(tools.Tools))
	}
}
