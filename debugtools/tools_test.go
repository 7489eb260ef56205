package debugtools

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
	"github.com/dbg-dev/dbg/toolkit/mcpbind"
)

type jvmClient struct {
	t   *testing.T
	cs  *mcp.ClientSession
	m   *sessions.Manager
	svc *Service
}

func newJVMClient(t *testing.T) *jvmClient {
	t.Helper()
	return newJVMClientWith(t, Config{})
}

// newJVMClientWith registers the tools with cfg (its Starter, ...).
func newJVMClientWith(t *testing.T, cfg Config) *jvmClient {
	t.Helper()
	return newJVMClientOn(t, sessions.NewManager(sessions.Config{}), cfg)
}

// newJVMClientOn registers the tools with cfg over the sessions of m.
func newJVMClientOn(t *testing.T, m *sessions.Manager, cfg Config) *jvmClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	srv := mcp.NewServer(&mcp.Implementation{Name: "dbg-test", Version: "0"}, nil)
	tb := mcpbind.NewToolbox(srv, nil)
	svc := NewService(Config{CacheDir: testCacheDir(t)})
	t.Cleanup(svc.Close)
	New(m, svc, cfg).Register(tb)
	cs := connectInMemory(t, ctx, srv)
	return &jvmClient{t: t, cs: cs, m: m, svc: svc}
}

// connectInMemory connects a client to srv over in-memory transports;
// both ends are closed at cleanup.
func connectInMemory(t *testing.T, ctx context.Context, srv *mcp.Server) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Close()
	})
	return cs
}

// callTool calls a tool, waiting up to d, and decodes its envelope; it
// also returns the result, with the raw text and the isError mark.
func callTool[T any](t *testing.T, cs *mcp.ClientSession, d time.Duration, name string, args map[string]any) (toolkit.Envelope[T], *mcp.CallToolResult) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	var env toolkit.Envelope[T]
	if err := json.Unmarshal([]byte(text), &env); err != nil {
		t.Fatalf("%s: decode %s: %v", name, text, err)
	}
	return env, res
}

// callJVM calls a tool and decodes its envelope.
func callJVM[T any](c *jvmClient, name string, args map[string]any) toolkit.Envelope[T] {
	c.t.Helper()
	env, _ := callTool[T](c.t, c.cs, 2*time.Minute, name, args)
	return env
}

func mustJVMOK[T any](t *testing.T, env toolkit.Envelope[T]) *T {
	t.Helper()
	if !env.Success || env.Data == nil {
		t.Fatalf("want success, got error %+v", env.Error)
	}
	return env.Data
}

func wantJVMCode[T any](t *testing.T, env toolkit.Envelope[T], code string) *toolkit.ToolError {
	t.Helper()
	if env.Success || env.Error == nil || env.Error.Code != code {
		t.Fatalf("want %s, got success=%v error=%+v", code, env.Success, env.Error)
	}
	return env.Error
}

