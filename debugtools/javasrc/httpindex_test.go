package javasrc

import (
	"reflect"
	"testing"
)

func TestHTTPMappingsFixture(t *testing.T) {
	ix := loadIndex(t, webFixture)
	type row struct{ method, path, class, method2 string }
	var got []row
	byKey := map[string]Mapping{}
	for _, m := range ix.HTTPMappings() {
		got = append(got, row{m.Method, m.Path, m.ClassName, m.MethodName})
		byKey[m.Method+" "+m.Path] = m
	}
	const c = "com.example.web.controller."
	want := []row{
		{"GET", "/api/orders/{id}", c + "OrderController", "get"}, // mapping inherited from OrderApi
		{"GET", "/api/users", c + "UserController", "list"},       // class prefix from a constant expression
		{"POST", "/api/users", c + "UserController", "create"},
		{"ALL", "/api/users/ping", c + "UserController", "ping"},
		{"GET", "/api/users/search", c + "UserController", "search"},
		{"POST", "/api/users/search", c + "UserController", "search"},
		{"DELETE", "/api/users/{id}", c + "UserController", "delete"},
		{"GET", "/api/users/{id}", c + "UserController", "getUser"},
		{"PUT", "/api/users/{id}", c + "UserController", "update"},
		{"PUT", "/api/users/{id}/replace", c + "UserController", "update"},
		{"PATCH", "/api/users/{id}/role", c + "UserController", "changeRole"},
		{"GET", "/health", c + "HealthController", "health"},
		{"GET", "/rs/items", "com.example.web.jaxrs.ItemResource", "list"}, // @ApplicationPath + @Path
		{"POST", "/rs/items", "com.example.web.jaxrs.ItemResource", "create"},
		{"DELETE", "/rs/items/{id}", "com.example.web.jaxrs.ItemResource", "delete"},
		{"GET", "/rs/items/{id}", "com.example.web.jaxrs.ItemResource", "get"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("mappings:\n got %v\nwant %v", got, want)
	}
	m := byKey["GET /api/users/{id}"]
	if m.File != "src/main/java/com/example/web/controller/UserController.java" || m.Line != 20 || m.ModuleName != "java-web" ||
		m.Framework != "spring" || m.Comment == nil || *m.Comment != "Reads one user." ||
		m.TargetMethodIdentity != c+"UserController#getUser(java.lang.Long)" || !reflect.DeepEqual(m.ParameterTypes, []string{"java.lang.Long"}) {
		t.Errorf("getUser mapping = %+v", m)
	}
	if h := byKey["GET /health"]; h.Comment == nil || *h.Comment != "Liveness probe" {
		t.Errorf("health comment = %v", h.Comment)
	}
	if j := byKey["GET /rs/items/{id}"]; j.Framework != "jax-rs" || j.TargetMethodIdentity != "com.example.web.jaxrs.ItemResource#get(long)" || j.Line != 15 {
		t.Errorf("jax-rs mapping = %+v", j)
	}
	if o := byKey["GET /api/orders/{id}"]; o.File != "src/main/java/com/example/web/controller/OrderApi.java" {
		t.Errorf("inherited mapping file = %s", o.File)
	}
}

func TestHTTPQuery(t *testing.T) {
	ix := loadIndex(t, webFixture)
	count := func(q HTTPQuery) (n int, paths []string) {
		for _, m := range ix.HTTPMappings() {
			if q.Match(m) {
				n++
				paths = append(paths, m.Method+" "+m.Path)
			}
		}
		return n, paths
	}
	for _, c := range []struct {
		q    HTTPQuery
		want []string
	}{
		{HTTPQuery{Path: "/USERS/{id}", Method: "put"}, []string{"PUT /api/users/{id}", "PUT /api/users/{id}/replace"}},
		{HTTPQuery{Path: "ping", Method: "GET"}, []string{"ALL /api/users/ping"}}, // GET matches generic mappings
		{HTTPQuery{Keyword: "liveness"}, []string{"GET /health"}},
		{HTTPQuery{Keyword: "ItemResource", Method: "DELETE"}, []string{"DELETE /rs/items/{id}"}},
		{HTTPQuery{URL: "http://localhost:8080/ctx/api/users/42/role?x=1", Method: "PATCH"}, []string{"PATCH /api/users/{id}/role"}},
		{HTTPQuery{URL: "/rs/items/7"}, []string{"DELETE /rs/items/{id}", "GET /rs/items/{id}"}},
		{HTTPQuery{ModuleName: "other"}, nil},
	} {
		if _, got := count(c.q); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%+v: got %v, want %v", c.q, got, c.want)
		}
	}
}

func TestMatchURL(t *testing.T) {
	for _, c := range []struct {
		pattern, url string
		want         bool
	}{
		{"/api/users/{id}", "/api/users/1", true},
		{"/api/users/{id}", "api/users/1", true},
		{"/api/users/{id}", "/api/users", false},
		{"/api/users/{id}", "/api/users/1/x", false},
		{"/files/**", "/files/a/b/c", true},
		{"/a/*/c", "https://h/a/b/c#frag", true},
		{"/", "/", true},
	} {
		if got := MatchURL(c.pattern, c.url); got != c.want {
			t.Errorf("MatchURL(%q, %q) = %v", c.pattern, c.url, got)
		}
	}
}

func TestHTTPConstantsAndServiceFixture(t *testing.T) {
	dir := t.TempDir()
	writeSource(t, dir, "p/Paths.java", `package p; public interface Paths { String BASE = "/v2"; String ITEMS = BASE + "/items"; }`)
	writeSource(t, dir, "p/C.java", `package p;
import static p.Paths.ITEMS;
@org.springframework.web.bind.annotation.RestController
public class C implements Paths {
	@GetMapping(ITEMS + "/{id}") String one() { return ""; }
	@PostMapping(BASE) String two() { return ""; }
	@GetMapping(Missing.X) String three() { return ""; }
}
@RequestMapping("/x") abstract class Skipped { @GetMapping("/y") void f() {} }`)
	ix := loadIndex(t, dir)
	var got []string
	for _, m := range ix.HTTPMappings() {
		got = append(got, m.Method+" "+m.Path)
	}
	want := []string{"POST /v2", "GET /v2/items/{id}", "GET /{Missing.X}"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("mappings = %v, want %v", got, want)
	}

	svc := loadIndex(t, "../../testdata/java-service")
	got = nil
	for _, m := range svc.HTTPMappings() {
		got = append(got, m.Method+" "+m.Path+" "+m.MethodName)
	}
	if len(got) > 0 && !reflect.DeepEqual(got, []string{"POST /api/orders place", "GET /api/orders/{id} get"}) {
		t.Errorf("java-service mappings = %v", got)
	}
}

func TestModuleOf(t *testing.T) {
	for _, c := range []struct{ rel, root, want string }{
		{"src/main/java/p/A.java", "/w/shop", "shop"},
		{"users/src/main/java/p/A.java", "/w/shop", "users"},
		{"p/A.java", "/w/shop/orders/src/main/java", "orders"},
		{"p/A.java", "/w/loose", "loose"},
	} {
		if got := moduleOf(c.rel, c.root); got != c.want {
			t.Errorf("moduleOf(%q, %q) = %q, want %q", c.rel, c.root, got, c.want)
		}
	}
}
