package nodedap

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func touch(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestResolveProgram(t *testing.T) {
	t.Parallel()
	t.Run("javascript is left alone", func(t *testing.T) {
		cfg := LaunchConfig{Program: "/x/app.js"}
		if err := resolveProgram(&cfg); err != nil || cfg.Program != "/x/app.js" || cfg.RuntimeArgs != nil {
			t.Fatalf("%+v %v", cfg, err)
		}
	})
	t.Run("tsx in the project", func(t *testing.T) {
		root := t.TempDir()
		touch(t, filepath.Join(root, "node_modules", "tsx", "package.json"), "{}")
		ts := filepath.Join(root, "src", "main.ts")
		touch(t, ts, "")
		cfg := LaunchConfig{Program: ts}
		if err := resolveProgram(&cfg); err != nil {
			t.Fatal(err)
		}
		if cfg.Program != ts || !reflect.DeepEqual(cfg.RuntimeArgs, []string{"--import", "tsx"}) || cfg.Cwd != root {
			t.Fatalf("%+v", cfg)
		}
	})
	t.Run("ts-node in the project", func(t *testing.T) {
		root := t.TempDir()
		touch(t, filepath.Join(root, "node_modules", "ts-node", "package.json"), "{}")
		ts := filepath.Join(root, "main.ts")
		touch(t, ts, "")
		cfg := LaunchConfig{Program: ts, Cwd: "/elsewhere"}
		if err := resolveProgram(&cfg); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(cfg.RuntimeArgs, []string{"--require", "ts-node/register"}) || cfg.Cwd != "/elsewhere" {
			t.Fatalf("%+v", cfg)
		}
	})
	t.Run("compiled by tsconfig outDir", func(t *testing.T) {
		root := t.TempDir()
		touch(t, filepath.Join(root, "tsconfig.json"), `{
  // comment
  "compilerOptions": {"outDir": "dist", "rootDir": "src", /* more */ },
}`)
		ts := filepath.Join(root, "src", "lib", "a.mts")
		touch(t, ts, "")
		js := filepath.Join(root, "dist", "lib", "a.mjs")
		touch(t, js, "")
		cfg := LaunchConfig{Program: ts}
		if err := resolveProgram(&cfg); err != nil {
			t.Fatal(err)
		}
		if cfg.Program != js {
			t.Fatalf("program %s, want %s", cfg.Program, js)
		}
	})
	t.Run("compiled beside", func(t *testing.T) {
		root := t.TempDir()
		ts := filepath.Join(root, "a.ts")
		touch(t, ts, "")
		touch(t, filepath.Join(root, "a.js"), "")
		cfg := LaunchConfig{Program: ts}
		if err := resolveProgram(&cfg); err != nil || cfg.Program != filepath.Join(root, "a.js") {
			t.Fatalf("%+v %v", cfg, err)
		}
	})
	t.Run("nothing to run it with", func(t *testing.T) {
		root := t.TempDir()
		ts := filepath.Join(root, "a.ts")
		touch(t, ts, "")
		cfg := LaunchConfig{Program: ts}
		err := resolveProgram(&cfg)
		if err == nil || !strings.Contains(err.Error(), "tsx") || !strings.Contains(err.Error(), filepath.Join(root, "a.js")) {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestStripJSONC(t *testing.T) {
	t.Parallel()
	in := `{"a": "x // not a comment", /* c */ "b": [1, 2,], // end
}`
	got := string(stripJSONC([]byte(in)))
	if !strings.Contains(got, `"x // not a comment"`) || strings.Contains(got, "/*") || strings.Contains(got, "2,]") {
		t.Fatalf("%q", got)
	}
}

func TestSkipPatterns(t *testing.T) {
	t.Parallel()
	got := skipPatterns([]string{"<node_internals>/**", "**/node_modules/**", "/abs/*.js"})
	want := []string{"^node:", `(?:.*/)?node_modules/.*$`, `/abs/[^/]*\.js$`}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestFindFunction(t *testing.T) {
	t.Parallel()
	src := "const a = 1;\nfunction foo(x) {\n  return x;\n}\nclass K {\n  bar(y) {\n    return y;\n  }\n}\nconst baz = async (z) => {\n  return z;\n};\n"
	for name, wantLine := range map[string]int{"foo": 1, "bar": 5, "baz": 9} {
		line, _, ok := findFunction(src, name)
		if !ok || line != wantLine {
			t.Errorf("%s: line %d ok %v, want %d", name, line, ok, wantLine)
		}
	}
	if _, _, ok := findFunction(src, "nope"); ok {
		t.Error("found nope")
	}
}

func TestInterpolate(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"x={x}":     `"x=" + String((x))`,
		"plain":     `"plain"`,
		"{a}{b}":    `String((a)) + String((b))`,
		`q"{x}`:     `"q\"" + String((x))`,
		"":          `""`,
		"open { no": `"open { no"`,
	} {
		if got := interpolate(in); got != want {
			t.Errorf("interpolate(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestFormatValue(t *testing.T) {
	t.Parallel()
	cases := []struct {
		o    remoteObject
		want string
	}{
		{remoteObject{Type: "string", Value: []byte(`"hi"`)}, `"hi"`},
		{remoteObject{Type: "number", Value: []byte(`3.5`)}, "3.5"},
		{remoteObject{Type: "number", UnserializableValue: "NaN"}, "NaN"},
		{remoteObject{Type: "bigint", UnserializableValue: "12n"}, "12n"},
		{remoteObject{Type: "undefined"}, "undefined"},
		{remoteObject{Type: "object", Subtype: "null"}, "null"},
		{remoteObject{Type: "function", Description: "function f(a, b) {\n return 1 }"}, "function f(a, b)"},
		{remoteObject{Type: "object", Subtype: "array", Description: "Array(2)", Preview: &objectPreview{Type: "object", Subtype: "array",
			Properties: []propertyPreview{{Name: "0", Type: "number", Value: "1"}, {Name: "1", Type: "string", Value: "a"}}}}, `[1, "a"]`},
		{remoteObject{Type: "object", ClassName: "Object", Description: "Object", Preview: &objectPreview{Type: "object", Description: "Object", Overflow: true,
			Properties: []propertyPreview{{Name: "a", Type: "number", Value: "1"}}}}, "{a: 1, …}"},
	}
	for _, c := range cases {
		if got := formatValue(&c.o); got != c.want {
			t.Errorf("%+v: %q, want %q", c.o, got, c.want)
		}
	}
}