func TestJVMToolsEndToEnd(t *testing.T) {
	t.Parallel()
	c := newJVMClient(t)
	f := startFixture(t)
	pid := strconv.Itoa(f.pid)
	project, _ := filepath.Abs("../testdata/java-service")

	// Before attaching: no connection.
	wantJVMCode(t, callJVM[InvokeOut](c, "invoke_java_method", map[string]any{"className": "com.example.shop.OrderService", "methodName": "greet"}), toolkit.CodeNoConnection)

	jvms := mustJVMOK(t, callJVM[jvmsOut](c, "list_attachable_jvms", map[string]any{"projectPath": project}))
	var found *JVMOut
	for i := range jvms.JVMs {
		if jvms.JVMs[i].PID == pid {
			found = &jvms.JVMs[i]
		}
	}
	if found == nil || found.AttachName != "ShopApplication" || found.DisplayName != "com.example.shop.ShopApplication" || !found.Attachable {
		t.Fatalf("fixture not listed right: %+v", jvms)
	}
	if found.ModuleName == nil || *found.ModuleName != "java-service" || found.ProjectName == nil {
		t.Fatalf("project link: %+v", found)
	}

	// Status before attaching: nothing to invoke yet, attach is next.
	status := &jvmStatus{t: &jvmTools{m: c.m, svc: c.svc}}
	part := status.Status(context.Background(), toolkit.StatusQuery{Project: project})
	if len(part.Capabilities) != 5 || part.Capabilities[0].Name != "invokeJavaMethod" || part.Capabilities[0].State != toolkit.NotConfigured {
		t.Fatalf("capabilities before attach: %+v", part.Capabilities)
	}
	if len(part.Suggestions) != 1 || part.Suggestions[0].Action != toolkit.NextAttachJVM {
		t.Fatalf("suggestions before attach: %+v", part.Suggestions)
	}

	att := mustJVMOK(t, callJVM[AttachOut](c, "attach_local_jvm", map[string]any{"pid": pid, "waitForConnectionMillis": 60000}))
	if !att.Success || att.ConnectionID == nil || att.Port == nil || att.HTTPPort == nil || *att.AttachName != "ShopApplication" {
		t.Fatalf("attach: %+v", att)
	}
	conns := mustJVMOK(t, callJVM[connectionsOut](c, "list_debug_tools_connections", nil))
	if conns.Count != 1 || conns.Connections[0].ConnectionID != *att.ConnectionID || *conns.Connections[0].PID != pid ||
		conns.Connections[0].State != "CONNECTED" || conns.Connections[0].DefaultClassLoader == nil {
		t.Fatalf("connections: %+v", conns)
	}
	conn := *att.ConnectionID

	inv := func(args map[string]any) toolkit.Envelope[InvokeOut] {
		args["connectionId"] = conn
		return callJVM[InvokeOut](c, "invoke_java_method", args)
	}
	// Simple argument, TO_STRING.
	out := mustJVMOK(t, inv(map[string]any{"className": "com.example.shop.OrderService", "methodName": "greet",
		"argsJson": `{"name":{"type":"simple","content":"Ada"}}`}))
	if !out.Success || *out.Result != "Hello, Ada!" || out.ResultFetchStatus != FetchNotRequested || *out.ResultClassType != "SIMPLE" {
		t.Fatalf("greet: %+v", out)
	}
	// Static method, key order binds.
	out = mustJVMOK(t, inv(map[string]any{"className": "com.example.shop.PriceUtil", "methodName": "withVat",
		"argsJson": `{"net":{"type":"simple","content":"100"},"percent":{"type":"simple","content":"7"}}`}))
	if *out.Result != "107.0" {
		t.Fatalf("withVat: %+v", out)
	}
	// Enum argument.
	out = mustJVMOK(t, inv(map[string]any{"className": "com.example.shop.OrderService", "methodName": "describe",
		"argsJson": `{"status":{"type":"enum","content":"CANCELLED"}}`, "resultView": "NONE"}))
	if *out.Result != "cancelled/3" || out.ResultFetchStatus != FetchSkipped {
		t.Fatalf("describe: %+v", out)
	}
	// POJO argument with the JSON view, then the DEBUG view.
	order := `{"order":{"type":"json_entity","content":"{\"id\":42,\"customer\":\"Grace\",\"amount\":19.99,\"status\":\"PAID\",\"createdBy\":\"ops\"}"}}`
	out = mustJVMOK(t, inv(map[string]any{"className": "com.example.shop.OrderService", "methodName": "placeOrder",
		"argsJson": order, "resultView": "JSON"}))
	if !strings.Contains(*out.Result, "customer=Grace") || out.ResultFetchStatus != FetchSuccess || out.ResultJSON == nil {
		t.Fatalf("placeOrder: %+v", out)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(*out.ResultJSON), &got); err != nil || got["customer"] != "Grace" || got["amount"] != 19.99 || got["status"] != "PAID" {
		t.Fatalf("JSON view %s: %v", *out.ResultJSON, err)
	}
	out = mustJVMOK(t, inv(map[string]any{"className": "com.example.shop.OrderService", "methodName": "findOrder",
		"argsJson": `{"id":{"type":"simple","content":"42"}}`, "resultView": "DEBUG"}))
	if out.ResultFetchStatus != FetchSuccess || !strings.Contains(*out.ResultJSON, `"name":"customer"`) || !strings.Contains(*out.ResultJSON, `"value":"Grace"`) {
		t.Fatalf("DEBUG view: %+v %s", out, str(out.ResultJSON))
	}
	// Overloads need parameterTypes.
	out = mustJVMOK(t, inv(map[string]any{"className": "com.example.shop.OrderService", "methodName": "add", "parameterTypes": []string{"int", "int"},
		"argsJson": `{"a":{"type":"simple","content":"40"},"b":{"type":"simple","content":"2"}}`}))
	if *out.Result != "42" {
		t.Fatalf("add: %+v", out)
	}
	e := wantJVMCode(t, inv(map[string]any{"className": "com.example.shop.OrderService", "methodName": "add",
		"argsJson": `{"a":{"type":"simple","content":"40"},"b":{"type":"simple","content":"2"}}`}), toolkit.CodeInvocationFailed)
	if !strings.Contains(e.Message, "overloaded") {
		t.Fatalf("overload error: %+v", e)
	}
	// A method that throws: the envelope fails with INVOCATION_FAILED and
	// data keeps the invocation's fields.
	thrown := inv(map[string]any{"className": "com.example.shop.OrderService", "methodName": "fail",
		"argsJson": `{"reason":{"type":"simple","content":"out of stock"}}`, "resultView": "JSON"})
	wantJVMCode(t, thrown, toolkit.CodeInvocationFailed)
	if thrown.Data == nil {
		t.Fatal("a thrown invocation lost its data")
	}
	out = thrown.Data
	if out.Success || out.Throwable == nil || !strings.Contains(*out.Throwable, "java.lang.IllegalStateException: refused: out of stock") ||
		!strings.Contains(*out.Throwable, "\tat com.example.shop.OrderService.fail(OrderService.java:") || out.ResultFetchStatus != FetchNotRequested {
		t.Fatalf("fail: %+v", out)
	}
	// A Method Around script that changes the argument.
	script := `public class Around {
    public static void onBefore(Object[] args) { args[0] = "Around " + args[0]; }
    public static Object onAfter(Object[] args, Object result) { return result + " (after)"; }
}`
	out = mustJVMOK(t, inv(map[string]any{"className": "com.example.shop.OrderService", "methodName": "greet",
		"argsJson": `{"name":{"type":"simple","content":"Bob"}}`, "methodAroundContent": script}))
	if *out.Result != "Hello, Around Bob! (after)" {
		t.Fatalf("method around: %+v %s", out, str(out.Throwable))
	}
	// ANSI escapes printed by the target are stripped from captured logs.
	colored := `public class Colored { public static void onBefore(Object[] a) { System.out.println("ansi-check \u001b[31mRED\u001b[0m done"); } }`
	mustJVMOK(t, inv(map[string]any{"className": "com.example.shop.PriceUtil", "methodName": "ping", "methodAroundContent": colored}))
	ansi := mustJVMOK(t, callJVM[LogsOut](c, "read_target_application_logs", map[string]any{"keyword": "ansi-check"}))
	if ansi.Count != 1 || ansi.Entries[0].Message != "ansi-check RED done" {
		t.Fatalf("ANSI not stripped: %+v", ansi)
	}
	// Logs the calls produced: System.out and java.util.logging.
	logs := mustJVMOK(t, callJVM[LogsOut](c, "read_target_application_logs", map[string]any{"keyword": "Around Bob"}))
	if logs.Count != 1 || logs.Entries[0].Message != "greet called with Around Bob" || logs.Entries[0].Logger != "System.out" {
		t.Fatalf("logs: %+v", logs)
	}
	logs = mustJVMOK(t, callJVM[LogsOut](c, "read_target_application_logs", map[string]any{"level": "WARN", "connectionId": conn}))
	if logs.Count != 1 || logs.Entries[0].Message != "describing CANCELLED" || logs.Entries[0].Logger != "com.example.shop.OrderService" {
		t.Fatalf("WARN logs: %+v", logs)
	}
	// SQL with bound parameters, on the connection opened before attach.
	sqlOut := mustJVMOK(t, callJVM[SQLOut](c, "get_last_sql_statements", map[string]any{"keyword": "merge"}))
	if sqlOut.Count != 1 || !strings.HasPrefix(sqlOut.Statements[0].SQL, "MERGE INTO orders") ||
		strings.Join(sqlOut.Statements[0].Parameters, "|") != "42|Grace|19.99|PAID" {
		t.Fatalf("sql: %+v", sqlOut)
	}
	// run_and_invoke returns only what the call produced.
	run := mustJVMOK(t, callJVM[RunInvokeOut](c, "run_and_invoke", map[string]any{"className": "com.example.shop.OrderService", "methodName": "findOrder",
		"argsJson": `{"id":{"type":"simple","content":"1"}}`}))
	if run.Attached || !run.Ready || !strings.Contains(str(run.Invocation.Result), "customer=seed") || len(run.SQL) != 1 ||
		!strings.Contains(run.SQL[0].SQL, "WHERE id = ?") || strings.Join(run.SQL[0].Parameters, ",") != "1" {
		t.Fatalf("run_and_invoke: %+v", run)
	}
	// run_and_invoke of a method that throws: INVOCATION_FAILED, with the
	// invocation, logs and SQL of the call in data.
	runThrown := callJVM[RunInvokeOut](c, "run_and_invoke", map[string]any{"className": "com.example.shop.OrderService", "methodName": "fail",
		"argsJson": `{"reason":{"type":"simple","content":"run refused"}}`})
	wantJVMCode(t, runThrown, toolkit.CodeInvocationFailed)
	if d := runThrown.Data; d == nil || d.ConnectionID != conn || d.Invocation.Success || !strings.Contains(str(d.Invocation.Throwable), "refused: run refused") || d.Logs == nil {
		t.Fatalf("run_and_invoke throw: %+v", runThrown.Data)
	}
	// A wrong connectionId.
	e = wantJVMCode(t, callJVM[InvokeOut](c, "invoke_java_method", map[string]any{"connectionId": "nope", "className": "a.B", "methodName": "m"}), toolkit.CodeConnectionNotFound)
	if len(e.AvailableOptions) != 1 || e.AvailableOptions[0] != conn {
		t.Fatalf("options: %+v", e)
	}
	// Status.
	part = status.Status(context.Background(), toolkit.StatusQuery{Project: project})
	states := map[string]string{}
	for _, cs := range part.Capabilities {
		states[cs.Name] = cs.State
	}
	for _, n := range []string{"invokeJavaMethod", "classLoaderQuery", "resultFetch", "logs", "sql"} {
		if states[n] != toolkit.Available {
			t.Fatalf("capability %s: %+v", n, part.Capabilities)
		}
	}
	if len(part.Suggestions) == 0 || part.Suggestions[0].Action != toolkit.NextInvoke {
		t.Fatalf("suggestions %+v", part.Suggestions)
	}
}

