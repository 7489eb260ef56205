package javasrc

import (
	"strings"
	"testing"
)

const tricky = `/* header { not a brace */
// line comment with "quote and { brace
package com.example.demo ;

import java.util.*;
import java.util.Map.Entry;
import static org.junit.Assert.assertEquals;
import com.example.model.User;

/**
 * A tricky class.
 */
@SuppressWarnings({"unchecked", "rawtypes"})
@Deprecated(since = "9", forRemoval = true)
public final class Tricky<K extends Comparable<? super K>, V> extends Base<Map<K, List<V>>>
        implements java.io.Serializable, Comparable<Tricky<K, V>> {

    private static final String PREFIX = "/api" + "/v1";
    public static final String TEXT = """
        hello { "world" }
          indented
        """;
    private final Map<String, List<Map<Integer, String[]>>> nested = new HashMap<String, List<Map<Integer, String[]>>>();
    private int a = 1, b[] = {1, 2}, c;
    private Runnable r = () -> { System.out.println("}"); };
    private char ch = '}';
    protected Object anon = new Object() { public String toString() { return "{"; } };
    List<? extends Number> numbers;
    transient volatile long counter;

    static { System.out.println("static init { "); }
    { counter = 2; }

    /** Builds one. */
    public Tricky(K key, V... values) { super(null); }

    @Override
    public int compareTo(Tricky<K, V> o) { return 0; }

    @SafeVarargs
    public final <T extends Number & Comparable<T>> T max(final T first, @Nullable T... rest) throws IllegalStateException, java.io.IOException {
        String s = "}}}";
        char q = '"';
        return first;
    }

    int[] arr(int[][] grid, String @NonNull [] names)[] { return null; }

    public abstract static class Inner {
        enum Color { RED, GREEN("g") { void f() {} }, BLUE; Color() {} Color(String s) {} }
        record Point(int x, @Deprecated int y) implements Comparable<Point> {
            Point { if (x < 0) throw new IllegalArgumentException(); }
            public int compareTo(Point o) { return 0; }
        }
        abstract void run();
    }

    sealed interface Shape permits Circle, Square {}
    non-sealed class Circle implements Shape {}
    final class Square implements Shape {}

    @interface Marker {
        String value() default "x";
        String[] paths() default {"/a", "/b"};
    }
}

enum Level { LOW, HIGH; int weight() { return 1; } }
`

