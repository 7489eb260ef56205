package adapters

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/dap"
)

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestFindJSDebug(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	noEnv := func(string) string { return "" }
	if got := (Node{Getenv: noEnv, Home: home, Roots: []string{}}).jsDebug(nil); got != "" {
		t.Fatalf("found %q in an empty home", got)
	}

	// The VS Code extension folder: the newest version wins.
	old := filepath.Join(home, ".vscode", "extensions", "ms-vscode.js-debug-1.80.0", "src", "dapDebugServer.js")
	newer := filepath.Join(home, ".vscode", "extensions", "ms-vscode.js-debug-1.90.0", "dist", "src", "dapDebugServer.js")
	writeFile(t, old, "")
	writeFile(t, newer, "")
	n := Node{Getenv: noEnv, Home: home, Roots: []string{}}
	if got := n.jsDebug(nil); got != newer {
		t.Fatalf("extension: %q, want %q", got, newer)
	}

	// A standalone release under a known root.
	root := t.TempDir()
	standalone := filepath.Join(root, "js-debug", "src", "dapDebugServer.js")
	writeFile(t, standalone, "")
	if got := (Node{Getenv: noEnv, Home: t.TempDir(), Roots: []string{root}}).jsDebug(nil); got != standalone {
		t.Fatalf("root: %q", got)
	}

	// The environment beats the extension folder; an explicit path beats both.
	env := func(k string) string {
		if k == "DBG_JS_DEBUG" {
			return filepath.Join(root, "js-debug")
		}
		return ""
	}
	n = Node{Getenv: env, Home: home, Roots: []string{}}
	if got := n.jsDebug(nil); got != standalone {
		t.Fatalf("env: %q", got)
	}
	if got := n.jsDebug(map[string]any{"jsDebugPath": old}); got != old {
		t.Fatalf("explicit: %q", got)
	}
	// "builtin" forces the built-in adapter.
	if got := n.jsDebug(map[string]any{"jsDebugPath": "builtin"}); got != "" {
		t.Fatalf("builtin: %q", got)
	}
	// A path that is not js-debug is ignored.
	if got := (Node{Getenv: noEnv, Home: t.TempDir(), Roots: []string{}}).jsDebug(map[string]any{"jsDebugPath": "/nonexistent"}); got != "" {
		t.Fatalf("bogus: %q", got)
	}
}

