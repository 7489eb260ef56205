package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"
)

// mcpClient describes where one MCP client keeps its list of servers.
type mcpClient struct {
	name  string // the --client value
	title string // the product, for messages
	toml  bool   // the file is TOML (otherwise JSON with comments)
	key   string // JSON: the top-level object holding the servers; TOML: the table prefix
	stdio bool   // JSON entries carry "type": "stdio"
	// path returns the configuration file given the home directory.
	path func(home string, getenv func(string) string) string
}

// mcpClients lists the supported clients, sorted by name.
func mcpClients() []mcpClient {
	return []mcpClient{
		{name: "claude", title: "Claude Code", key: "mcpServers", stdio: true,
			path: func(home string, getenv func(string) string) string {
				if d := getenv("CLAUDE_CONFIG_DIR"); d != "" {
					return filepath.Join(d, ".claude.json")
				}
				return filepath.Join(home, ".claude.json")
			}},
		{name: "codex", title: "Codex", toml: true, key: "mcp_servers",
			path: func(home string, getenv func(string) string) string {
				if d := getenv("CODEX_HOME"); d != "" {
					return filepath.Join(d, "config.toml")
				}
				return filepath.Join(home, ".codex", "config.toml")
			}},
		{name: "cursor", title: "Cursor", key: "mcpServers",
			path: func(home string, _ func(string) string) string {
				return filepath.Join(home, ".cursor", "mcp.json")
			}},
		{name: "gemini", title: "Gemini CLI", key: "mcpServers",
			path: func(home string, _ func(string) string) string {
				return filepath.Join(home, ".gemini", "settings.json")
			}},
		{name: "vscode", title: "VS Code", key: "servers", stdio: true,
			path: func(home string, getenv func(string) string) string {
				return filepath.Join(vscodeUserDir(runtime.GOOS, home, getenv), "mcp.json")
			}},
		{name: "windsurf", title: "Windsurf", key: "mcpServers",
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

func mcpClientNames() string {
	var names []string
	for _, c := range mcpClients() {
		names = append(names, c.name)
	}
	return strings.Join(names, ", ")
}

func findMCPClient(name string) (mcpClient, error) {
	if name == "" {
		return mcpClient{}, fmt.Errorf("--client is required; known clients: %s", mcpClientNames())
	}
	for _, c := range mcpClients() {
		if c.name == strings.ToLower(name) {
			return c, nil
		}
	}
	return mcpClient{}, fmt.Errorf("unknown client %q; known clients: %s", name, mcpClientNames())
}

// installHome is the user's home directory: HOME from e, then the
// operating system's answer.
func installHome(e *env) (string, error) {
	if h := e.getenv("HOME"); h != "" {
		return h, nil
	}
	h, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("finding the home directory: %w", err)
	}
	return h, nil
}

type mcpInstallOptions struct {
	client  string
	path    string
	name    string
	project string
	command string
	dryRun  bool
}

func newMCPInstallCmd(e *env) *cobra.Command {
	opts := &mcpInstallOptions{}
	cmd := &cobra.Command{
		Use:   "install --client NAME",
		Short: "Add dbg to an MCP client's configuration",
		Long: `Add a server entry that starts "dbg mcp" to an MCP client's configuration file.
Clients: ` + mcpClientNames() + `.

The rest of the file is kept: other servers, comments, formatting. An existing entry
with the same name is replaced. The file is written atomically and keeps its mode.
Files tracked by git are not edited: the command prints the snippet to add by hand.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runMCPInstall(cmd.Context(), e, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.client, "client", "", "the MCP client: "+mcpClientNames())
	f.StringVar(&opts.path, "path", "", "the configuration file (default: the client's user configuration)")
	f.StringVar(&opts.name, "name", "dbg", "the server's name in the configuration")
	f.StringVar(&opts.project, "project", "", "pass --project DIR to dbg mcp")
	f.StringVar(&opts.command, "command", "", "the dbg executable the client starts (default: this binary)")
	f.BoolVar(&opts.dryRun, "dry-run", false, "print the change without writing")
	return cmd
}

// mcpEntry is the server entry written for a client.
type mcpEntry struct {
	stdio   bool
	command string
	args    []string
}

func (en mcpEntry) value() map[string]any {
	args := make([]any, len(en.args))
	for i, a := range en.args {
		args[i] = a
	}
	v := map[string]any{"command": en.command, "args": args}
	if en.stdio {
		v["type"] = "stdio"
	}
	return v
}

// json renders the entry as a JSON object whose closing brace is at
// indent ind.
func (en mcpEntry) json(ind, unit, nl string) string {
	in := ind + unit
	var b strings.Builder
	b.WriteString("{" + nl)
	if en.stdio {
		b.WriteString(in + `"type": "stdio",` + nl)
	}
	b.WriteString(in + `"command": ` + jsonQuote(en.command) + "," + nl)
	b.WriteString(in + `"args": [`)
	for i, a := range en.args {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(jsonQuote(a))
	}
	b.WriteString("]" + nl + ind + "}")
	return b.String()
}

// toml renders the entry as the table table.name.
func (en mcpEntry) toml(table, name, nl string) string {
	var b strings.Builder
	b.WriteString("[" + tomlKey(table) + "." + tomlKey(name) + "]" + nl)
	b.WriteString("command = " + tomlString(en.command) + nl)
	b.WriteString("args = [")
	for i, a := range en.args {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(tomlString(a))
	}
	b.WriteString("]" + nl)
	return b.String()
}

// snippet is what to paste by hand when the file cannot be edited.
func (en mcpEntry) snippet(c mcpClient, name string) string {
	if c.toml {
		return en.toml(c.key, name, "\n")
	}
	return jsonQuote(c.key) + ": {\n  " + jsonQuote(name) + ": " + en.json("  ", "  ", "\n") + "\n}\n"
}

// runMCPInstall writes the entry for opts. It holds no lock: a client
// rewriting the file at the same moment is detected just before the
// rename, not prevented.
func runMCPInstall(ctx context.Context, e *env, opts *mcpInstallOptions) error {
	c, err := findMCPClient(opts.client)
	if err != nil {
		return err
	}
	if opts.name == "" || strings.ContainsFunc(opts.name, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return fmt.Errorf("--name %q: want a non-empty name without control characters", opts.name)
	}
	command := opts.command
	if command == "" {
		if command, err = os.Executable(); err != nil {
			return fmt.Errorf("finding the dbg executable (pass --command): %w", err)
		}
	}
	en := mcpEntry{stdio: c.stdio, command: command, args: []string{"mcp"}}
	if opts.project != "" {
		dir, err := filepath.Abs(opts.project)
		if err != nil {
			return fmt.Errorf("--project %q: %w", opts.project, err)
		}
		en.args = append(en.args, "--project", dir)
	}
	path := opts.path
	if path == "" {
		home, err := installHome(e)
		if err != nil {
			return err
		}
		path = c.path(home, e.getenv)
	}
	if path, err = filepath.Abs(path); err != nil {
		return fmt.Errorf("--path %q: %w", opts.path, err)
	}
	// A symlinked configuration (dotfiles) is edited where it points.
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if path, err = filepath.EvalSymlinks(path); err != nil {
			return fmt.Errorf("resolving %s: %w", opts.path, err)
		}
	}
	snippet := en.snippet(c, opts.name)
	where := fmt.Sprintf("its %q object", c.key)
	if c.toml {
		where = "it"
	}

	old, err := os.ReadFile(path)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	var out []byte
	var replaced bool
	if c.toml {
		out, replaced, err = editTOMLServers(old, c.key, opts.name, en)
	} else {
		out, replaced, err = editJSONServers(old, c.key, opts.name, en)
	}
	if err != nil {
		return fmt.Errorf("not editing %s: %w\nAdd this to %s by hand:\n\n%s", path, err, where, snippet)
	}
	if exists && bytes.Equal(old, out) {
		fmt.Fprintf(e.stdout, "%s already has MCP server %q for %s; nothing to change.\n", path, opts.name, c.title)
		return nil
	}
	tracked, err := gitTracksFile(ctx, path)
	if err != nil {
		return err
	}
	if tracked {
		return fmt.Errorf("not editing %s: git tracks it; a machine-specific path does not belong in the repository\nAdd this to %s by hand:\n\n%s", path, where, snippet)
	}
	verb, prep := "Added", "to"
	if replaced {
		verb, prep = "Replaced existing", "in"
	}
	if opts.dryRun {
		fmt.Fprintf(e.stdout, "Dry run: would write %s (%s); %s MCP server %q.\n", path, c.title, strings.ToLower(verb), opts.name)
		if exists {
			io.WriteString(e.stdout, configDiff(path, path+" (new)", old, out))
		} else {
			e.stdout.Write(out)
		}
		return nil
	}
	mode := fs.FileMode(0o600)
	if exists {
		fi, err := os.Stat(path)
		if err != nil {
			return fmt.Errorf("reading %s: %w", path, err)
		}
		mode = fi.Mode().Perm()
	} else if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("creating %s: %w", filepath.Dir(path), err)
	}
	// Clients rewrite their own files (Claude Code often does): do not
	// overwrite a change made since the file was read.
	if now, err := os.ReadFile(path); exists && (err != nil || !bytes.Equal(now, old)) {
		return fmt.Errorf("%s changed while it was being edited; run the command again", path)
	}
	if err := writeConfigAtomic(path, out, mode); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s MCP server %q %s %s (%s):\n\n%s\nRestart %s or reload its MCP servers to use it.\n", verb, opts.name, prep, path, c.title, snippet, c.title)
	return nil
}

// gitTracksFile reports whether git tracks path. A missing directory, a
// directory outside any repository or a missing git all mean no.
func gitTracksFile(ctx context.Context, path string) (bool, error) {
	dir := filepath.Dir(path)
	if _, err := os.Stat(dir); err != nil {
		return false, nil
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "ls-files", "--error-unmatch", "--", filepath.Base(path))
	cmd.Dir = dir
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, exec.ErrNotFound):
		return false, nil
	case ctx.Err() != nil:
		return false, fmt.Errorf("asking git whether it tracks %s: %w", path, ctx.Err())
	case errors.As(err, &ee):
		return false, nil
	default:
		return false, fmt.Errorf("asking git whether it tracks %s: %w", path, err)
	}
}

// writeConfigAtomic replaces path with data: a temporary file in the same
// directory, with the given mode, renamed over it.
func writeConfigAtomic(path string, data []byte, mode fs.FileMode) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return fmt.Errorf("writing %s: %w", tmp, err)
	}
	if err = f.Chmod(mode); err != nil {
		return fmt.Errorf("setting the mode of %s: %w", tmp, err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("writing %s: %w", tmp, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", tmp, err)
	}
	if err = os.Rename(tmp, path); err != nil {
		return fmt.Errorf("replacing %s: %w", path, err)
	}
	return nil
}

// configDiff is a unified diff of a and b with one hunk around the changed
// lines (edits here touch one region of the file).
func configDiff(aName, bName string, a, b []byte) string {
	al, bl := configLines(string(a)), configLines(string(b))
	p := 0
	for p < len(al) && p < len(bl) && al[p] == bl[p] {
		p++
	}
	s := 0
	for s < len(al)-p && s < len(bl)-p && al[len(al)-1-s] == bl[len(bl)-1-s] {
		s++
	}
	const ctxLines = 3
	start := max(0, p-ctxLines)
	aEnd := min(len(al), len(al)-s+ctxLines)
	bEnd := min(len(bl), len(bl)-s+ctxLines)
	var w strings.Builder
	fmt.Fprintf(&w, "--- %s\n+++ %s\n@@ -%d,%d +%d,%d @@\n", aName, bName, start+1, aEnd-start, start+1, bEnd-start)
	line := func(prefix, l string) {
		w.WriteString(prefix + strings.TrimSuffix(l, "\n") + "\n")
	}
	for _, l := range al[start:p] {
		line(" ", l)
	}
	for _, l := range al[p : len(al)-s] {
		line("-", l)
	}
	for _, l := range bl[p : len(bl)-s] {
		line("+", l)
	}
	for _, l := range al[len(al)-s : aEnd] {
		line(" ", l)
	}
	return w.String()
}

func configLines(s string) []string {
	l := strings.SplitAfter(s, "\n")
	if len(l) > 0 && l[len(l)-1] == "" {
		l = l[:len(l)-1]
	}
	return l
}

// textEdit replaces src[pos:end] with text.
type textEdit struct {
	pos, end int
	text     string
}

// applyTextEdits applies non-overlapping edits; edits at the same position
// apply in the order given.
func applyTextEdits(src []byte, edits []textEdit) []byte {
	slices.SortStableFunc(edits, func(a, b textEdit) int { return a.pos - b.pos })
	var out []byte
	cur := 0
	for _, ed := range edits {
		out = append(out, src[cur:ed.pos]...)
		out = append(out, ed.text...)
		cur = ed.end
	}
	return append(out, src[cur:]...)
}

func newlineStyle(src []byte) string {
	if i := bytes.IndexByte(src, '\n'); i > 0 && src[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// ---- JSON with comments ----

func jsonQuote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

// jnode is one value of a JSONC document: its byte span and, for an
// object, its members in order.
type jnode struct {
	kind       byte // '{', '[', or 0 for a string, number or literal
	start, end int  // src[start:end] is the value
	members    []jmember
	elems      []*jnode
}

type jmember struct {
	key      string
	keyStart int
	val      *jnode
	comma    int // index of the comma after the value, or -1
}

// jsonMaxDepth bounds nesting so hostile input cannot exhaust the stack.
const jsonMaxDepth = 512

type jparser struct {
	src   []byte
	i     int
	depth int
}

// parseJSONC parses JSON with // and /* */ comments and trailing commas.
// It returns nil for a document with no value.
func parseJSONC(src []byte) (*jnode, error) {
	p := &jparser{src: src}
	if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		p.i = 3
	}
	if err := p.skip(); err != nil {
		return nil, err
	}
	if p.i == len(src) {
		return nil, nil
	}
	n, err := p.value()
	if err != nil {
		return nil, err
	}
	if err := p.skip(); err != nil {
		return nil, err
	}
	if p.i != len(src) {
		return nil, p.errorf("unexpected %q after the document", src[p.i])
	}
	return n, nil
}

func (p *jparser) errorf(format string, args ...any) error {
	line := 1 + bytes.Count(p.src[:min(p.i, len(p.src))], []byte("\n"))
	return fmt.Errorf("line %d: %s", line, fmt.Sprintf(format, args...))
}

// skip passes whitespace and comments.
func (p *jparser) skip() error {
	for p.i < len(p.src) {
		switch c := p.src[p.i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.i++
		case c == '/' && p.i+1 < len(p.src) && p.src[p.i+1] == '/':
			for p.i < len(p.src) && p.src[p.i] != '\n' {
				p.i++
			}
		case c == '/' && p.i+1 < len(p.src) && p.src[p.i+1] == '*':
			end := bytes.Index(p.src[p.i+2:], []byte("*/"))
			if end < 0 {
				return p.errorf("unterminated comment")
			}
			p.i += 2 + end + 2
		default:
			return nil
		}
	}
	return nil
}

func (p *jparser) value() (*jnode, error) {
	if p.i >= len(p.src) {
		return nil, p.errorf("unexpected end of file")
	}
	switch p.src[p.i] {
	case '{':
		return p.object()
	case '[':
		return p.array()
	case '"':
		start := p.i
		if err := p.str(); err != nil {
			return nil, err
		}
		return &jnode{start: start, end: p.i}, nil
	}
	start := p.i
	for p.i < len(p.src) && strings.IndexByte("+-.0123456789eEabcdefghijklmnopqrstuvwxyz", p.src[p.i]) >= 0 {
		p.i++
	}
	if p.i == start {
		return nil, p.errorf("unexpected %q", p.src[p.i])
	}
	if !json.Valid(p.src[start:p.i]) {
		return nil, p.errorf("invalid value %q", p.src[start:p.i])
	}
	return &jnode{start: start, end: p.i}, nil
}

// str passes a string literal.
func (p *jparser) str() error {
	for j := p.i + 1; j < len(p.src); j++ {
		switch c := p.src[j]; {
		case c == '\\':
			j++
		case c == '"':
			if !json.Valid(p.src[p.i : j+1]) {
				return p.errorf("invalid string")
			}
			p.i = j + 1
			return nil
		case c < 0x20:
			return p.errorf("control character in a string")
		}
	}
	return p.errorf("unterminated string")
}

func (p *jparser) enter() error {
	p.depth++
	if p.depth > jsonMaxDepth {
		return p.errorf("nested more than %d levels", jsonMaxDepth)
	}
	return nil
}

func (p *jparser) object() (*jnode, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	n := &jnode{kind: '{', start: p.i}
	p.i++
	for {
		if err := p.skip(); err != nil {
			return nil, err
		}
		if p.i < len(p.src) && p.src[p.i] == '}' {
			p.i++
			n.end = p.i
			return n, nil
		}
		if p.i >= len(p.src) || p.src[p.i] != '"' {
			return nil, p.errorf("expected a key or '}'")
		}
		m := jmember{keyStart: p.i, comma: -1}
		if err := p.str(); err != nil {
			return nil, err
		}
		if err := json.Unmarshal(p.src[m.keyStart:p.i], &m.key); err != nil {
			return nil, p.errorf("invalid key: %v", err)
		}
		if err := p.skip(); err != nil {
			return nil, err
		}
		if p.i >= len(p.src) || p.src[p.i] != ':' {
			return nil, p.errorf("expected ':' after key %q", m.key)
		}
		p.i++
		if err := p.skip(); err != nil {
			return nil, err
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		m.val = v
		if err := p.skip(); err != nil {
			return nil, err
		}
		if p.i < len(p.src) && p.src[p.i] == ',' {
			m.comma = p.i
			p.i++
			n.members = append(n.members, m)
			continue
		}
		n.members = append(n.members, m)
		if p.i >= len(p.src) || p.src[p.i] != '}' {
			return nil, p.errorf("expected ',' or '}'")
		}
	}
}

func (p *jparser) array() (*jnode, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	n := &jnode{kind: '[', start: p.i}
	p.i++
	for {
		if err := p.skip(); err != nil {
			return nil, err
		}
		if p.i < len(p.src) && p.src[p.i] == ']' {
			p.i++
			n.end = p.i
			return n, nil
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		n.elems = append(n.elems, v)
		if err := p.skip(); err != nil {
			return nil, err
		}
		if p.i < len(p.src) && p.src[p.i] == ',' {
			p.i++
			continue
		}
		if p.i >= len(p.src) || p.src[p.i] != ']' {
			return nil, p.errorf("expected ',' or ']'")
		}
	}
}

// decode turns n into Go values as encoding/json would (the last of
// duplicate keys wins).
func (n *jnode) decode(src []byte) (any, error) {
	switch n.kind {
	case '{':
		m := make(map[string]any, len(n.members))
		for _, mem := range n.members {
			v, err := mem.val.decode(src)
			if err != nil {
				return nil, err
			}
			m[mem.key] = v
		}
		return m, nil
	case '[':
		l := make([]any, 0, len(n.elems))
		for _, e := range n.elems {
			v, err := e.decode(src)
			if err != nil {
				return nil, err
			}
			l = append(l, v)
		}
		return l, nil
	}
	var v any
	if err := json.Unmarshal(src[n.start:n.end], &v); err != nil {
		return nil, err
	}
	return v, nil
}

// member returns the object's member named key, or nil. Two members with
// the name are an error: which one a client reads is unclear.
func (n *jnode) member(key string) (*jmember, error) {
	var found *jmember
	for i := range n.members {
		if n.members[i].key == key {
			if found != nil {
				return nil, fmt.Errorf("%q appears twice", key)
			}
			found = &n.members[i]
		}
	}
	return found, nil
}

// jsonEditor edits one JSONC document at the text level.
type jsonEditor struct {
	src      []byte
	nl, unit string
}

// lineIndent is the leading whitespace of the line holding pos.
func (ed *jsonEditor) lineIndent(pos int) string {
	ls := bytes.LastIndexByte(ed.src[:pos], '\n') + 1
	j := ls
	for j < len(ed.src) && (ed.src[j] == ' ' || ed.src[j] == '\t') {
		j++
	}
	return string(ed.src[ls:j])
}

// keyIndent is the whitespace before pos when pos starts its line.
func (ed *jsonEditor) keyIndent(pos int) (string, bool) {
	ls := bytes.LastIndexByte(ed.src[:pos], '\n') + 1
	for _, c := range ed.src[ls:pos] {
		if c != ' ' && c != '\t' {
			return "", false
		}
	}
	return string(ed.src[ls:pos]), true
}

// memberIndent is the indent for a member of obj.
func (ed *jsonEditor) memberIndent(obj *jnode) string {
	if len(obj.members) > 0 {
		if ind, ok := ed.keyIndent(obj.members[len(obj.members)-1].keyStart); ok {
			return ind
		}
	}
	return ed.lineIndent(obj.start) + ed.unit
}

// lineEnd returns where the line ends after from when only whitespace and
// comments follow before limit: inserting there keeps a trailing comment
// with its member.
func (ed *jsonEditor) lineEnd(from, limit int) (int, bool) {
	s := ed.src
	for i := from; i < limit; {
		switch {
		case s[i] == ' ' || s[i] == '\t' || s[i] == '\r':
			i++
		case s[i] == '\n':
			if i > from && s[i-1] == '\r' {
				return i - 1, true
			}
			return i, true
		case s[i] == '/' && i+1 < limit && s[i+1] == '/':
			for i < limit && s[i] != '\n' {
				i++
			}
		case s[i] == '/' && i+1 < limit && s[i+1] == '*':
			end := bytes.Index(s[i+2:limit], []byte("*/"))
			if end < 0 {
				return 0, false
			}
			i += 2 + end + 2
		default:
			return 0, false
		}
	}
	return 0, false
}

// insert adds a member, rendered by text at its indent, as the last
// member of obj.
func (ed *jsonEditor) insert(obj *jnode, text func(ind string) string) []textEdit {
	ind := ed.memberIndent(obj)
	member := ed.nl + ind + text(ind)
	if len(obj.members) == 0 {
		inner := ed.src[obj.start+1 : obj.end-1]
		if len(bytes.TrimSpace(inner)) == 0 {
			return []textEdit{{obj.start + 1, obj.end - 1, member + ed.nl + ed.lineIndent(obj.start)}}
		}
		return []textEdit{{obj.start + 1, obj.start + 1, member}}
	}
	last := obj.members[len(obj.members)-1]
	anchor, comma := last.val.end, ""
	if last.comma >= 0 {
		anchor = last.comma + 1
		member += "," // keep the trailing-comma style
	} else {
		comma = ","
	}
	if p, ok := ed.lineEnd(anchor, obj.end-1); ok {
		edits := []textEdit{{p, p, member}}
		if comma != "" {
			edits = append([]textEdit{{last.val.end, last.val.end, comma}}, edits...)
		}
		return edits
	}
	return []textEdit{{anchor, anchor, comma + member}}
}

// detectIndentUnit guesses one level of indentation: the root's members'
// indent, else the smallest indent in the file, else two spaces.
func detectIndentUnit(src []byte, root *jnode) string {
	if root != nil && len(root.members) > 0 {
		ed := &jsonEditor{src: src}
		if ind, ok := ed.keyIndent(root.members[0].keyStart); ok && ind != "" {
			return ind
		}
	}
	best := ""
	for _, l := range strings.Split(string(src), "\n") {
		t := strings.TrimLeft(l, " \t")
		if t == "" || len(t) == len(l) || strings.HasPrefix(t, "*") {
			continue
		}
		ind := l[:len(l)-len(t)]
		if ind[0] == '\t' {
			return "\t"
		}
		if best == "" || len(ind) < len(best) {
			best = ind
		}
	}
	if best == "" || strings.Contains(best, "\t") {
		return "  "
	}
	return best
}

// editJSONServers returns src with src[key][name] set to en, editing the
// text so comments and formatting elsewhere survive. replaced says an
// entry of that name was there.
func editJSONServers(src []byte, key, name string, en mcpEntry) ([]byte, bool, error) {
	root, err := parseJSONC(src)
	if err != nil {
		return nil, false, fmt.Errorf("cannot parse it as JSON: %w", err)
	}
	if root == nil {
		if len(bytes.TrimSpace(src)) != 0 {
			return nil, false, errors.New("it holds only comments")
		}
		out := "{\n  " + jsonQuote(key) + ": {\n    " + jsonQuote(name) + ": " + en.json("    ", "  ", "\n") + "\n  }\n}\n"
		return []byte(out), false, nil
	}
	if root.kind != '{' {
		return nil, false, errors.New("its top level is not an object")
	}
	ed := &jsonEditor{src: src, nl: newlineStyle(src), unit: detectIndentUnit(src, root)}
	entry := func(ind string) string { return en.json(ind, ed.unit, ed.nl) }
	servers := func(ind string) string {
		in := ind + ed.unit
		return "{" + ed.nl + in + jsonQuote(name) + ": " + entry(in) + ed.nl + ind + "}"
	}
	var edits []textEdit
	replaced := false
	sm, err := root.member(key)
	switch {
	case err != nil:
		return nil, false, err
	case sm == nil:
		edits = ed.insert(root, func(ind string) string { return jsonQuote(key) + ": " + servers(ind) })
	case sm.val.kind != '{':
		if string(src[sm.val.start:sm.val.end]) != "null" {
			return nil, false, fmt.Errorf("%q is not an object", key)
		}
		ind, ok := ed.keyIndent(sm.keyStart)
		if !ok {
			ind = ed.memberIndent(root)
		}
		edits = []textEdit{{sm.val.start, sm.val.end, servers(ind)}}
	default:
		m, err := sm.val.member(name)
		if err != nil {
			return nil, false, fmt.Errorf("in %q: %w", key, err)
		}
		if m == nil {
			edits = ed.insert(sm.val, func(ind string) string { return jsonQuote(name) + ": " + entry(ind) })
		} else {
			replaced = true
			ind, ok := ed.keyIndent(m.keyStart)
			if !ok {
				ind = ed.memberIndent(sm.val)
			}
			edits = []textEdit{{m.val.start, m.val.end, entry(ind)}}
		}
	}
	out := applyTextEdits(src, edits)
	if err := verifyJSONEdit(src, out, root, key, name, en); err != nil {
		return nil, false, fmt.Errorf("editing it would change more than the entry (%w)", err)
	}
	return out, replaced, nil
}

// verifyJSONEdit checks that out reads as src with only src[key][name]
// set to en.
func verifyJSONEdit(src, out []byte, root *jnode, key, name string, en mcpEntry) error {
	if json.Valid(src) && !json.Valid(out) {
		return errors.New("the result is not plain JSON")
	}
	want, err := root.decode(src)
	if err != nil {
		return err
	}
	wm := want.(map[string]any)
	servers, _ := wm[key].(map[string]any)
	if servers == nil {
		servers = map[string]any{}
		wm[key] = servers
	}
	servers[name] = en.value()
	nroot, err := parseJSONC(out)
	if err != nil {
		return err
	}
	if nroot == nil {
		return errors.New("the result is empty")
	}
	got, err := nroot.decode(out)
	if err != nil {
		return err
	}
	if !reflect.DeepEqual(got, want) {
		return errors.New("the result differs")
	}
	return nil
}

// ---- TOML ----

func isBareTOMLKey(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

func tomlKey(s string) string {
	if isBareTOMLKey(s) {
		return s
	}
	return tomlString(s)
}

// tomlString renders s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		case r == utf8.RuneError:
			b.WriteString(`\uFFFD`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// titem is one logical line of a TOML document.
type titem struct {
	start, end int // src[start:end], including the line break
	kind       byte
	path       []string // a header's table or a key/value's dotted key
	array      bool     // [[header]]
}

const (
	tBlank  byte = 'b' // blank or comment only
	tHeader byte = 'h'
	tKeyVal byte = 'k'
)

type tscanner struct {
	src []byte
	i   int
}

func (s *tscanner) errorf(format string, args ...any) error {
	line := 1 + bytes.Count(s.src[:min(s.i, len(s.src))], []byte("\n"))
	return fmt.Errorf("line %d: %s", line, fmt.Sprintf(format, args...))
}

func (s *tscanner) spaces() {
	for s.i < len(s.src) && (s.src[s.i] == ' ' || s.src[s.i] == '\t') {
		s.i++
	}
}

// lineRest passes optional whitespace and a comment up to and including
// the line break.
func (s *tscanner) lineRest() error {
	s.spaces()
	if s.i < len(s.src) && s.src[s.i] == '#' {
		for s.i < len(s.src) && s.src[s.i] != '\n' {
			s.i++
		}
	}
	if s.i < len(s.src) && s.src[s.i] == '\r' {
		s.i++
	}
	if s.i < len(s.src) {
		if s.src[s.i] != '\n' {
			return s.errorf("unexpected %q", s.src[s.i])
		}
		s.i++
	}
	return nil
}

// scanTOML splits src into logical lines, enough to find tables and keys
// without a full TOML parser.
func scanTOML(src []byte) ([]titem, error) {
	s := &tscanner{src: src}
	if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		s.i = 3
	}
	var items []titem
	for s.i < len(src) {
		it := titem{start: s.i}
		if len(items) == 0 {
			it.start = 0
		}
		s.spaces()
		switch {
		case s.i >= len(src) || src[s.i] == '\n' || src[s.i] == '\r' || src[s.i] == '#':
			it.kind = tBlank
			if err := s.lineRest(); err != nil {
				return nil, err
			}
		case src[s.i] == '[':
			it.kind = tHeader
			s.i++
			if s.i < len(src) && src[s.i] == '[' {
				it.array = true
				s.i++
			}
			path, err := s.key()
			if err != nil {
				return nil, err
			}
			it.path = path
			closing := "]"
			if it.array {
				closing = "]]"
			}
			if !bytes.HasPrefix(src[s.i:], []byte(closing)) {
				return nil, s.errorf("expected %q after the table name", closing)
			}
			s.i += len(closing)
			if err := s.lineRest(); err != nil {
				return nil, err
			}
		default:
			it.kind = tKeyVal
			path, err := s.key()
			if err != nil {
				return nil, err
			}
			it.path = path
			if s.i >= len(src) || src[s.i] != '=' {
				return nil, s.errorf("expected '=' after a key")
			}
			s.i++
			if err := s.value(); err != nil {
				return nil, err
			}
		}
		it.end = s.i
		items = append(items, it)
	}
	return items, nil
}

// key reads a dotted key and the whitespace after it.
func (s *tscanner) key() ([]string, error) {
	var path []string
	for {
		s.spaces()
		if s.i >= len(s.src) {
			return nil, s.errorf("unexpected end of file in a key")
		}
		switch c := s.src[s.i]; {
		case c == '"' || c == '\'':
			start := s.i
			if err := s.str(); err != nil {
				return nil, err
			}
			raw := string(s.src[start+1 : s.i-1])
			if c == '"' {
				raw = tomlUnescape(raw)
			}
			path = append(path, raw)
		default:
			start := s.i
			for s.i < len(s.src) && isBareTOMLKey(string(s.src[s.i])) {
				s.i++
			}
			if s.i == start {
				return nil, s.errorf("unexpected %q in a key", c)
			}
			path = append(path, string(s.src[start:s.i]))
		}
		s.spaces()
		if s.i < len(s.src) && s.src[s.i] == '.' {
			s.i++
			continue
		}
		return path, nil
	}
}

// str passes a one-line string, basic or literal.
func (s *tscanner) str() error {
	q := s.src[s.i]
	for j := s.i + 1; j < len(s.src); j++ {
		switch c := s.src[j]; {
		case c == '\\' && q == '"':
			j++
		case c == q:
			s.i = j + 1
			return nil
		case c == '\n':
			s.i = j
			return s.errorf("unterminated string")
		}
	}
	s.i = len(s.src)
	return s.errorf("unterminated string")
}

// value passes a value through the end of its (last) line: strings,
// multi-line strings, and arrays or inline tables spanning lines.
func (s *tscanner) value() error {
	depth := 0
	for s.i < len(s.src) {
		c := s.src[s.i]
		switch {
		case c == '"' || c == '\'':
			triple := string([]byte{c, c, c})
			if bytes.HasPrefix(s.src[s.i:], []byte(triple)) {
				j := s.i + 3
				for {
					if j >= len(s.src) {
						s.i = j
						return s.errorf("unterminated multi-line string")
					}
					if c == '"' && s.src[j] == '\\' {
						j += 2
						continue
					}
					if bytes.HasPrefix(s.src[j:], []byte(triple)) {
						j += 3
						// Up to two quotes may close the content.
						for k := 0; k < 2 && j < len(s.src) && s.src[j] == c; k++ {
							j++
						}
						break
					}
					j++
				}
				s.i = j
				continue
			}
			if err := s.str(); err != nil {
				return err
			}
		case c == '[' || c == '{':
			depth++
			s.i++
		case c == ']' || c == '}':
			depth--
			if depth < 0 {
				return s.errorf("unbalanced %q", c)
			}
			s.i++
		case c == '#':
			for s.i < len(s.src) && s.src[s.i] != '\n' {
				s.i++
			}
		case c == '\n':
			s.i++
			if depth == 0 {
				return nil
			}
		default:
			s.i++
		}
	}
	if depth != 0 {
		return s.errorf("unterminated array or inline table")
	}
	return nil
}

// tomlUnescape decodes a basic string's escapes; unknown ones stay as
// written.
func tomlUnescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 'b':
			b.WriteByte('\b')
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'f':
			b.WriteByte('\f')
		case 'r':
			b.WriteByte('\r')
		case '"', '\\':
			b.WriteByte(s[i])
		case 'u', 'U':
			n := 4
			if s[i] == 'U' {
				n = 8
			}
			var r rune
			ok := i+n < len(s)
			for k := 1; ok && k <= n; k++ {
				d := strings.IndexByte("0123456789abcdef", s[i+k]|0x20)
				ok = d >= 0
				r = r<<4 | rune(d)
			}
			if !ok {
				b.WriteString(`\` + s[i:i+1])
				continue
			}
			b.WriteRune(r)
			i += n
		default:
			b.WriteString(`\` + s[i:i+1])
		}
	}
	return b.String()
}

func tomlHasPrefix(path, prefix []string) bool {
	return len(path) >= len(prefix) && slices.Equal(path[:len(prefix)], prefix)
}

// editTOMLServers returns src with the table [table.name] (and its
// sub-tables) replaced by en, or en appended as a new table. The rest of
// the text is kept as it is.
func editTOMLServers(src []byte, table, name string, en mcpEntry) ([]byte, bool, error) {
	items, err := scanTOML(src)
	if err != nil {
		return nil, false, fmt.Errorf("cannot parse it as TOML: %w", err)
	}
	ours := []string{table, name}
	type region struct{ start, end int }
	var regions []region
	var cur []string
	in := false
	var r region
	for _, it := range items {
		switch it.kind {
		case tHeader:
			mine := tomlHasPrefix(it.path, ours)
			if in && !mine {
				regions = append(regions, r)
				in = false
			}
			if mine {
				if it.array && len(it.path) == 2 {
					return nil, false, fmt.Errorf("[[%s.%s]] is an array of tables", table, name)
				}
				if !in {
					in, r = true, region{it.start, it.end}
				}
				r.end = it.end
			}
			cur = it.path
		case tKeyVal:
			full := append(slices.Clone(cur), it.path...)
			if len(cur) == 0 && slices.Equal(it.path, []string{table}) {
				return nil, false, fmt.Errorf("%s is an inline table", table)
			}
			if !in && tomlHasPrefix(full, ours) {
				return nil, false, fmt.Errorf("%s.%s is defined by keys outside its own table", table, name)
			}
			if in {
				r.end = it.end
			}
		}
	}
	if in {
		regions = append(regions, r)
	}
	nl := newlineStyle(src)
	text := en.toml(table, name, nl)
	var out []byte
	if len(regions) > 0 {
		edits := []textEdit{{regions[0].start, regions[0].end, text}}
		for _, r := range regions[1:] {
			edits = append(edits, textEdit{r.start, r.end, ""})
		}
		// A table ending the file without a line break gets one from text.
		out = applyTextEdits(src, edits)
	} else {
		out = slices.Clone(src)
		if len(bytes.TrimSpace(out)) > 0 {
			if !bytes.HasSuffix(out, []byte("\n")) {
				out = append(out, nl...)
			}
			if !bytes.HasSuffix(out, []byte(nl+nl)) {
				out = append(out, nl...)
			}
		} else {
			out = nil
		}
		out = append(out, text...)
	}
	if err := verifyTOMLEdit(items, out, ours); err != nil {
		return nil, false, fmt.Errorf("editing it would change more than the entry (%w)", err)
	}
	return out, len(regions) > 0, nil
}

// verifyTOMLEdit checks that out still scans, holds the table once, and
// keeps every other table in order.
func verifyTOMLEdit(before []titem, out []byte, ours []string) error {
	after, err := scanTOML(out)
	if err != nil {
		return err
	}
	others := func(items []titem) (l []string, n int) {
		for _, it := range items {
			if it.kind != tHeader {
				continue
			}
			if slices.Equal(it.path, ours) {
				n++
			}
			if !tomlHasPrefix(it.path, ours) {
				l = append(l, strings.Join(it.path, "\x00"))
			}
		}
		return l, n
	}
	b, _ := others(before)
	a, n := others(after)
	if n != 1 {
		return fmt.Errorf("the table appears %d times", n)
	}
	if !slices.Equal(a, b) {
		return errors.New("other tables changed")
	}
	return nil
}
