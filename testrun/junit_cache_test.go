package testrun

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The cache holds while the project is unchanged, and not after an edit,
// outside its build folders, or once a file it names is gone.
func TestJunitCacheHoldsWhileTheProjectIsUnchanged(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(rel, text string) {
		t.Helper()
		f := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("pom.xml", "<project/>")
	write("src/test/java/com/shop/CartTest.java", "class CartTest {}")
	write("target/test-classes/com/shop/CartTest.class", "")
	jar := filepath.Join(t.TempDir(), "junit-platform-engine-1.14.1.jar")
	if err := os.WriteFile(jar, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	p := &Project{Dir: dir}
	tests := filepath.Join(dir, "target", "test-classes")
	b := &junitBuild{tool: "maven", command: os.Args[0], classpath: tests + string(os.PathListSeparator) + jar, testClasses: []string{tests}}
	out := "│  ├─ total()\n│  │     source: MethodSource [className = 'com.shop.CartTest', methodName = 'total', methodParameterTypes = '']\n"
	fp, ok := projectFingerprint(p)
	if !ok {
		t.Fatal("no fingerprint")
	}
	saveJunitCache(p, fp, b, out)
	// The build folder is not the project's: writing there changes nothing.
	write("target/classes/Other.class", "x")
	fp2, _ := projectFingerprint(p)
	got, methods, hit := loadJunitCache(p, "maven", fp2)
	if !hit || got.classpath != b.classpath || got.command != b.command {
		t.Fatalf("cache miss on an unchanged project: %v %+v", hit, got)
	}
	ids := junitIDs(methods, dir, got)
	if len(ids) != 1 || ids[0].ID != "com.shop.CartTest#total" || ids[0].junit.selector != "com.shop.CartTest#total()" {
		t.Fatalf("cached ids = %+v", ids)
	}
	if _, _, hit := loadJunitCache(p, "gradle", fp2); hit {
		t.Error("a Maven cache serves Gradle")
	}
	// An edit of a source, with a new modification time.
	time.Sleep(10 * time.Millisecond)
	write("src/test/java/com/shop/CartTest.java", "class CartTest { }")
	if fp3, _ := projectFingerprint(p); fp3 == fp2 {
		t.Fatal("an edit keeps the fingerprint")
	}
	// The run's environment is part of it.
	if fp4, _ := projectFingerprint(&Project{Dir: dir, Env: map[string]string{"X": "1"}}); fp4 == fp2 {
		t.Fatal("the environment is not in the fingerprint")
	}
	// A dependency gone from the repository.
	os.Remove(jar)
	if _, _, hit := loadJunitCache(p, "maven", fp2); hit {
		t.Error("a cache naming a missing jar is used")
	}
}

func TestJunitCacheKeepsNoSnapshot(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "target"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := &Project{Dir: dir}
	saveJunitCache(p, "fp", &junitBuild{tool: "maven", classpath: "/r/lib-1.0-SNAPSHOT.jar"}, "")
	if _, err := os.Stat(junitCacheFile(dir, "maven")); err == nil {
		t.Fatal("a SNAPSHOT classpath is cached")
	}
	if f := junitCacheFile(dir, "gradle"); !strings.HasSuffix(f, filepath.Join("build", "dbg-junit.json")) {
		t.Errorf("gradle cache file %s", f)
	}
}