func TestNodeLaunchArgs(t *testing.T) {
	t.Parallel()
	f := false
	args, err := Node{Roots: []string{}, Getenv: func(string) string { return "" }, Home: t.TempDir()}.LaunchArgs(context.Background(), Target{
		Mode: Launch, Program: "/p/app.ts", Args: []string{"a"}, Env: map[string]string{"K": "V"},
		StopOnEntry: true, JustMyCode: &f, ExecutablePath: "/opt/node/bin/node",
		Extra: map[string]any{"jsDebugPath": "/x", "outputCapture": "console"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"type": "pwa-node", "request": "launch", "name": "dbg", "program": "/p/app.ts", "args": []string{"a"},
		"cwd": "/p", "stopOnEntry": true, "sourceMaps": true, "skipFiles": []string{}, "console": "internalConsole",
		"outputCapture": "console", "env": map[string]string{"K": "V"}, "runtimeExecutable": "/opt/node/bin/node",
		"autoAttachChildProcesses": true,
	}
	if !reflect.DeepEqual(args, want) {
		t.Fatalf("got  %v\nwant %v", args, want)
	}
	if _, err := (Node{}).LaunchArgs(context.Background(), Target{Mode: Launch}); err == nil {
		t.Fatal("launch without a program accepted")
	}
}

func TestNodeAttachArgs(t *testing.T) {
	t.Parallel()
	none := Node{Roots: []string{}, Getenv: func(string) string { return "" }, Home: t.TempDir()}
	args, err := none.AttachArgs(context.Background(), Target{Mode: Attach, Port: 9230})
	if err != nil {
		t.Fatal(err)
	}
	if args["port"] != 9230 || args["address"] != "127.0.0.1" || args["request"] != "attach" {
		t.Fatalf("by port: %v", args)
	}
	if !reflect.DeepEqual(args["skipFiles"], []string{"<node_internals>/**"}) {
		t.Fatalf("skipFiles %v", args["skipFiles"])
	}
	args, _ = none.AttachArgs(context.Background(), Target{Mode: Attach, PID: 42})
	if args["processId"] != 42 {
		t.Fatalf("built-in pid: %v", args)
	}
	js := filepath.Join(t.TempDir(), "dapDebugServer.js")
	writeFile(t, js, "")
	args, _ = none.AttachArgs(context.Background(), Target{Mode: Attach, PID: 42, Extra: map[string]any{"jsDebugPath": js}})
	if args["processId"] != "42" {
		t.Fatalf("js-debug pid: %v", args)
	}
	if _, ok := args["jsDebugPath"]; ok {
		t.Fatal("jsDebugPath leaked into the attach arguments")
	}
	if _, err := none.AttachArgs(context.Background(), Target{Mode: Attach}); err == nil {
		t.Fatal("attach without a target accepted")
	}
}

func TestNodeStopReasonsAndFilters(t *testing.T) {
	t.Parallel()
	n := Node{}
	for in, want := range map[string]string{"Break on start": "entry", "breakpoint": "breakpoint", "exception": "exception",
		"promiseRejection": "exception", "debugger statement": "breakpoint", "function breakpoint": "function breakpoint"} {
		if got := n.StopReason(in); got != want {
			t.Errorf("StopReason(%q) = %q, want %q", in, got, want)
		}
	}
	if got := n.ExceptionFilters("uncaught"); !reflect.DeepEqual(got, []string{"uncaught"}) {
		t.Errorf("uncaught: %v", got)
	}
	if got := n.ExceptionFilters("none"); len(got) != 0 {
		t.Errorf("none: %v", got)
	}
}

func TestNodeChildAttachArgs(t *testing.T) {
	t.Parallel()
	got, err := NodeChildAttachArgs(map[string]any{"request": "attach", "configuration": map[string]any{"type": "pwa-node", "__pendingTargetId": "abc"}})
	if err != nil {
		t.Fatal(err)
	}
	if got["__pendingTargetId"] != "abc" || got["request"] != "attach" || got["type"] != "pwa-node" {
		t.Fatalf("%v", got)
	}
	if _, err := NodeChildAttachArgs(map[string]any{"configuration": map[string]any{}}); err == nil {
		t.Fatal("accepted a configuration without __pendingTargetId")
	}
}

// fakeJSDebug is a stand-in dapDebugServer.js: it serves DAP on the port
// and host it is given and answers initialize with its own argv.
const fakeJSDebug = `
const net = require('net');
const [port, host] = process.argv.slice(2);
net.createServer((s) => {
  let buf = Buffer.alloc(0);
  s.on('data', (d) => {
    buf = Buffer.concat([buf, d]);
    for (;;) {
      const i = buf.indexOf('\r\n\r\n');
      if (i < 0) return;
      const n = Number(/Content-Length: (\d+)/i.exec(buf.slice(0, i).toString())[1]);
      if (buf.length < i + 4 + n) return;
      const req = JSON.parse(buf.slice(i + 4, i + 4 + n).toString());
      buf = buf.slice(i + 4 + n);
      const body = JSON.stringify({seq: 1, type: 'response', request_seq: req.seq, command: req.command, success: true,
        body: {argv: process.argv.slice(2)}});
      s.write('Content-Length: ' + Buffer.byteLength(body) + '\r\n\r\n' + body);
    }
  });
}).listen(Number(port), host, () => console.log('Debug server listening at ' + host + ':' + port));
`

func TestStartJSDebug(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed (scripts/deps/node.sh installs it)")
	}
	server := filepath.Join(t.TempDir(), "js-debug", "src", "dapDebugServer.js")
	writeFile(t, server, fakeJSDebug)
	a := Node{Getenv: func(string) string { return "" }, Home: t.TempDir(), Roots: []string{}}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ep, err := a.Start(ctx, Target{Mode: Launch, ExecutablePath: node, Extra: map[string]any{"jsDebugPath": filepath.Dir(filepath.Dir(server))}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ep.Close(context.Background()) })
	if ep.Process == nil {
		t.Fatal("js-debug is not a child process")
	}
	if ep.Child == nil {
		t.Fatal("a js-debug endpoint must open child connections")
	}
	childStream, err := ep.Child(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = childStream.Close() })
	for i, e := range []*Endpoint{ep, nil, {Conn: childStream}} {
		if i == 1 {
			child, err := NodeChildEndpoint(ctx, ep)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { child.Close(context.Background()) })
			e = child
		}
		conn := dap.NewConn(e.Conn, dap.Options{})
		resp, err := conn.Request(ctx, "initialize", map[string]any{"adapterID": "javascript"})
		if err != nil {
			t.Fatal(err)
		}
		var b struct{ Argv []string }
		_ = json.Unmarshal(resp.Body, &b)
		if len(b.Argv) != 2 || b.Argv[1] != "127.0.0.1" {
			t.Fatalf("js-debug argv %v, want [PORT 127.0.0.1]", b.Argv)
		}
	}
	pid := ep.Process.Pid()
	ep.Close(context.Background())
	if _, err := os.Stat(filepath.Join("/proc", strconv.Itoa(pid))); err == nil {
		b, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
		if f := strings.Fields(string(b)); len(f) > 2 && f[2] != "Z" {
			t.Fatalf("js-debug %d still runs after Close", pid)
		}
	}
}

