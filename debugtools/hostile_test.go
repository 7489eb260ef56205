package debugtools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/debugtools"
	"github.com/dbg-dev/dbg/ide"
	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/sessions/sessiontools"
	"github.com/dbg-dev/dbg/toolkit"
	"github.com/dbg-dev/dbg/toolkit/mcpbind"
)

// hostileServer is a server with every capability's tools (sessions,
// run configurations and Git, JVM) and no live JVM, served in memory.
type hostileServer struct {
	cs    *mcp.ClientSession
	m     *sessions.Manager
	tb    *toolkit.Toolbox
	prog  string
	tools map[string]*mcp.Tool
}

func newHostileServer(t *testing.T) *hostileServer {
	t.Helper()
	project := filepath.Join(t.TempDir(), "project", "app")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(project) // ".." paths stay inside the test's directory
	ctx, cancel := context.WithCancel(context.Background())
	m := sessions.NewManager(sessions.Config{Adapters: adapters.Default(), StateDir: t.TempDir(), Project: project})
	srv := mcp.NewServer(&mcp.Implementation{Name: "hostile", Version: "0"}, nil)
	tb := mcpbind.NewToolbox(srv, nil)
	sessiontools.New(m).Register(tb)
	x := ide.New(m, ide.Options{Context: ctx, Runner: ide.RunnerOptions{StopGrace: time.Second}})
	svc := debugtools.NewService(debugtools.Config{CacheDir: t.TempDir()})
	debugtools.New(m, svc, debugtools.Config{Starter: x}).Register(tb)
	x.Register(tb)
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cctx, ccancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer ccancel()
		_ = cs.Close()
		_ = ss.Close()
		_ = x.Close(cctx)
		svc.Close()
		m.Shutdown(cctx)
		cancel()
	})
	h := &hostileServer{cs: cs, m: m, tb: tb, tools: map[string]*mcp.Tool{}}
	_, file, _, _ := runtime.Caller(0)
	h.prog = filepath.Join(filepath.Dir(file), "..", "testdata", "mock", "forever.mock")
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		h.tools[tool.Name] = tool
	}
	return h
}

type answer struct {
	env     toolkit.Envelope[json.RawMessage]
	took    time.Duration
	isError bool
}

// call sends raw arguments and decodes the envelope; it fails the test
// on a protocol error (a hang among them: the call's deadline is 20 s)
// or a missing envelope.
func (h *hostileServer) call(t *testing.T, name string, args json.RawMessage) answer {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	start := time.Now()
	params := &mcp.CallToolParams{Name: name}
	if len(args) > 0 {
		params.Arguments = args
	}
	res, err := h.cs.CallTool(ctx, params)
	a := answer{took: time.Since(start)}
	if err != nil {
		t.Fatalf("%s(%.120s): %v", name, args, err)
	}
	a.isError = res.IsError
	text := res.Content[0].(*mcp.TextContent).Text
	if err := json.Unmarshal([]byte(text), &a.env); err != nil {
		t.Fatalf("%s(%.120s): not an envelope: %.300s", name, args, text)
	}
	if a.env.Success == a.isError {
		t.Errorf("%s(%.120s): success=%v but isError=%v", name, args, a.env.Success, a.isError)
	}
	if !a.env.Success && a.env.Error == nil {
		t.Errorf("%s(%.120s): a failure without an error", name, args)
	}
	if e := a.env.Error; e != nil && e.Code == toolkit.CodeInternal {
		t.Errorf("%s(%.120s): INTERNAL_ERROR for bad input: %s", name, args, e.Message)
	}
	if e := a.env.Error; e != nil {
		if b, _ := json.Marshal(e); len(b) > 8<<10 {
			t.Errorf("%s(%.120s): an error of %d bytes echoes the input: %.300s", name, args, len(b), b)
		}
	}
	if len(text) > 256<<10 {
		t.Errorf("%s(%.120s): an answer of %d bytes", name, args, len(text))
	}
	return a
}

