package javasrc

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

const userService = "com.example.web.service.UserService"

var fixedNow = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

func template(t *testing.T, ix *Index, method string, types []string, e Expansion) *Template {
	t.Helper()
	tp, err := ix.Template(TemplateRequest{ClassName: userService, MethodName: method, ParameterTypes: types, Expansion: e, Now: fixedNow})
	if err != nil {
		t.Fatalf("template %s: %v", method, err)
	}
	return tp
}

// orderedKeys returns the keys of the JSON object at the top of raw, in order.
func orderedKeys(t *testing.T, raw string) []string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(raw))
	var keys []string
	depth := 0
	expectKey := false
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch v := tok.(type) {
		case json.Delim:
			if v == '{' || v == '[' {
				depth++
				expectKey = v == '{' && depth == 1
			} else {
				depth--
				expectKey = depth == 1
			}
			continue
		case string:
			if depth == 1 && expectKey {
				keys = append(keys, v)
				expectKey = false
				continue
			}
		}
		if depth == 1 {
			expectKey = true
		}
	}
	return keys
}

type arg struct {
	Type    string          `json:"type"`
	Content json.RawMessage `json:"content"`
}

func args(t *testing.T, tp *Template) map[string]arg {
	t.Helper()
	var m map[string]arg
	if err := json.Unmarshal([]byte(tp.ArgsJSON), &m); err != nil {
		t.Fatalf("argsJson %s: %v", tp.ArgsJSON, err)
	}
	return m
}

func TestTemplateSimpleArgument(t *testing.T) {
	ix := loadIndex(t, webFixture)
	tp := template(t, ix, "findUser", []string{"java.lang.Long"}, ExpandCurrent)
	if tp.ArgsJSON != `{"id":{"type":"simple","content":""}}` {
		t.Errorf("argsJson = %s", tp.ArgsJSON)
	}
	if !reflect.DeepEqual(tp.ParameterNames, []string{"id"}) || !reflect.DeepEqual(tp.ParameterTypes, []string{"java.lang.Long"}) {
		t.Errorf("names/types = %v %v", tp.ParameterNames, tp.ParameterTypes)
	}
	if tp.ClassName != userService || tp.MethodName != "findUser" || tp.Expansion != ExpandCurrent {
		t.Errorf("header = %+v", tp)
	}
	if tp.File != "src/main/java/com/example/web/service/UserService.java" || tp.Line != 18 {
		t.Errorf("location = %s:%d", tp.File, tp.Line)
	}
	// The same overload chosen by simple names and by two parameters.
	if tp := template(t, ix, "findUser", []string{"String", "int"}, ExpandAll); tp.ArgsJSON != `{"name":{"type":"simple","content":""},"age":{"type":"simple","content":0}}` {
		t.Errorf("findUser(String,int) = %s", tp.ArgsJSON)
	}
	if tp := template(t, ix, "count", nil, ExpandAll); tp.ArgsJSON != "{}" || len(tp.ParameterNames) != 0 {
		t.Errorf("count = %s", tp.ArgsJSON)
	}
}

func TestTemplateOverloads(t *testing.T) {
	ix := loadIndex(t, webFixture)
	_, err := ix.Template(TemplateRequest{ClassName: userService, MethodName: "findUser"})
	var le *LookupError
	if !errors.As(err, &le) || le.Reason != "ambiguous" {
		t.Fatalf("err = %v", err)
	}
	want := []string{"findUser(java.lang.Long)", "findUser(java.lang.String)", "findUser(java.lang.String, int)"}
	if !reflect.DeepEqual(le.Options, want) || len(le.Candidates) != 3 || le.Candidates[2].ParameterNames[1] != "age" {
		t.Errorf("options = %v candidates = %+v", le.Options, le.Candidates)
	}
	_, err = ix.Template(TemplateRequest{ClassName: userService, MethodName: "findUser", ParameterTypes: []string{"double"}})
	if !errors.As(err, &le) || le.Reason != "no_match" || len(le.Options) != 3 {
		t.Errorf("no match err = %v", err)
	}
	_, err = ix.Template(TemplateRequest{ClassName: userService, MethodName: "nope"})
	if !errors.As(err, &le) || le.Reason != "method_not_found" || !hasString(le.Options, "register") {
		t.Errorf("missing method err = %v", err)
	}
	_, err = ix.Template(TemplateRequest{ClassName: "com.example.User", MethodName: "x"})
	if !errors.As(err, &le) || le.Reason != "class_not_found" || !reflect.DeepEqual(le.Options, []string{"com.example.web.model.User"}) {
		t.Errorf("missing class err = %v", err)
	}
}

