package debugtools

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
	"github.com/dbg-dev/dbg/toolkit/mcpbind"
)

// sourceClient serves the source tools over in-memory transports.
type sourceClient struct {
	t  *testing.T
	cs *mcp.ClientSession
}

func newSourceClient(t *testing.T) *sourceClient {
	t.Helper()
	return newSourceClientOn(t, sessions.NewManager(sessions.Config{Now: func() time.Time { return time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC) }}))
}

// newSourceClientOn serves the source tools over the sessions of m.
func newSourceClientOn(t *testing.T, m *sessions.Manager) *sourceClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	srv := mcp.NewServer(&mcp.Implementation{Name: "dbg-test", Version: "0"}, nil)
	tb := mcpbind.NewToolbox(srv, nil)
	registerSourceTools(tb, m, Config{})
	return &sourceClient{t: t, cs: connectInMemory(t, ctx, srv)}
}

// call runs a tool and decodes its envelope; it also returns the raw text.
func call[T any](c *sourceClient, name string, args map[string]any) (toolkit.Envelope[T], string) {
	c.t.Helper()
	env, res := callTool[T](c.t, c.cs, 10*time.Second, name, args)
	if env.Success == res.IsError {
		c.t.Errorf("%s: success=%v but isError=%v", name, env.Success, res.IsError)
	}
	return env, res.Content[0].(*mcp.TextContent).Text
}

func wantCode[T any](t *testing.T, env toolkit.Envelope[T], code string) *toolkit.ToolError {
	t.Helper()
	if env.Success || env.Error == nil || env.Error.Code != code {
		t.Fatalf("want error %s, got success=%v error=%+v", code, env.Success, env.Error)
	}
	return env.Error
}