// mockSession creates a mock session paused in a program that never ends.
func (h *hostileServer) mockSession(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, _, err := h.m.Create(ctx, sessions.CreateRequest{Language: "mock"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Launch(ctx, sessions.StartRequest{ScriptPath: h.prog, StopOnEntry: true, Wait: 5 * time.Second}); err != nil {
		t.Fatal(err)
	}
	return s.ID()
}

func nested(depth int, open, close string) string {
	return strings.Repeat(open, depth) + "1" + strings.Repeat(close, depth)
}

// bigString is the length of the long strings sent: 1 MB, or under the
// race detector, which makes each call's megabytes of JSON many times
// slower, just over the 64 KiB limit of a string argument.
var bigString = 1 << 20

// hostileValues are the values every argument of every tool is sent.
func hostileValues(t *testing.T) map[string]string {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	return map[string]string{
		"true": "true", "string": `"abc"`, "array": `[1,"a"]`, "object": `{"a":{"b":1}}`, "null": "null",
		"negative": "-1", "min int": "-9223372036854775808", "huge": "1e300", "past int64": "9223372036854775808",
		"fraction": "12.5", "numeric string": `"-99999999999999999999"`,
		"1 MB": q(strings.Repeat("x", bigString)), "NUL": q("a\x00b"), "dotdot": q("../../.."), "dotdot file": q("../../../etc/passwd"),
		"/proc/self/mem": q("/proc/self/mem"), "/dev/zero": q("/dev/zero"), "fifo": q(fifo),
		"depth-200 array": nested(200, "[", "]"), "depth-200 object": nested(200, `{"a":`, "}"),
		"unknown session": q("no-such-session"), "unknown connection": q("no-such-connection"),
		"empty": `""`, "spaces": q("   "),
	}
}

// Every tool answers hostile input with a structured error (or, where the
// input is harmless, a success) within 5 s: never a panic, never
// INTERNAL_ERROR, never a read of a device file (a FIFO would block).
func TestHostileInputEveryTool(t *testing.T) {
	if testing.Short() {
		t.Skip("calls every tool a few thousand times")
	}
	h := newHostileServer(t)
	values := hostileValues(t)
	names := h.tb.Names()
	if len(names) < 40 || len(h.tools) != len(names) {
		t.Fatalf("%d tools in the toolbox, %d served", len(names), len(h.tools))
	}
	// Tools whose hostile calls would end the shared session are given
	// a fresh one for each call.
	ends := map[string]bool{"close_debug_session": true, "detach_from_process": true, "restart_debugging": true,
		"continue_execution": true, "start_debugging": true, "attach_to_process": true, "step_over": true,
		"step_into": true, "step_out": true, "run_to_line": true, "set_variable": true,
		"restart_frame": true, "hot_reload": true, "goto_line": true}
	calls := 0
	for _, name := range names {
		toolStart := time.Now()
		tool := h.tools[name]
		props := schemaProps(tool)
		sid := h.mockSession(t)
		for _, raw := range []string{``, `null`, `{}`, `[]`, `"x"`, `{"sessionId":` + values["1 MB"] + `}`, `{"SessionId":"x"}`} {
			h.call(t, name, json.RawMessage(raw))
			calls++
		}
		for _, prop := range props {
			for vname, v := range values {
				if ends[name] {
					if _, err := h.m.Get(sid); err != nil {
						sid = h.mockSession(t)
					}
				}
				args := map[string]json.RawMessage{prop: json.RawMessage(v)}
				if prop != "sessionId" && slices.Contains(props, "sessionId") {
					b, _ := json.Marshal(sid)
					args["sessionId"] = b
				}
				raw, _ := json.Marshal(args)
				a := h.call(t, name, raw)
				calls++
				if a.env.Success && (vname == "1 MB" || vname == "NUL") && strings.HasSuffix(strings.ToLower(prop), "id") {
					t.Errorf("%s: %s %s accepted", name, prop, vname)
				}
				if a.env.Success && prop == "sessionId" && vname == "unknown session" {
					t.Errorf("%s: an unknown sessionId was ignored", name)
				}
			}
		}
		_ = h.m.CloseSession(context.Background(), sid)
		if d := time.Since(toolStart); d > time.Second {
			t.Logf("%s: %s", name, d)
		}
	}
	t.Logf("%d calls to %d tools", calls, len(names))
}

// An unknown sessionId is SESSION_NOT_FOUND in every tool that takes
// one, also where the call does not need the session.
func TestUnknownSessionEveryTool(t *testing.T) {
	h := newHostileServer(t)
	project := t.TempDir()
	src := filepath.Join(project, "a.txt")
	if err := os.WriteFile(src, []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	extra := map[string]map[string]any{
		"list_method_around_scripts":    {"projectPath": project},
		"get_method_around_script":      {"projectPath": project, "name": "X"},
		"get_source_context":            {"file": src, "line": 1},
		"attach_local_jvm":              {"pid": "999999999"},
		"read_target_application_logs":  {"pid": "999999999"},
		"search_http_url":               {"projectPath": project},
		"generate_method_args_template": {"projectPath": project, "className": "a.B", "methodName": "m"},
		"invoke_java_method":            {"className": "a.B", "methodName": "m", "connectionId": "c1"},
		"run_and_invoke":                {"className": "a.B", "methodName": "m", "pid": "999999999"},
		"set_breakpoint":                {"file": src, "line": 1},
		"evaluate_expression":           {"expression": "1"},
	}
	checked := 0
	for _, name := range h.tb.Names() {
		if !slices.Contains(schemaProps(h.tools[name]), "sessionId") {
			continue
		}
		args := map[string]any{"sessionId": "no-such-session"}
		for k, v := range extra[name] {
			args[k] = v
		}
		raw, _ := json.Marshal(args)
		a := h.call(t, name, raw)
		if a.env.Success || a.env.Error.Code != toolkit.CodeSessionNotFound {
			t.Errorf("%s(%s): want SESSION_NOT_FOUND, got success=%v %+v", name, raw, a.env.Success, a.env.Error)
		}
		checked++
	}
	if checked < 30 {
		t.Fatalf("only %d tools take a sessionId", checked)
	}
}

// Keys match exactly: an extra "sessionID" never overrides "sessionId".
func TestKeysMatchExactly(t *testing.T) {
	h := newHostileServer(t)
	sid := h.mockSession(t)
	a := h.call(t, "list_breakpoints", json.RawMessage(fmt.Sprintf(`{"sessionId":%q,"sessionID":"other"}`, sid)))
	if a.env.Success || a.env.Error.Code != toolkit.CodeInvalidArgument || !strings.Contains(a.env.Error.Message, `"sessionId"`) {
		t.Fatalf("%+v", a.env.Error)
	}
	a = h.call(t, "invoke_java_method", json.RawMessage(`{"className":"a.B","methodName":"m","timeoutMillis":true}`))
	if a.env.Success || a.env.Error.Message != `argument "timeoutMillis" must be a number, not the boolean true` {
		t.Fatalf("%+v", a.env.Error)
	}
}

// Devices, pipes and kernel files are refused at once as scripts and
// sources.
func TestDeviceFilesRefused(t *testing.T) {
	h := newHostileServer(t)
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/dev/zero", "/proc/self/mem", fifo} {
		created := h.call(t, "create_debug_session", json.RawMessage(`{"language":"mock"}`))
		var s struct {
			SessionID string `json:"sessionId"`
		}
		_ = json.Unmarshal(*created.env.Data, &s)
		for _, c := range []struct{ tool, args string }{
			{"start_debugging", fmt.Sprintf(`{"sessionId":%q,"scriptPath":%q}`, s.SessionID, p)},
			{"get_source_context", fmt.Sprintf(`{"file":%q,"line":1}`, p)},
			{"set_breakpoint", fmt.Sprintf(`{"sessionId":%q,"file":%q,"line":1}`, s.SessionID, p)},
		} {
			a := h.call(t, c.tool, json.RawMessage(c.args))
			if a.env.Success || a.env.Error.Code != toolkit.CodeInvalidArgument || a.took > 10*time.Second {
				t.Errorf("%s(%s): success=%v %+v in %s", c.tool, p, a.env.Success, a.env.Error, a.took)
			}
		}
	}
}

func schemaProps(tool *mcp.Tool) []string {
	var sc struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	b, _ := json.Marshal(tool.InputSchema)
	_ = json.Unmarshal(b, &sc)
	var out []string
	for p := range sc.Properties {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}
