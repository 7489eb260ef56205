// Package cfgfile reads and edits the configuration files of other
// programs: JSON with comments (JSONC: VS Code's launch.json and
// mcp.json, Claude Code's .claude.json, Cursor, Gemini CLI, Windsurf) and
// TOML (Codex's config.toml).
//
// # Reading
//
// [Parse] reads a JSONC document into a tree of byte spans ([Node]), so
// an editor knows where every value is. [Standardize] turns JSONC into
// plain JSON of the same length (comments and trailing commas become
// spaces, so offsets in later errors still point at the right place),
// and [Unmarshal] decodes JSONC like encoding/json:
//
//	var doc struct{ Configurations []map[string]any }
//	err := cfgfile.Unmarshal(launchJSON, &doc)
//
// # Editing
//
// Edits change the text, not a re-encoding of it: comments, formatting,
// key order and everything else in the file stay as they are. Each edit
// is verified by reading the result back, and refused when the file
// cannot be edited safely (a duplicate key, an inline TOML table):
//
//	entry := cfgfile.Object{{Key: "command", Value: "/usr/bin/dbg"}, {Key: "args", Value: []string{"mcp"}}}
//	out, replaced, err := cfgfile.SetJSONMember(src, "mcpServers", "dbg", entry)
//	out, replaced, err = cfgfile.SetTOMLTable(src, "mcp_servers", "dbg", entry)
//
// [WriteAtomic] replaces a file keeping its mode; [Diff] shows an edit.
package cfgfile
