package javadap

import (
	"strings"
	"testing"
)

func TestParseExpr(t *testing.T) {
	for src, want := range map[string]string{
		"a + b * 2":            "(a + (b * 2))",
		"(a + b) * 2":          "((a + b) * 2)",
		`map.get("k")`:         `map.get("k")`,
		"list.get(i).name":     "list.get(i).name",
		"arr[i + 1]":           "arr[(i + 1)]",
		"!done && x >= 3 || y": "((!done && (x >= 3)) || y)",
		"-x % 4":               "(-x % 4)",
		"Math.max(1, 2L)":      "Math.max(1, 2)",
		`"a\"b" + 'c'`:         `("a\"b" + 'c')`,
		"f()":                  "f()",
		"a.b.c":                "a.b.c",
		"x != null":            "(x != null)",
		"1.5e3 + .5":           "(1500.0 + 0.5)",
		"0x1F":                 "31",
	} {
		e, err := parseExpr(src)
		if err != nil {
			t.Errorf("parse %q: %v", src, err)
			continue
		}
		if got := e.String(); got != want {
			t.Errorf("parse %q = %s, want %s", src, got, want)
		}
	}
	for src, wantErr := range map[string]string{
		"a +":         "end of expression",
		"(a":          "missing ')'",
		"a[1":         "missing ']'",
		`"abc`:        "unterminated",
		"a # b":       "unexpected",
		"f(a b)":      "expected ','",
		"99999999999": "bad int literal",
		"a.":          "expected a name",
		`"\q"`:        "bad string literal",
	} {
		if _, err := parseExpr(src); err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("parse %q: err %v, want %q", src, err, wantErr)
		}
	}
}

func FuzzParseExpr(f *testing.F) {
	for _, s := range []string{"a + b * 2", `map.get("k")`, "arr[1]", "'\\u0041'", "x.y(z, 1.5f, 2L)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = parseExpr(s)
	})
}

func TestConvertPrimitive(t *testing.T) {
	if v, err := convertPrimitive(Value{Tag: TagInt, Long: 7}, TagLong); err != nil || v.Long != 7 || v.Tag != TagLong {
		t.Errorf("int to long: %v %v", v, err)
	}
	if v, err := convertPrimitive(Value{Tag: TagInt, Long: 7}, TagDouble); err != nil || v.Double != 7 {
		t.Errorf("int to double: %v %v", v, err)
	}
	if _, err := convertPrimitive(Value{Tag: TagInt, Long: 300}, TagByte); err == nil {
		t.Error("300 fit in a byte")
	}
	if _, err := convertPrimitive(Value{Tag: TagDouble, Double: 1.5}, TagInt); err == nil {
		t.Error("double assigned to int without a cast")
	}
}

func TestParamSigs(t *testing.T) {
	got := paramSigs("(I[Ljava/lang/String;JLjava/util/Map;[[D)V")
	want := []string{"I", "[Ljava/lang/String;", "J", "Ljava/util/Map;", "[[D"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("paramSigs = %v", got)
	}
}