func TestTemplateExpansions(t *testing.T) {
	ix := loadIndex(t, webFixture)
	simple := args(t, template(t, ix, "register", nil, ExpandSimple))
	if simple["user"].Type != "json_entity" || string(simple["user"].Content) != "{}" {
		t.Errorf("SIMPLE user = %+v", simple["user"])
	}
	if simple["notify"].Type != "simple" || string(simple["notify"].Content) != "false" {
		t.Errorf("notify = %+v", simple["notify"])
	}

	current := template(t, ix, "register", nil, ExpandCurrent)
	if got := orderedKeys(t, current.ArgsJSON); !reflect.DeepEqual(got, []string{"user", "notify"}) {
		t.Errorf("argument order = %v", got)
	}
	user := args(t, current)["user"].Content
	wantCurrent := []string{"name", "age", "active", "role", "addresses", "scores", "extraRoles", "manager", "balance", "mail", "tags"}
	if got := orderedKeys(t, string(user)); !reflect.DeepEqual(got, wantCurrent) {
		t.Errorf("CURRENT fields = %v, want %v", got, wantCurrent)
	}
	var u map[string]json.RawMessage
	if err := json.Unmarshal(user, &u); err != nil {
		t.Fatal(err)
	}
	for field, want := range map[string]string{
		"name": `""`, "age": "0", "active": "false", "role": `"ADMIN"`,
		"addresses":  `[{"city":"","zip":"","country":"FR"}]`, // record components, nested enum
		"scores":     `{"":""}`,
		"extraRoles": `["ADMIN"]`,
		"manager":    "{}", // the cycle User -> User stops
		"balance":    `""`, "mail": `""`, "tags": `[""]`,
	} {
		if string(u[field]) != want {
			t.Errorf("CURRENT user.%s = %s, want %s", field, u[field], want)
		}
	}
	if _, ok := u["password"]; ok {
		t.Errorf("@JsonIgnore field present")
	}

	all := args(t, template(t, ix, "register", nil, ExpandAll))["user"].Content
	keys := orderedKeys(t, string(all))
	if !reflect.DeepEqual(keys, append([]string{"id", "createdAt"}, wantCurrent...)) {
		t.Errorf("ALL fields = %v", keys)
	}
	if err := json.Unmarshal(all, &u); err != nil {
		t.Fatal(err)
	}
	// BaseEntity<Long>: ID is Long, a simple value; createdAt a date-time.
	if string(u["id"]) != `""` || string(u["createdAt"]) != `"2025-01-02 03:04:05"` {
		t.Errorf("inherited id/createdAt = %s %s", u["id"], u["createdAt"])
	}
}

