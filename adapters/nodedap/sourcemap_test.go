package nodedap

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDecodeVLQ(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		want int
	}{{"A", 0}, {"C", 1}, {"D", -1}, {"gB", 16}, {"2H", 123}, {"7H", -125}} {
		v, next, err := decodeVLQ(c.in, 0)
		if err != nil || v != c.want || next != len(c.in) {
			t.Errorf("%s: %d %d %v, want %d", c.in, v, next, err, c.want)
		}
	}
	if _, _, err := decodeVLQ("g", 0); err == nil {
		t.Error("truncated VLQ accepted")
	}
	if _, _, err := decodeVLQ("!", 0); err == nil {
		t.Error("bad char accepted")
	}
}

func TestSourceMapLookups(t *testing.T) {
	t.Parallel()
	// gen line 0 -> nothing; gen line 1 col 0 -> a.ts line 2 col 0;
	// gen line 1 col 6 -> a.ts line 2 col 8; gen line 2 col 4 -> a.ts line 5 col 2.
	raw := `{"version":3,"sources":["../src/a.ts"],"names":[],"mappings":";AAEA,MAAQ;IAGN"}`
	sm, err := parseSourceMap([]byte(raw), "/p/out/a.js.map")
	if err != nil {
		t.Fatal(err)
	}
	if sm.sources[0] != "/p/src/a.ts" {
		t.Fatalf("source %q", sm.sources[0])
	}
	if p, l, c, ok := sm.original(1, 7); !ok || p != "/p/src/a.ts" || l != 2 || c != 8 {
		t.Errorf("original(1,7) = %s %d %d %v", p, l, c, ok)
	}
	if _, l, _, ok := sm.original(2, 0); !ok || l != 5 {
		t.Errorf("original(2,0) line %d %v", l, ok)
	}
	if _, _, _, ok := sm.original(0, 0); ok {
		t.Error("unmapped line mapped")
	}
	if gl, gc, actual, ok := sm.generated("/p/src/a.ts", 3); !ok || gl != 2 || gc != 4 || actual != 5 {
		t.Errorf("generated(3) = %d %d %d %v", gl, gc, actual, ok)
	}
	if _, _, _, ok := sm.generated("/p/src/b.ts", 3); ok {
		t.Error("unknown source mapped")
	}
	for _, bad := range []string{`{"version":3,"sources":[],"mappings":"AACA"}`, `{"version":2}`, `{`, `{"version":3,"sources":["a"],"mappings":"AA"}`} {
		if _, err := parseSourceMap([]byte(bad), "/x.map"); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}

func TestInlineSourceMap(t *testing.T) {
	t.Parallel()
	ref := "data:application/json;charset=utf-8;base64,eyJ2ZXJzaW9uIjozLCJzb3VyY2VzIjpbImEudHMiXSwibWFwcGluZ3MiOiJBQUFBIn0="
	sm, err := loadSourceMap("/p/a.js", ref)
	if err != nil {
		t.Fatal(err)
	}
	if sm.sources[0] != "/p/a.ts" {
		t.Fatalf("sources %v", sm.sources)
	}
}

func TestCompiledTypeScriptMap(t *testing.T) {
	t.Parallel()
	build := compiledTS(t)
	ts := fixture(t, "ts/greet.ts")
	sm, err := loadSourceMap(filepath.Join(build, "greet.js"), "greet.js.map")
	if err != nil {
		t.Fatal(err)
	}
	want := lineOf(t, ts, "BP:ts-greet") - 1
	gl, _, actual, ok := sm.generated(ts, want)
	if !ok || actual != want {
		t.Fatalf("generated(%d) = %d actual %d ok %v", want, gl, actual, ok)
	}
	js, _ := os.ReadFile(filepath.Join(build, "greet.js"))
	_ = js
	if p, l, _, ok := sm.original(gl, 4); !ok || p != ts || l != want {
		t.Fatalf("round trip: %s:%d", p, l)
	}
}

func FuzzParseSourceMap(f *testing.F) {
	f.Add([]byte(`{"version":3,"sources":["a.ts"],"mappings":";AAEA,MAAQ;IAGN"}`))
	f.Add([]byte(`{"version":3,"sources":["a.ts","b.ts"],"mappings":"AAAA,CCAC;;gBAAgB"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		sm, err := parseSourceMap(b, "/x/y.js.map")
		if err != nil {
			return
		}
		for l := 0; l < len(sm.lines) && l < 50; l++ {
			sm.original(l, 3)
		}
		for _, s := range sm.sources {
			sm.generated(s, 0)
		}
	})
}
