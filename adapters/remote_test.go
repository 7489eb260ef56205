package adapters

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestEveryAdapterDeclaresRemote: each language either debugs a program
// on another machine (a debug server or a port) or says why not.
func TestEveryAdapterDeclaresRemote(t *testing.T) {
	t.Parallel()
	for _, a := range Default().All() {
		rm := a.Traits().Remote
		if rm == nil || (!rm.Reachable() && rm.Refused == "") {
			t.Errorf("%s declares no remote attach and no refusal", a.Language())
		}
		if rm != nil && rm.Server != "" && strings.Contains(rm.Server, "0.0.0.0") {
			t.Errorf("%s's remote server listens beyond the target's loopback", a.Language())
		}
	}
}

func TestMapPaths(t *testing.T) {
	t.Parallel()
	maps := []PathMapping{{RemoteRoot: "/srv/app", LocalRoot: "/home/me/app"}, {RemoteRoot: "/srv/app/vendor/", LocalRoot: "/home/me/vendor"}, {RemoteRoot: "/", LocalRoot: "/mnt/target"}}
	for _, c := range []struct{ remote, local string }{
		{"/srv/app/main.go", "/home/me/app/main.go"},
		{"/srv/app/vendor/x/y.go", "/home/me/vendor/x/y.go"},
		{"/srv/application/z.go", "/mnt/target/srv/application/z.go"},
		{"/srv/app", "/home/me/app"},
	} {
		if got, ok := MapToLocal(maps, c.remote); !ok || got != c.local {
			t.Errorf("MapToLocal(%s) = %s %v, want %s", c.remote, got, ok, c.local)
		}
	}
	if got, ok := MapToRemote(maps[:1], "/home/me/app/pkg/a.go"); !ok || got != "/srv/app/pkg/a.go" {
		t.Errorf("MapToRemote = %s %v", got, ok)
	}
	if got, ok := MapToRemote(maps[:1], "/home/me/apple/a.go"); ok || got != "/home/me/apple/a.go" {
		t.Errorf("a path beside the root maps: %s %v", got, ok)
	}
}

// TestMapSourcePaths rewrites the Source paths of requests, responses
// and events, and nothing else.
func TestMapSourcePaths(t *testing.T) {
	t.Parallel()
	maps := []PathMapping{{RemoteRoot: "/srv/app", LocalRoot: "/l"}}
	toRemote := func(p string) string { q, _ := MapToRemote(maps, p); return q }
	toLocal := func(p string) string { q, _ := MapToLocal(maps, p); return q }
	args := mapSourcePaths(json.RawMessage(`{"source":{"path":"/l/a.js","name":"a.js"},"breakpoints":[{"line":3}],"path":"/l/not-a-source"}`), toRemote)
	if !strings.Contains(string(args), `"path":"/srv/app/a.js"`) || !strings.Contains(string(args), `"path":"/l/not-a-source"`) {
		t.Errorf("setBreakpoints arguments: %s", args)
	}
	body := mapSourcePaths(json.RawMessage(`{"stackFrames":[{"id":1,"source":{"path":"/srv/app/a.js"},"line":3},{"id":2,"source":{"path":"node:internal/timers"}}]}`), toLocal)
	if !strings.Contains(string(body), `"path":"/l/a.js"`) || !strings.Contains(string(body), `"path":"node:internal/timers"`) {
		t.Errorf("stackTrace: %s", body)
	}
	ev := mapSourcePaths(json.RawMessage(`{"reason":"new","sources":[{"path":"/srv/app/b.js"}]}`), toLocal)
	if !strings.Contains(string(ev), `"/l/b.js"`) {
		t.Errorf("loadedSources: %s", ev)
	}
	raw := json.RawMessage(`{"threads":[{"id":1}]}`)
	if got := mapSourcePaths(raw, toLocal); string(got) != string(raw) {
		t.Errorf("a message without paths changed: %s", got)
	}
}

func TestRemotePorts(t *testing.T) {
	t.Parallel()
	java := javaRemote().Port
	for _, c := range []struct {
		argv []string
		env  map[string]string
		host string
		port int
	}{
		{[]string{"java", "-agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=127.0.0.1:5005", "-jar", "app.jar"}, nil, "127.0.0.1", 5005},
		{[]string{"java", "-agentlib:jdwp=transport=dt_socket,server=y,address=*:8000", "Main"}, nil, "*", 8000},
		{[]string{"java", "Main"}, map[string]string{"JAVA_TOOL_OPTIONS": "-agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=5006"}, "127.0.0.1", 5006},
	} {
		host, port, err := java(c.argv, c.env)
		if err != nil || host != c.host || port != c.port {
			t.Errorf("java %q: %s %d %v, want %s %d", c.argv, host, port, err, c.host, c.port)
		}
	}
	if _, _, err := java([]string{"java", "-jar", "app.jar"}, nil); err == nil || !strings.Contains(err.Error(), "address=127.0.0.1:5005") {
		t.Errorf("a JVM without JDWP: %v", err)
	}
	node := nodeRemote()
	if node.Signal != "USR1" {
		t.Errorf("node's signal %q", node.Signal)
	}
	for _, c := range []struct {
		argv []string
		env  map[string]string
		host string
		port int
	}{
		{[]string{"node", "server.js"}, nil, "127.0.0.1", 9229},
		{[]string{"node", "--inspect-port=9300", "server.js"}, nil, "127.0.0.1", 9300},
		{[]string{"node", "--inspect=0.0.0.0:9230", "server.js"}, nil, "0.0.0.0", 9230},
		{[]string{"node", "server.js"}, map[string]string{"NODE_OPTIONS": "--inspect-port=127.0.0.2:9555"}, "127.0.0.2", 9555},
	} {
		host, port, err := node.Port(c.argv, c.env)
		if err != nil || host != c.host || port != c.port {
			t.Errorf("node %q: %s %d %v, want %s %d", c.argv, host, port, err, c.host, c.port)
		}
	}
	ruby := rubyRemote().Port
	if host, port, err := ruby([]string{"/usr/bin/ruby3.1", "loop.rb"}, map[string]string{"RUBY_DEBUG_PORT": "12345", "RUBY_DEBUG_HOST": "127.0.0.1"}); err != nil || host != "127.0.0.1" || port != 12345 {
		t.Errorf("rdbg's environment: %s %d %v", host, port, err)
	}
	if _, port, err := ruby([]string{"ruby", "-r", "debug/open", "--port=4000"}, nil); err != nil || port != 4000 {
		t.Errorf("--port=: %d %v", port, err)
	}
	if _, _, err := ruby([]string{"ruby", "app.rb"}, nil); err == nil || !strings.Contains(err.Error(), "--port") {
		t.Errorf("a program without rdbg's port: %v", err)
	}
}