func TestParseTricky(t *testing.T) {
	f := Parse("Tricky.java", tricky)
	if f.Package != "com.example.demo" {
		t.Fatalf("package = %q", f.Package)
	}
	wantImports := []Import{{Name: "java.util", Wildcard: true}, {Name: "java.util.Map.Entry"},
		{Name: "org.junit.Assert.assertEquals", Static: true}, {Name: "com.example.model.User"}}
	if len(f.Imports) != len(wantImports) {
		t.Fatalf("imports = %+v", f.Imports)
	}
	for i, w := range wantImports {
		if f.Imports[i] != w {
			t.Errorf("import %d = %+v, want %+v", i, f.Imports[i], w)
		}
	}
	if len(f.Types) != 2 {
		t.Fatalf("types = %d, want 2", len(f.Types))
	}
	c := f.Types[0]
	if c.QualifiedName != "com.example.demo.Tricky" || c.Kind != KindClass || c.Line != 15 {
		t.Errorf("class = %s %s line %d", c.Kind, c.QualifiedName, c.Line)
	}
	if !strings.Contains(c.Doc, "A tricky class.") {
		t.Errorf("doc = %q", c.Doc)
	}
	if got := strings.Join(c.TypeParams, ","); got != "K,V" {
		t.Errorf("type params = %s", got)
	}
	if len(c.Extends) != 1 || c.Extends[0].String() != "Base<Map<K, List<V>>>" {
		t.Errorf("extends = %v", c.Extends)
	}
	if len(c.Implements) != 2 || c.Implements[0].Name != "java.io.Serializable" || c.Implements[1].String() != "Comparable<Tricky<K, V>>" {
		t.Errorf("implements = %v", c.Implements)
	}
	if len(c.Annotations) != 2 {
		t.Fatalf("annotations = %+v", c.Annotations)
	}
	sw, _ := c.Annotations[0].Get("value")
	if sw.Kind != ValueArray || len(sw.Parts) != 2 || sw.Parts[1].Text != "rawtypes" {
		t.Errorf("@SuppressWarnings value = %+v", sw)
	}
	dep := c.Annotations[1]
	if v, _ := dep.Get("since"); v.Text != "9" || v.Kind != ValueString {
		t.Errorf("since = %+v", v)
	}
	if v, _ := dep.Get("forRemoval"); v.Text != "true" || v.Kind != ValueLiteral {
		t.Errorf("forRemoval = %+v", v)
	}

	fields := map[string]Field{}
	var order []string
	for _, fl := range c.Fields {
		fields[fl.Name] = fl
		order = append(order, fl.Name)
	}
	if got := strings.Join(order, ","); got != "PREFIX,TEXT,nested,a,b,c,r,ch,anon,numbers,counter" {
		t.Errorf("fields = %s", got)
	}
	if v := fields["PREFIX"].Value; v == nil || v.Kind != ValueConcat || v.Parts[0].Text != "/api" || v.Parts[1].Text != "/v1" {
		t.Errorf("PREFIX value = %+v", v)
	}
	if v := fields["TEXT"].Value; v == nil || v.Text != "hello { \"world\" }\n  indented\n" {
		t.Errorf("TEXT value = %+v", v)
	}
	if got := fields["nested"].Type.String(); got != "Map<String, List<Map<Integer, String[]>>>" {
		t.Errorf("nested type = %s", got)
	}
	if fields["b"].Type.Dims != 1 || fields["a"].Type.Dims != 0 {
		t.Errorf("dims a=%d b=%d", fields["a"].Type.Dims, fields["b"].Type.Dims)
	}
	if got := fields["numbers"].Type.String(); got != "List<? extends Number>" {
		t.Errorf("numbers = %s", got)
	}
	if !fields["PREFIX"].Static() || fields["counter"].Static() {
		t.Errorf("static flags wrong")
	}

	if len(c.Constructors) != 1 || len(c.Constructors[0].Params) != 2 || !c.Constructors[0].Params[1].Type.Varargs {
		t.Fatalf("constructors = %+v", c.Constructors)
	}
	if c.Constructors[0].Doc == "" {
		t.Errorf("constructor doc missing")
	}
	var names []string
	for _, m := range c.Methods {
		names = append(names, m.Name)
	}
	if got := strings.Join(names, ","); got != "compareTo,max,arr" {
		t.Fatalf("methods = %s", got)
	}
	max := c.Methods[1]
	if strings.Join(max.TypeParams, ",") != "T" || max.Return.Name != "T" || len(max.Params) != 2 {
		t.Errorf("max = %+v", max)
	}
	if p := max.Params[1]; p.Name != "rest" || !p.Type.Varargs || len(p.Annotations) != 1 || p.Annotations[0].Name != "Nullable" {
		t.Errorf("rest = %+v", p)
	}
	if !max.Params[0].Final || len(max.Throws) != 2 || max.Throws[1].Name != "java.io.IOException" {
		t.Errorf("max params/throws = %+v %+v", max.Params[0], max.Throws)
	}
	arr := c.Methods[2]
	if arr.Return.Dims != 2 || arr.Params[0].Type.Dims != 2 || arr.Params[1].Type.Dims != 1 || arr.Params[1].Name != "names" {
		t.Errorf("arr = %+v", arr)
	}

	if len(c.Types) != 5 {
		t.Fatalf("nested types = %d", len(c.Types))
	}
	inner := c.Types[0]
	if inner.BinaryName != "com.example.demo.Tricky$Inner" || len(inner.Methods) != 1 {
		t.Errorf("inner = %s methods %d", inner.BinaryName, len(inner.Methods))
	}
	color := inner.Types[0]
	if color.Kind != KindEnum || strings.Join(color.EnumConstants, ",") != "RED,GREEN,BLUE" || len(color.Constructors) != 2 {
		t.Errorf("color = %+v", color)
	}
	point := inner.Types[1]
	if point.Kind != KindRecord || len(point.Fields) != 2 || point.Fields[1].Name != "y" || len(point.Methods) != 1 {
		t.Errorf("point = %+v", point)
	}
	if point.QualifiedName != "com.example.demo.Tricky.Inner.Point" {
		t.Errorf("point name = %s", point.QualifiedName)
	}
	if c.Types[1].Kind != KindInterface || !hasString(c.Types[2].Modifiers, "non-sealed") {
		t.Errorf("sealed types wrong: %+v %+v", c.Types[1], c.Types[2])
	}
	marker := c.Types[4]
	if marker.Kind != KindAnnotation || len(marker.Methods) != 2 {
		t.Errorf("marker = %+v", marker)
	}
	lvl := f.Types[1]
	if lvl.Name != "Level" || strings.Join(lvl.EnumConstants, ",") != "LOW,HIGH" || len(lvl.Methods) != 1 {
		t.Errorf("level = %+v", lvl)
	}
}