// TestNodeBuiltinEndToEnd starts the built-in adapter the way the session
// manager does and stops at a breakpoint in a real node program.
func TestNodeBuiltinEndToEnd(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed (scripts/deps/node.sh installs it)")
	}
	_, file, _, _ := runtime.Caller(0)
	script := filepath.Join(filepath.Dir(file), "..", "testdata", "javascript", "loop.js")
	script, _ = filepath.Abs(script)
	a := Node{Getenv: func(string) string { return "" }, Home: t.TempDir(), Roots: []string{}}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tgt := Target{Mode: Launch, Program: script}
	ep, err := a.Start(ctx, tgt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ep.Close(context.Background()) })
	stopped := make(chan *dap.Message, 4)
	conn := dap.NewConn(ep.Conn, dap.Options{OnEvent: func(m *dap.Message) {
		if m.Event == "stopped" {
			stopped <- m
		}
	}})
	if _, err := conn.Request(ctx, "initialize", map[string]any{"adapterID": "javascript", "linesStartAt1": true}); err != nil {
		t.Fatal(err)
	}
	args, err := a.LaunchArgs(ctx, tgt)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Request(ctx, "launch", args); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Request(ctx, "setBreakpoints", map[string]any{"source": map[string]any{"path": script}, "breakpoints": []map[string]any{{"line": 4}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Request(ctx, "configurationDone", nil); err != nil {
		t.Fatal(err)
	}
	select {
	case <-stopped:
	case <-ctx.Done():
		t.Fatal("no stop")
	}
	resp, err := conn.Request(ctx, "evaluate", map[string]any{"expression": "process.pid"})
	if err != nil {
		t.Fatal(err)
	}
	var b struct{ Result string }
	_ = json.Unmarshal(resp.Body, &b)
	ep.Close(context.Background())
	for i := 0; i < 200; i++ {
		st, err := os.ReadFile("/proc/" + b.Result + "/stat")
		if err != nil || strings.Fields(string(st))[2] == "Z" {
			return
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Fatalf("node %s still runs after the endpoint closed", b.Result)
}

// TestNodeBuiltinChildEndpoint checks that the built-in adapter's endpoint
// opens child connections (for the child sessions of forked processes),
// each served by an adapter of its own until it is closed.
func TestNodeBuiltinChildEndpoint(t *testing.T) {
	t.Parallel()
	a := Node{Getenv: func(string) string { return "" }, Home: t.TempDir(), Roots: []string{}}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ep, err := a.Start(ctx, Target{Mode: Attach, ExecutablePath: "node"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ep.Close(context.Background()) })
	if ep.Child == nil {
		t.Fatal("the built-in endpoint opens no child connections")
	}
	for i := 0; i < 2; i++ {
		stream, err := ep.Child(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		conn := dap.NewConn(stream, dap.Options{})
		resp, err := conn.Request(ctx, "initialize", map[string]any{"adapterID": "javascript", "supportsStartDebuggingRequest": true})
		if err != nil {
			t.Fatal(err)
		}
		var caps struct{ SupportsConfigurationDoneRequest bool }
		if err := json.Unmarshal(resp.Body, &caps); err != nil || !caps.SupportsConfigurationDoneRequest {
			t.Fatalf("child initialize: %s %v", resp.Body, err)
		}
		// attach without a target is refused by the child's own adapter.
		if _, err := conn.Request(ctx, "attach", map[string]any{}); err == nil || !strings.Contains(err.Error(), "attach needs") {
			t.Fatalf("attach without a target: %v", err)
		}
		_ = conn.Close()
		if err := stream.Close(); err != nil {
			t.Fatal(err)
		}
	}
	// The parent connection still serves after its children closed.
	conn := dap.NewConn(ep.Conn, dap.Options{})
	if _, err := conn.Request(ctx, "initialize", map[string]any{"adapterID": "javascript"}); err != nil {
		t.Fatalf("parent after children: %v", err)
	}
}
