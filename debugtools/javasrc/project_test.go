package javasrc

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

const webFixture = "../../testdata/projects/java-web"

func loadIndex(t *testing.T, root string) *Index {
	t.Helper()
	ix := NewIndex(root)
	if err := ix.Refresh(context.Background()); err != nil {
		t.Fatalf("refresh %s: %v", root, err)
	}
	return ix
}

func TestIndexFixture(t *testing.T) {
	ix := loadIndex(t, webFixture)
	if n := ix.FileCount(); n != 16 {
		t.Errorf("files = %d, want 16 (the .idea scripts are not sources)", n)
	}
	for _, name := range []string{"com.example.web.model.User", "com.example.web.model.UserQuery$Page",
		"com.example.web.model.UserQuery.Page", "com.example.web.UserServiceTest", "com.example.web.model.Address.Country"} {
		if len(ix.Type(name)) != 1 {
			t.Errorf("type %s not found", name)
		}
	}
	if got := ix.RelPath(ix.Type("com.example.web.model.User")[0]); got != "src/main/java/com/example/web/model/User.java" {
		t.Errorf("rel path = %s", got)
	}
	if got := ix.TypesNamed("user"); len(got) != 1 || got[0] != "com.example.web.model.User" {
		t.Errorf("types named user = %v", got)
	}
}

func TestResolve(t *testing.T) {
	ix := loadIndex(t, webFixture)
	s := ix.current()
	svc := ix.Type("com.example.web.service.UserService")[0]
	for name, want := range map[string]string{
		"User":                       "com.example.web.model.User", // wildcard import of a project package
		"Address.Country":            "com.example.web.model.Address.Country",
		"List":                       "java.util.List", // single-type import of a JDK type
		"String":                     "java.lang.String",
		"AuditService":               "com.example.web.service.AuditService", // same package
		"Function":                   "java.util.function.Function",
		"com.example.web.model.Role": "com.example.web.model.Role",
		"Unknown":                    "Unknown",
	} {
		if got, _ := s.resolve(name, svc); got != want {
			t.Errorf("resolve %s = %s, want %s", name, got, want)
		}
	}
	page := ix.Type("com.example.web.model.UserQuery")[0]
	if q, d := s.resolve("Page", page); d == nil || q != "com.example.web.model.UserQuery.Page" {
		t.Errorf("member type Page = %s %v", q, d)
	}
}

func TestRefreshCache(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src", "main", "java", "p")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, body string, mtime time.Time) {
		t.Helper()
		p := filepath.Join(src, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	t0 := time.Now().Add(-time.Hour)
	write("A.java", "package p; class A { void one() {} }", t0)
	write("B.java", "package p; class B {}", t0)
	ix := loadIndex(t, dir)
	g1 := ix.Generation()
	if err := ix.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if ix.Generation() != g1 {
		t.Errorf("generation changed without a file change")
	}
	write("A.java", "package p; class A { void one() {} void two() {} }", t0.Add(time.Minute))
	if err := ix.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if ix.Generation() == g1 || len(ix.Type("p.A")[0].Methods) != 2 {
		t.Errorf("modified file not re-read: gen %d methods %d", ix.Generation(), len(ix.Type("p.A")[0].Methods))
	}
	if err := os.Remove(filepath.Join(src, "B.java")); err != nil {
		t.Fatal(err)
	}
	if err := ix.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(ix.Type("p.B")) != 0 {
		t.Errorf("removed file still indexed")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	write("C.java", "package p; class C {}", t0.Add(2*time.Minute))
	if err := ix.Refresh(ctx); err == nil {
		t.Errorf("refresh with a cancelled context succeeded")
	}
	if err := NewIndex(filepath.Join(dir, "missing")).Refresh(context.Background()); err == nil {
		t.Errorf("refresh of a missing root succeeded")
	}
}

func writeSource(t *testing.T, root, rel, body string) {
	t.Helper()
	p := filepath.Join(root, "src", "main", "java", filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