func TestParseAnnotationValues(t *testing.T) {
	src := `package p;
@RequestMapping(value = {"/a", Paths.B}, method = {RequestMethod.GET, RequestMethod.POST}, produces = MediaType.APPLICATION_JSON_VALUE)
@Outer(inner = @Inner(x = 1), cls = String.class, neg = -1, expr = 1 << 3)
@GetMapping(BASE + "/x")
class C {}`
	c := Parse("C.java", src).Types[0]
	rm := c.Annotations[0]
	v, _ := rm.Get("value")
	if len(v.Parts) != 2 || v.Parts[0].Kind != ValueString || v.Parts[1].Kind != ValueName || v.Parts[1].Text != "Paths.B" {
		t.Errorf("value = %+v", v)
	}
	m, _ := rm.Get("method")
	if len(m.Items()) != 2 || m.Items()[1].Text != "RequestMethod.POST" {
		t.Errorf("method = %+v", m)
	}
	o := c.Annotations[1]
	in, _ := o.Get("inner")
	if in.Kind != ValueAnnotation || in.Annotation.Name != "Inner" {
		t.Errorf("inner = %+v", in)
	}
	if cls, _ := o.Get("cls"); cls.Kind != ValueClass || cls.Text != "String" {
		t.Errorf("cls = %+v", cls)
	}
	if neg, _ := o.Get("neg"); neg.Kind != ValueLiteral || neg.Text != "-1" {
		t.Errorf("neg = %+v", neg)
	}
	if e, _ := o.Get("expr"); e.Kind != ValueExpr || e.Text != "1<<3" {
		t.Errorf("expr = %+v", e)
	}
	g, _ := c.Annotations[2].Get("value")
	if g.Kind != ValueConcat || g.Parts[0].Text != "BASE" || g.Parts[1].Text != "/x" {
		t.Errorf("concat = %+v", g)
	}
}

func TestParseBroken(t *testing.T) {
	for _, src := range []string{
		"", "package", "class", "class {", "class A extends", "class A { void f(", "class A { int x = ; }",
		"@", "@A(", "class A { @B( void f() {} }", "class A<", "class A { List<List<String> x; void g() {} }",
		`class A { String s = "unterminated; }`, "class A { /* unterminated", `class A { String t = """ open`,
		"enum E { A, B", "record R(int x", "class A { void f(int... ) {} }", strings.Repeat("class A { ", 500),
		strings.Repeat("@A(", 500), strings.Repeat("List<", 500),
	} {
		f := Parse("x.java", src)
		if f == nil {
			t.Fatalf("nil file for %q", src)
		}
	}
	// Recovery: a broken member does not hide the next one.
	f := Parse("x.java", "class A { int x = ; void ok(String s) {} }")
	if len(f.Types) != 1 || len(f.Types[0].Methods) != 1 || f.Types[0].Methods[0].Name != "ok" {
		t.Errorf("recovery failed: %+v", f.Types)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{tricky, "class A { void f(int x) {} }", `@A({"x", @B(1)}) enum E { X; }`,
		`class A { String s = """` + "\n a\\\n b" + `"""; }`, "record R<T>(List<T> xs) {}", "class A { int[] f()[] {} }"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		file := Parse("f.java", src)
		var walk func(ts []*TypeDecl, depth int)
		walk = func(ts []*TypeDecl, depth int) {
			if depth > maxDepth+1 {
				t.Fatalf("nesting deeper than the recursion bound")
			}
			for _, td := range ts {
				if td.Name == "" || td.QualifiedName == "" {
					t.Fatalf("unnamed type %+v", td)
				}
				for _, m := range td.Methods {
					for _, p := range m.Params {
						_ = p.Type.String()
					}
				}
				for _, fl := range td.Fields {
					_ = fl.Type.String()
				}
				walk(td.Types, depth+1)
			}
		}
		walk(file.Types, 0)
	})
}