func TestTemplateKinds(t *testing.T) {
	ix := loadIndex(t, webFixture)
	cases := []struct {
		method   string
		param    string
		typ      string
		ptype    string
		content  string
		generic  string
		constant []string
	}{
		{"bulk", "users", "json_entity", "java.util.List", "", "java.util.List<com.example.web.model.User>", nil},
		{"bulk", "permissions", "json_entity", "java.util.Map", `{"ADMIN":[""]}`, "java.util.Map<com.example.web.model.Role, java.util.List<java.lang.String>>", nil},
		{"tag", "roles", "json_entity", "com.example.web.model.Role[]", `["ADMIN"]`, "", nil},
		{"sum", "grid", "json_entity", "int[][]", `[[0]]`, "", nil},
		{"echo", "value", "simple", "java.lang.Number", `""`, "", nil},
		// A collection of enums is JSON (the enum type binds single constants
		// only), with the constants listed.
		{"anyOf", "roles", "json_entity", "java.util.Set", `["ADMIN"]`, "", []string{"ADMIN", "USER", "GUEST"}},
		{"audited", "audit", "bean", "com.example.web.service.AuditService", "", "", nil},
		{"apply", "fn", "lambda", "java.util.function.Function", "null", "", nil},
		{"read", "file", "file", "java.io.File", `""`, "", nil},
		{"read", "type", "class", "java.lang.Class", `""`, "java.lang.Class<?>", nil},
		{"when", "day", "simple", "java.time.LocalDate", `"2025-01-02"`, "", nil},
		{"when", "at", "simple", "java.util.Date", `"2025-01-02 03:04:05"`, "", nil},
		{"maybe", "name", "json_entity", "java.util.Optional", `""`, "", nil},
		{"search", "request", "json_entity", "com.example.web.model.PageRequest",
			`{"filter":{"keyword":"","page":{"number":0,"size":0}},"history":[{"keyword":"","page":{"number":0,"size":0}}],"page":0,"size":0}`,
			"com.example.web.model.PageRequest<com.example.web.model.UserQuery>", nil},
		{"country", "address", "json_entity", "com.example.web.model.Address", `{"city":"","zip":"","country":"FR"}`, "", nil},
	}
	for _, c := range cases {
		tp := template(t, ix, c.method, nil, ExpandAll)
		a, ok := args(t, tp)[c.param]
		if !ok {
			t.Errorf("%s: no argument %s in %s", c.method, c.param, tp.ArgsJSON)
			continue
		}
		if a.Type != c.typ {
			t.Errorf("%s.%s type = %s, want %s", c.method, c.param, a.Type, c.typ)
		}
		if c.content != "" && string(a.Content) != c.content {
			t.Errorf("%s.%s content = %s, want %s", c.method, c.param, a.Content, c.content)
		}
		if c.typ == "bean" && a.Content != nil {
			t.Errorf("bean has content %s", a.Content)
		}
		var pt ParamTemplate
		for _, p := range tp.Parameters {
			if p.Name == c.param {
				pt = p
			}
		}
		if pt.Type != c.ptype || pt.ContentType != c.typ {
			t.Errorf("%s.%s parameter = %+v", c.method, c.param, pt)
		}
		if c.generic != "" && pt.GenericType != c.generic {
			t.Errorf("%s.%s generic = %s, want %s", c.method, c.param, pt.GenericType, c.generic)
		}
		if c.constant != nil && !reflect.DeepEqual(pt.EnumConstants, c.constant) {
			t.Errorf("%s.%s constants = %v", c.method, c.param, pt.EnumConstants)
		}
	}
}

func TestTemplateCycleAndDepth(t *testing.T) {
	dir := t.TempDir()
	writeSource(t, dir, "p/Node.java", `package p;
import java.util.List;
public class Node { String name; Node parent; List<Node> children; Wrapper<Node> wrapped; }
class Wrapper<T> { T value; }
class Deep { L1 a; } class L1 { L2 b; } class L2 { L3 c; } class L3 { L4 d; } class L4 { L5 e; } class L5 { L6 f; } class L6 { int g; }
class Svc { void take(Node node, Deep deep) {} }`)
	ix := loadIndex(t, dir)
	tp, err := ix.Template(TemplateRequest{ClassName: "p.Svc", MethodName: "take", Expansion: ExpandAll})
	if err != nil {
		t.Fatal(err)
	}
	a := args(t, tp)
	if got := string(a["node"].Content); got != `{"name":"","parent":{},"children":[{}],"wrapped":{"value":{}}}` {
		t.Errorf("node = %s", got)
	}
	if got := string(a["deep"].Content); got != `{"a":{"b":{"c":{"d":{"e":{}}}}}}` {
		t.Errorf("deep = %s", got)
	}
}

func TestJavaServiceFixture(t *testing.T) {
	const root = "../../testdata/java-service"
	ix := loadIndex(t, root)
	if len(ix.Type("com.example.shop.OrderService")) == 0 {
		t.Skip("testdata/java-service has no OrderService") // the fixture belongs to the JVM side
	}
	tp, err := ix.Template(TemplateRequest{ClassName: "com.example.shop.OrderService", MethodName: "placeOrder", Expansion: ExpandAll})
	if err != nil {
		t.Fatal(err)
	}
	order := args(t, tp)["order"]
	if order.Type != "json_entity" || !strings.Contains(string(order.Content), `"createdBy":""`) || !strings.Contains(string(order.Content), `"amount":0.0`) {
		t.Errorf("placeOrder = %s", tp.ArgsJSON)
	}
	var le *LookupError
	if _, err := ix.Template(TemplateRequest{ClassName: "com.example.shop.OrderService", MethodName: "add"}); !errors.As(err, &le) || len(le.Options) != 2 {
		t.Errorf("add overloads err = %v", err)
	}
}

// indexOf builds an index from in-memory sources (relative path -> source).
func indexOf(files map[string]string) *Index {
	ix := NewIndex("/project")
	for rel, src := range files {
		ix.files[rel] = &fileEntry{file: Parse(rel, src)}
	}
	ix.gen++
	ix.snap = ix.build()
	return ix
}