func TestJVMToolsRefuseDisableAttachMechanism(t *testing.T) {
	t.Parallel()
	c := newJVMClient(t)
	f := startFixture(t, "-XX:+DisableAttachMechanism")
	e := wantJVMCode(t, callJVM[AttachOut](c, "attach_local_jvm", map[string]any{"pid": f.pid, "waitForConnectionMillis": 2000}), toolkit.CodeAttachFailed)
	if !strings.Contains(e.Message, "-XX:+DisableAttachMechanism") {
		t.Fatalf("message: %+v", e)
	}
	time.Sleep(300 * time.Millisecond)
	if !f.alive() {
		t.Fatal("the JVM died")
	}
}

// silentAgent accepts connections, answers heartbeats and never answers
// a run.
func silentAgent(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				for {
					f, err := ReadFrame(conn)
					if err != nil {
						return
					}
					if f.Command == CmdHeartbeatRequest {
						_ = WriteFrame(conn, NewFrame(CmdHeartbeatResponse, ResultSuccess, []byte(`{}`)))
					}
				}
			}()
		}
	}()
	return l.Addr().String()
}

func TestInvokeTimesOutOnSilentAgent(t *testing.T) {
	c := newJVMClient(t)
	addr := silentAgent(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cl, err := DialAgent(ctx, addr)
	if err != nil {
		t.Fatal(err)
	}
	c.svc.add(&Connection{ID: "silent-1", ApplicationName: "silent", PID: 1, Host: "127.0.0.1", Client: cl})
	start := time.Now()
	e := wantJVMCode(t, callJVM[InvokeOut](c, "invoke_java_method", map[string]any{"className": "a.B", "methodName": "m", "timeoutMillis": 300}), toolkit.CodeTimeout)
	if d := time.Since(start); d > 5*time.Second || !e.Retryable {
		t.Fatalf("took %s: %+v", d, e)
	}
	wantJVMCode(t, callJVM[LogsOut](c, "read_target_application_logs", nil), toolkit.CodeLogsUnavailable)
	wantJVMCode(t, callJVM[SQLOut](c, "get_last_sql_statements", nil), toolkit.CodeSQLHistoryUnavailable)

	// Two connections: the server never guesses.
	cl2, err := DialAgent(ctx, addr)
	if err != nil {
		t.Fatal(err)
	}
	c.svc.add(&Connection{ID: "silent-2", ApplicationName: "silent", PID: 2, Host: "127.0.0.1", Client: cl2})
	e = wantJVMCode(t, callJVM[InvokeOut](c, "invoke_java_method", map[string]any{"className": "a.B", "methodName": "m"}), toolkit.CodeConnectionAmbiguous)
	if strings.Join(e.AvailableOptions, ",") != "silent-1,silent-2" || e.NextAction != toolkit.NextSelectConnection {
		t.Fatalf("ambiguous: %+v", e)
	}
}

func TestAgentThatDoesNotAnswer(t *testing.T) {
	t.Parallel()
	// Nothing listens on the agent's port: attach is triggered, no connection.
	mustHaveJDK(t)
	f := startFixture(t)
	svc := NewService(Config{AgentJar: buildNoopAgent(t)})
	t.Cleanup(svc.Close)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := svc.Attach(ctx, f.pid, "", 1500*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if res.Conn != nil || !strings.Contains(res.Message, "no connection") {
		t.Fatalf("want no connection, got %+v", res)
	}
	if !f.alive() {
		t.Fatal("the JVM died")
	}
}

func TestLogsOfOwnedProcess(t *testing.T) {
	t.Parallel()
	c := newJVMClient(t)
	ring := toolkit.NewOutputRing(1<<16, nil)
	ring.Write("stdout", "hello \x1b[32mworld\x1b[0m\n")
	ring.Write("stderr", "boom\n")
	c.m.RegisterProcess(toolkit.OwnedProcess{Name: "svc", Kind: "runConfiguration", PID: 4242, Output: ring})
	logs := mustJVMOK(t, callJVM[LogsOut](c, "read_target_application_logs", map[string]any{"pid": "4242"}))
	if logs.Source != "process" || logs.Count != 2 || logs.Entries[0].Message != "hello world" || logs.Entries[1].Level != "ERROR" {
		t.Fatalf("logs: %+v", logs)
	}
	logs = mustJVMOK(t, callJVM[LogsOut](c, "read_target_application_logs", map[string]any{"pid": 4242, "level": "ERROR", "since": logs.Entries[0].Seq}))
	if logs.Count != 1 || logs.Entries[0].Message != "boom" {
		t.Fatalf("filtered: %+v", logs)
	}
	wantJVMCode(t, callJVM[LogsOut](c, "read_target_application_logs", map[string]any{"pid": "999999"}), toolkit.CodeLogsUnavailable)
}

func TestSQLDriverWrapFallback(t *testing.T) {
	t.Parallel()
	c := newJVMClient(t)
	c.svc.extraAgentArgs = "sqlMode=wrap"
	f := startFixture(t)
	att := mustJVMOK(t, callJVM[AttachOut](c, "attach_local_jvm", map[string]any{"pid": f.pid, "waitForConnectionMillis": 60000}))
	if att.ConnectionID == nil {
		t.Fatalf("attach: %+v", att)
	}
	out := mustJVMOK(t, callJVM[InvokeOut](c, "invoke_java_method", map[string]any{"className": "com.example.shop.ReportService",
		"methodName": "countByStatus", "argsJson": `{"status":{"type":"enum","content":"NEW"}}`}))
	if str(out.Result) != "1" {
		t.Fatalf("count: %+v %s", out, str(out.Throwable))
	}
	// The connection opened at start-up is not wrapped: its statements are not seen.
	mustJVMOK(t, callJVM[InvokeOut](c, "invoke_java_method", map[string]any{"className": "com.example.shop.OrderService",
		"methodName": "findOrder", "argsJson": `{"id":{"type":"simple","content":"1"}}`}))
	sqlOut := mustJVMOK(t, callJVM[SQLOut](c, "get_last_sql_statements", nil))
	if sqlOut.Mode != "driver-wrap" || sqlOut.Note == nil || !strings.Contains(*sqlOut.Note, "only connections opened from now on") {
		t.Fatalf("mode/note: %+v", sqlOut)
	}
	if sqlOut.Count != 1 || sqlOut.Statements[0].SQL != "SELECT COUNT(*) FROM orders WHERE status = ?" || strings.Join(sqlOut.Statements[0].Parameters, ",") != "NEW" {
		t.Fatalf("statements: %+v", sqlOut.Statements)
	}
}

func TestAttachRefusesNonJVM(t *testing.T) {
	t.Parallel()
	// The test binary is a Go program: SIGQUIT would kill it, so passing
	// this test proves no signal was sent.
	c := newJVMClient(t)
	env := callJVM[AttachOut](c, "attach_local_jvm", map[string]any{"pid": strconv.Itoa(os.Getpid())})
	e := wantJVMCode(t, env, toolkit.CodeAttachFailed)
	if !strings.Contains(e.Message, "not a JVM") {
		t.Fatalf("message: %+v", e)
	}
	// The failed attach keeps its own fields in data.
	if d := env.Data; d == nil || d.Success || d.PID != strconv.Itoa(os.Getpid()) || !strings.Contains(d.Message, "not a JVM") {
		t.Fatalf("data of a failed attach: %+v", env.Data)
	}
	wantJVMCode(t, callJVM[AttachOut](c, "attach_local_jvm", map[string]any{"pid": "abc"}), toolkit.CodeInvalidArgument)
}

func TestMethodAroundWithoutCompiler(t *testing.T) {
	t.Parallel()
	c := newJVMClient(t)
	// A runtime without java.compiler, as a jlinked JRE would be.
	f := startFixture(t, "--limit-modules", "java.base,java.logging,java.sql,java.instrument,jdk.httpserver")
	att := mustJVMOK(t, callJVM[AttachOut](c, "attach_local_jvm", map[string]any{"pid": f.pid, "waitForConnectionMillis": 60000}))
	if att.ConnectionID == nil {
		t.Fatalf("attach: %+v", att)
	}
	args := map[string]any{"className": "com.example.shop.OrderService", "methodName": "greet", "argsJson": `{"name":{"type":"simple","content":"x"}}`}
	if out := mustJVMOK(t, callJVM[InvokeOut](c, "invoke_java_method", args)); str(out.Result) != "Hello, x!" {
		t.Fatalf("plain invoke: %+v", out)
	}
	args["methodAroundContent"] = "public class A { public static void onBefore(Object[] a) {} }"
	e := wantJVMCode(t, callJVM[InvokeOut](c, "invoke_java_method", args), toolkit.CodeInvocationFailed)
	if !strings.Contains(e.Message, "no javax.tools") || !strings.Contains(e.Message, "need the target to run on a JDK") {
		t.Fatalf("message: %+v", e)
	}
}
