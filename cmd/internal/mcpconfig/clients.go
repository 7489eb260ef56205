// Package mcpconfig knows where MCP clients (Claude Code, Codex, Cursor,
// Gemini CLI, VS Code, Windsurf) keep their list of servers, and adds
// dbg's entry there without disturbing the rest of the file.
//
//	c, _ := mcpconfig.Find("cursor")
//	ed, err := mcpconfig.Prepare(c, c.Path(home, os.Getenv), "dbg", mcpconfig.Entry(c, "/usr/bin/dbg", "mcp"))
//	if err == nil && !ed.Unchanged() {
//		err = ed.CheckTracked(ctx) // a file git tracks is left to the user
//	}
//	if err == nil {
//		err = ed.Apply()
//	}
//
// The file is edited as text by package cfgfile (JSONC or TOML), written
// atomically with its mode kept; a symlinked file is edited where it
// points.
package mcpconfig

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
)

// Client describes where one MCP client keeps its list of servers.
type Client struct {
	Name  string // the --client value
	Title string // the product, for messages
	TOML  bool   // the file is TOML (otherwise JSON with comments)
	Key   string // JSON: the top-level object holding the servers; TOML: the table prefix
	Stdio bool   // JSON entries carry "type": "stdio"

	path func(home string, getenv func(string) string) string
}

// Path is the client's user configuration file given the home directory
// and the environment.
func (c Client) Path(home string, getenv func(string) string) string { return c.path(home, getenv) }

// Clients lists the supported clients, sorted by name.
func Clients() []Client {
	return []Client{
		{Name: "claude", Title: "Claude Code", Key: "mcpServers", Stdio: true,
			path: func(home string, getenv func(string) string) string {
				if d := getenv("CLAUDE_CONFIG_DIR"); d != "" {
					return filepath.Join(d, ".claude.json")
				}
				return filepath.Join(home, ".claude.json")
			}},
		{Name: "codex", Title: "Codex", TOML: true, Key: "mcp_servers",
			path: func(home string, getenv func(string) string) string {
				if d := getenv("CODEX_HOME"); d != "" {
					return filepath.Join(d, "config.toml")
				}
				return filepath.Join(home, ".codex", "config.toml")
			}},
		{Name: "cursor", Title: "Cursor", Key: "mcpServers",
			path: func(home string, _ func(string) string) string {
				return filepath.Join(home, ".cursor", "mcp.json")
			}},
		{Name: "gemini", Title: "Gemini CLI", Key: "mcpServers",
			path: func(home string, _ func(string) string) string {
				return filepath.Join(home, ".gemini", "settings.json")
			}},
		{Name: "vscode", Title: "VS Code", Key: "servers", Stdio: true,
			path: func(home string, getenv func(string) string) string {
				return filepath.Join(vscodeUserDir(runtime.GOOS, home, getenv), "mcp.json")
			}},
		{Name: "windsurf", Title: "Windsurf", Key: "mcpServers",
			path: func(home string, _ func(string) string) string {
				return filepath.Join(home, ".codeium", "windsurf", "mcp_config.json")
			}},
	}
}

// vscodeUserDir is VS Code's user settings directory on goos.
func vscodeUserDir(goos, home string, getenv func(string) string) string {
	switch goos {
	case "darwin":
		return filepath.Join(home, "Library", "Application Support", "Code", "User")
	case "windows":
		if d := getenv("APPDATA"); d != "" {
			return filepath.Join(d, "Code", "User")
		}
		return filepath.Join(home, "AppData", "Roaming", "Code", "User")
	default:
		if d := getenv("XDG_CONFIG_HOME"); d != "" {
			return filepath.Join(d, "Code", "User")
		}
		return filepath.Join(home, ".config", "Code", "User")
	}
}

// Names lists the clients' names, comma-separated.
func Names() string {
	var names []string
	for _, c := range Clients() {
		names = append(names, c.Name)
	}
	return strings.Join(names, ", ")
}

// Find returns the client named name (any case).
func Find(name string) (Client, error) {
	if name == "" {
		return Client{}, fmt.Errorf("--client is required; known clients: %s", Names())
	}
	for _, c := range Clients() {
		if c.Name == strings.ToLower(name) {
			return c, nil
		}
	}
	return Client{}, fmt.Errorf("unknown client %q; known clients: %s", name, Names())
}