func TestDetectRemote(t *testing.T) {
	t.Parallel()
	r := Default()
	marks := func(ms ...string) func(string) bool { return func(m string) bool { return slices.Contains(ms, m) } }
	for _, c := range []struct {
		exe  string
		argv []string
		has  func(string) bool
		want string
	}{
		{"/usr/bin/python3.11", []string{"python3", "app.py"}, marks(), "python"},
		{"/usr/bin/node", []string{"node", "server.js"}, marks(), "javascript"},
		{"/srv/app/server", []string{"/srv/app/server"}, marks(goBuildInfoMark, ".debug_info"), "go"},
		{"/srv/app/loop", []string{"./loop"}, marks("rust_begin_unwind", ".debug_info"), "rust"},
		{"/srv/app/loop", []string{"./loop"}, marks("libstdc++", ".debug_info"), "cpp"},
		{"/srv/app/loop", []string{"./loop"}, marks(".debug_info"), "c"},
		{"/srv/app/stripped", []string{"./stripped"}, marks(), ""},
	} {
		got, ok := r.DetectRemote(c.exe, c.argv, c.has)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("DetectRemote(%s) = %q %v, want %q", c.exe, got, ok, c.want)
		}
	}
	ms := r.RemoteMarks()
	n := 0
	for _, m := range ms {
		if m == ".debug_info" {
			n++
		}
	}
	if len(ms) == 0 || ms[0] != goBuildInfoMark || n != 1 {
		t.Errorf("marks %q", ms)
	}
}

// TestRemoteAttachArgs: each adapter attaches to the debug server on the
// target and passes the path mappings as its own argument.
func TestRemoteAttachArgs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	maps := []PathMapping{{RemoteRoot: "/srv/app", LocalRoot: "/home/me/app"}}
	end := &RemoteEnd{Addr: "127.0.0.1:4000", PID: 77, Exe: "/srv/app/loop"}
	py, err := NewPython().AttachArgs(ctx, Target{Mode: Attach, Remote: end, PathMappings: maps})
	if err != nil || py["processId"] != 77 || !reflect.DeepEqual(py["pathMappings"], []map[string]string{{"remoteRoot": "/srv/app", "localRoot": "/home/me/app"}}) {
		t.Errorf("python %v %v", py, err)
	}
	goArgs, err := Go{}.AttachArgs(ctx, Target{Mode: Attach, Remote: end, PathMappings: maps})
	if err != nil || goArgs["mode"] != "local" || goArgs["processId"] != 77 ||
		!reflect.DeepEqual(goArgs["substitutePath"], []map[string]string{{"from": "/home/me/app", "to": "/srv/app"}}) {
		t.Errorf("go %v %v", goArgs, err)
	}
	local := filepath.Join(t.TempDir(), "loop")
	if err := os.WriteFile(local, []byte("\x7fELF"), 0o755); err != nil {
		t.Fatal(err)
	}
	withExe := *end
	withExe.LocalExe = local
	c, err := NewC().AttachArgs(ctx, Target{Mode: Attach, Remote: &withExe, PathMappings: maps})
	if err != nil {
		t.Fatal(err)
	}
	if c["program"] != local || !slices.Contains(c["attachCommands"].([]string), "gdb-remote 127.0.0.1:4000") || c["pid"] != nil {
		t.Errorf("c %v", c)
	}
	if init, _ := c["initCommands"].([]string); !slices.Contains(init, `settings append target.source-map "/srv/app" "/home/me/app"`) {
		t.Errorf("c's source map: %q", init)
	}
	java, err := Java{}.AttachArgs(ctx, Target{Mode: Attach, Host: "127.0.0.1", Port: 4001, PathMappings: maps, SourcePaths: []string{"/src"}})
	if err != nil || java["port"] != 4001 || !reflect.DeepEqual(java["sourcePaths"], []string{"/src", "/home/me/app"}) {
		t.Errorf("java %v %v", java, err)
	}
}