func absPath(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestGenerateMethodArgsTemplateTool(t *testing.T) {
	t.Parallel()
	c := newSourceClient(t)
	project := absPath(t, webProject)
	env, _ := call[argsTemplateOut](c, "generate_method_args_template", map[string]any{
		"className": "com.example.web.service.UserService", "methodName": "findUser",
		"parameterTypes": []string{"java.lang.Long"}, "genParamType": "CURRENT", "projectPath": project})
	if !env.Success {
		t.Fatalf("error: %+v", env.Error)
	}
	d := env.Data
	if !d.Success || d.ClassName != "com.example.web.service.UserService" || d.MethodName != "findUser" ||
		!reflect.DeepEqual(d.ParameterNames, []string{"id"}) || !reflect.DeepEqual(d.ParameterTypes, []string{"java.lang.Long"}) ||
		d.ArgsJSON != `{"id":{"type":"simple","content":""}}` || d.GenParamType != "CURRENT" || d.ErrorMessage != nil {
		t.Errorf("data = %+v", d)
	}
	if d.File != "src/main/java/com/example/web/service/UserService.java" || d.Line != 18 {
		t.Errorf("location = %s:%d", d.File, d.Line)
	}

	// Default expansion ALL, with the clock of the manager for dates and the
	// argument order of the declaration.
	env, _ = call[argsTemplateOut](c, "generate_method_args_template", map[string]any{
		"className": "com.example.web.service.UserService", "methodName": "register", "projectPath": project})
	if !env.Success || env.Data.GenParamType != "ALL" ||
		!strings.HasPrefix(env.Data.ArgsJSON, `{"user":{"type":"json_entity","content":{"id":"","createdAt":"2025-01-02 03:04:05","name":""`) ||
		!strings.HasSuffix(env.Data.ArgsJSON, `"notify":{"type":"simple","content":false}}`) {
		t.Errorf("register = %+v %+v", env.Data, env.Error)
	}
	env, _ = call[argsTemplateOut](c, "generate_method_args_template", map[string]any{
		"className": "com.example.web.service.UserService", "methodName": "anyOf", "expansion": "simple", "projectPath": project})
	if !env.Success || env.Data.GenParamType != "SIMPLE" || len(env.Data.Parameters) != 1 ||
		!reflect.DeepEqual(env.Data.Parameters[0].EnumConstants, []string{"ADMIN", "USER", "GUEST"}) {
		t.Errorf("anyOf = %+v %+v", env.Data, env.Error)
	}

	// Overloads without parameterTypes are refused with the candidates.
	env, _ = call[argsTemplateOut](c, "generate_method_args_template", map[string]any{
		"className": "com.example.web.service.UserService", "methodName": "findUser", "projectPath": project})
	e := wantCode(t, env, toolkit.CodeInvalidArgument)
	if !reflect.DeepEqual(e.AvailableOptions, []string{"findUser(java.lang.Long)", "findUser(java.lang.String)", "findUser(java.lang.String, int)"}) {
		t.Errorf("options = %v", e.AvailableOptions)
	}
	if det, _ := e.Details.(map[string]any); det == nil || det["argsJson"] != "{}" || det["candidates"] == nil {
		t.Errorf("details = %+v", e.Details)
	}

	for _, bad := range []map[string]any{
		{"methodName": "x", "projectPath": project},
		{"className": "com.example.web.service.UserService", "methodName": "findUser", "genParamType": "DEEP", "projectPath": project},
		{"className": "User", "methodName": "getName", "projectPath": project},
		{"className": "com.example.web.service.UserService", "methodName": "missing", "projectPath": project},
		{"className": 7, "methodName": "x"},
	} {
		env, _ := call[argsTemplateOut](c, "generate_method_args_template", bad)
		wantCode(t, env, toolkit.CodeInvalidArgument)
	}
	env, _ = call[argsTemplateOut](c, "generate_method_args_template", map[string]any{
		"className": "a.B", "methodName": "x", "projectPath": filepath.Join(project, "does-not-exist")})
	wantCode(t, env, toolkit.CodeNoProject)
	env, _ = call[argsTemplateOut](c, "generate_method_args_template", map[string]any{
		"className": "a.B", "methodName": "x", "sessionId": "nope"})
	wantCode(t, env, toolkit.CodeSessionNotFound)
}

func TestTemplateToolOnJavaService(t *testing.T) {
	t.Parallel()
	root := absPath(t, "../testdata/java-service/src/main/java")
	if _, err := os.Stat(filepath.Join(root, "com/example/shop/OrderService.java")); err != nil {
		t.Skip("testdata/java-service is not present")
	}
	c := newSourceClient(t)
	env, _ := call[argsTemplateOut](c, "generate_method_args_template", map[string]any{
		"className": "com.example.shop.OrderService", "methodName": "placeOrder", "projectPath": root})
	if !env.Success {
		t.Fatalf("error %+v", env.Error)
	}
	want := `{"order":{"type":"json_entity","content":{"createdBy":"","id":0,"customer":"","amount":0.0,"status":"NEW","items":[""]}}}`
	if env.Data.ArgsJSON != want {
		t.Errorf("argsJson = %s\nwant      %s", env.Data.ArgsJSON, want)
	}
	env, _ = call[argsTemplateOut](c, "generate_method_args_template", map[string]any{
		"className": "com.example.shop.OrderService", "methodName": "add", "parameterTypes": []string{"int", "int"}, "projectPath": root})
	if !env.Success || env.Data.ArgsJSON != `{"a":{"type":"simple","content":0},"b":{"type":"simple","content":0}}` {
		t.Errorf("add(int,int) = %+v %+v", env.Data, env.Error)
	}
	env, _ = call[argsTemplateOut](c, "generate_method_args_template", map[string]any{
		"className": "com.example.shop.OrderService", "methodName": "describe", "projectPath": root})
	if !env.Success || env.Data.Parameters[0].ContentType != "enum" {
		t.Errorf("describe = %+v %+v", env.Data, env.Error)
	}
	urls, _ := call[searchHTTPOut](c, "search_http_url", map[string]any{"path": "/api/orders", "projectPath": root})
	var got []string
	for _, it := range urls.Data.Items {
		got = append(got, it.Method+" "+it.Path+" "+it.ClassName+"#"+it.MethodName+" "+it.File+" "+it.ModuleName)
	}
	wantURLs := []string{
		"POST /api/orders com.example.shop.OrderController#place com/example/shop/OrderController.java java-service",
		"GET /api/orders/{id} com.example.shop.OrderController#get com/example/shop/OrderController.java java-service",
	}
	if !reflect.DeepEqual(got, wantURLs) {
		t.Errorf("search = %v", got)
	}
}

func TestSearchHTTPURLTool(t *testing.T) {
	t.Parallel()
	c := newSourceClient(t)
	project := absPath(t, webProject)
	env, text := call[searchHTTPOut](c, "search_http_url", map[string]any{"path": "/users/{id}", "method": "get", "projectPath": project})
	if !env.Success {
		t.Fatalf("error %+v", env.Error)
	}
	if env.Data.IndexState != "READY" || env.Data.Count != 1 || len(env.Data.Items) != 1 {
		t.Fatalf("data = %+v", env.Data)
	}
	it := env.Data.Items[0]
	if it.Method != "GET" || it.Path != "/api/users/{id}" || it.ClassName != "com.example.web.controller.UserController" ||
		it.MethodName != "getUser" || it.ModuleName != "java-web" || it.Line != 20 ||
		it.File != "src/main/java/com/example/web/controller/UserController.java" || it.Comment == nil || *it.Comment != "Reads one user." {
		t.Errorf("item = %+v", it)
	}
	if strings.Contains(text, project) {
		t.Errorf("answer exposes the absolute project path: %s", text)
	}

	env, _ = call[searchHTTPOut](c, "search_http_url", map[string]any{"projectPath": project, "limit": 3})
	if env.Data.Count != 3 || env.Data.Total != 16 {
		t.Errorf("limit: count %d total %d", env.Data.Count, env.Data.Total)
	}
	env, _ = call[searchHTTPOut](c, "search_http_url", map[string]any{"projectPath": project, "url": "http://localhost:8080/rs/items/3", "method": "DELETE"})
	if env.Data.Count != 1 || env.Data.Items[0].ClassName != "com.example.web.jaxrs.ItemResource" || env.Data.Items[0].MethodName != "delete" {
		t.Errorf("url search = %+v", env.Data)
	}
	env, _ = call[searchHTTPOut](c, "search_http_url", map[string]any{"projectPath": project, "keyword": "nothing-like-this"})
	if !env.Success || env.Data.Count != 0 || env.Data.Items == nil {
		t.Errorf("no match = %+v", env.Data)
	}
	env, _ = call[searchHTTPOut](c, "search_http_url", map[string]any{"projectPath": project, "method": "FETCH"})
	wantCode(t, env, toolkit.CodeInvalidArgument)
}

func TestSearchHTTPURLSeesChanges(t *testing.T) {
	t.Parallel()
	c := newSourceClient(t)
	project := t.TempDir()
	dir := filepath.Join(project, "src", "main", "java", "p")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, body string, mtime time.Time) {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	t0 := time.Now().Add(-time.Hour)
	write("A.java", `package p; @RestController class A { @GetMapping("/a") String a() { return ""; } }`, t0)
	paths := func() []string {
		env, _ := call[searchHTTPOut](c, "search_http_url", map[string]any{"projectPath": project})
		var out []string
		for _, it := range env.Data.Items {
			out = append(out, it.Method+" "+it.Path)
		}
		return out
	}
	if got := paths(); !reflect.DeepEqual(got, []string{"GET /a"}) {
		t.Fatalf("first = %v", got)
	}
	write("A.java", `package p; @RestController class A { @PostMapping("/a2") String a() { return ""; } }`, t0.Add(time.Minute))
	write("B.java", `package p; @RestController @RequestMapping("/b") class B { @DeleteMapping String b() { return ""; } }`, t0)
	if got := paths(); !reflect.DeepEqual(got, []string{"POST /a2", "DELETE /b"}) {
		t.Errorf("after change = %v", got)
	}
}

func TestMethodAroundTools(t *testing.T) {
	t.Parallel()
	c := newSourceClient(t)
	project := absPath(t, webProject)
	env, text := call[scriptsOut](c, "list_method_around_scripts", map[string]any{"projectPath": project})
	if !env.Success || env.Data.Count != 2 || env.Data.Scripts[0].Name != "PrepareTestContext" || env.Data.Scripts[1].Name != "UppercaseName" {
		t.Fatalf("list = %+v %+v", env.Data, env.Error)
	}
	if strings.Contains(text, project) || strings.Contains(text, ".java") {
		t.Errorf("list exposes paths: %s", text)
	}
	// A file inside the project names it too.
	env, _ = call[scriptsOut](c, "list_method_around_scripts", map[string]any{"projectPath": filepath.Join(project, "src", "main")})
	if env.Data.Count != 2 {
		t.Errorf("list from a sub-folder = %+v", env.Data)
	}

	got, text := call[MethodAroundSource](c, "get_method_around_script", map[string]any{"name": "PrepareTestContext", "projectPath": project})
	data, err := os.ReadFile(filepath.Join(project, MethodAroundDir, "PrepareTestContext.java"))
	if err != nil {
		t.Fatal(err)
	}
	if !got.Success || got.Data.Content != string(data) || len(got.Data.Identity) != 32 || got.Data.SizeBytes != int64(len(data)) {
		t.Errorf("get = %+v %+v", got.Data, got.Error)
	}
	if strings.Contains(text, project) {
		t.Errorf("get exposes the path: %s", text)
	}
	for _, bad := range []string{"../pom", "..", "PrepareTestContext.java", "sub/Script", `sub\Script`, "/etc/passwd", ""} {
		env, text := call[MethodAroundSource](c, "get_method_around_script", map[string]any{"name": bad, "projectPath": project})
		wantCode(t, env, toolkit.CodeInvalidArgument)
		if strings.Contains(text, project) {
			t.Errorf("%q: error exposes the path: %s", bad, text)
		}
	}
	env2, text := call[MethodAroundSource](c, "get_method_around_script", map[string]any{"name": "Missing", "projectPath": project})
	e := wantCode(t, env2, CodeScriptNotFound)
	if !reflect.DeepEqual(e.AvailableOptions, []string{"PrepareTestContext", "UppercaseName"}) || strings.Contains(text, project) {
		t.Errorf("missing = %+v %s", e, text)
	}
	empty, _ := call[scriptsOut](c, "list_method_around_scripts", map[string]any{"projectPath": t.TempDir()})
	if !empty.Success || empty.Data.Count != 0 || empty.Data.Scripts == nil {
		t.Errorf("empty = %+v", empty.Data)
	}
}

// TestTemplatesBindInFixtureJVM generates templates from the fixture
// service's sources and runs them, lightly edited, in the running fixture
// through dbg's agent: the templates' shapes are what the agent binds.
func TestTemplatesBindInFixtureJVM(t *testing.T) {
	t.Parallel()
	root := absPath(t, "../testdata/java-service/src/main/java")
	c := newSourceClient(t)
	gen := func(method string, types []string) argsTemplateOut {
		t.Helper()
		args := map[string]any{"className": "com.example.shop.OrderService", "methodName": method, "projectPath": root}
		if types != nil {
			args["parameterTypes"] = types
		}
		env, _ := call[argsTemplateOut](c, "generate_method_args_template", args)
		if !env.Success {
			t.Fatalf("template %s: %+v", method, env.Error)
		}
		return *env.Data
	}
	placeOrder := gen("placeOrder", nil)
	describe := gen("describe", nil)
	add := gen("add", []string{"int", "int"})

	s := newTestService(t)
	_, conn := attachFixture(t, s)
	run := func(tp argsTemplateOut, argsJSON string) string {
		t.Helper()
		o, err := ParseOrderedObject(argsJSON)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		res, ok, err := conn.Client.Run(ctx, &RunDTO{TargetClassName: tp.ClassName, TargetMethodName: tp.MethodName,
			TargetMethodParameterTypes: tp.ParameterTypes, TargetMethodContent: *o})
		if err != nil {
			t.Fatal(err)
		}
		if !ok || res.PrintResult == nil {
			thr := ""
			if res.Throwable != nil {
				thr = *res.Throwable
			}
			t.Fatalf("%s(%s) failed: %s", tp.MethodName, argsJSON, thr)
		}
		return *res.PrintResult
	}
	edited := strings.NewReplacer(`"id":0`, `"id":4711`, `"customer":""`, `"customer":"Template"`, `"amount":0.0`, `"amount":2.5`).Replace(placeOrder.ArgsJSON)
	if got := run(placeOrder, edited); !strings.Contains(got, "id=4711, customer=Template, amount=2.5, status=NEW") {
		t.Errorf("placeOrder = %s", got)
	}
	if got := run(describe, describe.ArgsJSON); got != "new/0" {
		t.Errorf("describe = %s", got)
	}
	if got := run(add, strings.Replace(add.ArgsJSON, `"content":0}}`, `"content":5}}`, 1)); got != "5" {
		t.Errorf("add = %s (args %s)", got, add.ArgsJSON)
	}
}

func TestSourceToolsFollowTheSession(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	m := sessions.NewManager(sessions.Config{Adapters: adapters.NewRegistry(adapters.Mock{}), Project: t.TempDir()})
	t.Cleanup(func() {
		sctx, scancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer scancel()
		m.Shutdown(sctx)
	})
	c := newSourceClientOn(t, m)

	s, _, err := m.Create(ctx, sessions.CreateRequest{Language: "mock"})
	if err != nil {
		t.Fatal(err)
	}
	project := absPath(t, webProject)
	if _, err := m.Start(ctx, s.ID(), sessions.StartRequest{ScriptPath: absPath(t, "../testdata/mock/forever.mock"), Cwd: project}); err != nil {
		t.Fatal(err)
	}
	// Without sessionId the server's (empty) project is used; with it, the
	// session's working directory.
	env, _ := call[scriptsOut](c, "list_method_around_scripts", map[string]any{})
	if !env.Success || env.Data.Count != 0 {
		t.Errorf("server project: %+v %+v", env.Data, env.Error)
	}
	env, _ = call[scriptsOut](c, "list_method_around_scripts", map[string]any{"sessionId": s.ID()})
	if !env.Success || env.Data.Count != 2 {
		t.Errorf("session project: %+v %+v", env.Data, env.Error)
	}
	urls, _ := call[searchHTTPOut](c, "search_http_url", map[string]any{"sessionId": s.ID(), "path": "/health"})
	if !urls.Success || urls.Data.Count != 1 {
		t.Errorf("session search: %+v %+v", urls.Data, urls.Error)
	}
}