func FuzzTemplate(f *testing.F) {
	f.Add(`package p; class A extends B { B b; java.util.List<A> as; void m(A a, B b, int... xs) {} }
class B extends A { A a; java.util.Map<String, B> m; }`)
	f.Add(`package p; class N<T extends N<T>> { T t; Optional<Optional<T>> o; void m(N<?> n, T t) {} }
enum E { X, Y; void m(E e) {} } @RestController @RequestMapping(P.X) class C implements I { @GetMapping(X + Y) void m(C c) {} }
interface I { String X = Y; String Y = X + "/y"; }`)
	f.Add(`package p; record R<T>(T t, R<T> self) { void m(R<String> r) {} } class S extends S {} class T extends T2<T> { void m(T t) {} } class T2<X> extends T<X> {}`)
	f.Fuzz(func(t *testing.T, src string) {
		ix := indexOf(map[string]string{"src/main/java/p/A.java": src})
		s := ix.current()
		for _, td := range s.all {
			for _, m := range td.Methods {
				for _, e := range []Expansion{ExpandSimple, ExpandCurrent, ExpandAll} {
					tp, err := ix.Template(TemplateRequest{ClassName: td.BinaryName, MethodName: m.Name, ParameterTypes: nil, Expansion: e, Now: fixedNow})
					if err == nil && !json.Valid([]byte(tp.ArgsJSON)) {
						t.Fatalf("invalid argsJson %s", tp.ArgsJSON)
					}
				}
			}
		}
		for _, m := range ix.HTTPMappings() {
			if !strings.HasPrefix(m.Path, "/") {
				t.Fatalf("path %q", m.Path)
			}
		}
	})
}

func TestTemplateNestedClass(t *testing.T) {
	ix := indexOf(map[string]string{"src/main/java/p/Outer.java": `package p;
public class Outer {
	public static class Inner {
		public enum Mode { FAST, SLOW }
		public String m(Outer.Inner self, Mode mode, Inner[] more) { return ""; }
	}
}`})
	for _, name := range []string{"p.Outer$Inner", "p.Outer.Inner"} {
		tp, err := ix.Template(TemplateRequest{ClassName: name, MethodName: "m"})
		if err != nil {
			t.Fatal(err)
		}
		if tp.ClassName != "p.Outer$Inner" || !reflect.DeepEqual(tp.ParameterTypes, []string{"p.Outer.Inner", "p.Outer.Inner.Mode", "p.Outer.Inner[]"}) {
			t.Errorf("%s: class %s types %v", name, tp.ClassName, tp.ParameterTypes)
		}
		if tp.ArgsJSON != `{"self":{"type":"json_entity","content":{}},"mode":{"type":"enum","content":"FAST"},"more":{"type":"json_entity","content":[{}]}}` {
			t.Errorf("argsJson = %s", tp.ArgsJSON)
		}
	}
	_, err := ix.Template(TemplateRequest{ClassName: "x.Inner", MethodName: "m"})
	var le *LookupError
	if !errors.As(err, &le) || !reflect.DeepEqual(le.Options, []string{"p.Outer$Inner"}) {
		t.Errorf("suggestion = %v", err)
	}
}

func TestTemplateBudget(t *testing.T) {
	// Ten fields of ten types, each with ten fields of the next level:
	// 10^6 fields at depth 6 without a budget.
	var b strings.Builder
	b.WriteString("package p;\n")
	for level := 0; level < 7; level++ {
		for i := 0; i < 10; i++ {
			fmt.Fprintf(&b, "class L%d_%d {", level, i)
			if level < 6 {
				for j := 0; j < 10; j++ {
					fmt.Fprintf(&b, " L%d_%d f%d;", level+1, j, j)
				}
			}
			b.WriteString(" }\n")
		}
	}
	b.WriteString("class S { void m(L0_0 x) {} }\n")
	ix := indexOf(map[string]string{"src/main/java/p/S.java": b.String()})
	start := time.Now()
	tp, err := ix.Template(TemplateRequest{ClassName: "p.S", MethodName: "m", Expansion: ExpandAll})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(tp.ArgsJSON, ":"); n > maxTemplateFields+10 {
		t.Errorf("%d fields generated, budget %d", n, maxTemplateFields)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("template took %v", d)
	}
}
