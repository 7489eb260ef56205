package javadap

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
)

// testMethod is a method of a hand-built class file: name, descriptor,
// and line table as (pc, line) pairs.
type testMethod struct {
	name, desc string
	lines      [][2]int
}

// buildClass writes a minimal valid class file. Its constant pool also
// holds a long and a double (two entries each) and a method handle, so
// the reader's slot accounting is exercised.
func buildClass(name, source string, methods ...testMethod) []byte {
	var pool bytes.Buffer
	n := 1
	utf8 := map[string]int{}
	u2 := func(b *bytes.Buffer, v int) { _ = binary.Write(b, binary.BigEndian, uint16(v)) }
	u4 := func(b *bytes.Buffer, v int) { _ = binary.Write(b, binary.BigEndian, uint32(v)) }
	str := func(s string) int {
		if i, ok := utf8[s]; ok {
			return i
		}
		pool.WriteByte(cpUtf8)
		u2(&pool, len(s))
		pool.WriteString(s)
		utf8[s] = n
		n++
		return n - 1
	}
	nameIdx := str(name)
	pool.WriteByte(cpClass)
	u2(&pool, nameIdx)
	classIdx := n
	n++
	pool.WriteByte(cpLong)
	pool.Write(make([]byte, 8))
	n += 2
	pool.WriteByte(cpDouble)
	pool.Write(make([]byte, 8))
	n += 2
	pool.WriteByte(cpMethodHandle)
	pool.Write([]byte{1, 0, 1})
	n++
	code, lnt, sf := str("Code"), str("LineNumberTable"), str("SourceFile")
	srcIdx := str(source)
	var ms bytes.Buffer
	u2(&ms, len(methods))
	for _, m := range methods {
		u2(&ms, 0x0009)
		u2(&ms, str(m.name))
		u2(&ms, str(m.desc))
		u2(&ms, 1) // one attribute: Code
		var table bytes.Buffer
		u2(&table, len(m.lines))
		for _, l := range m.lines {
			u2(&table, l[0])
			u2(&table, l[1])
		}
		var body bytes.Buffer
		u2(&body, 1)
		u2(&body, 1)
		u4(&body, 1)
		body.WriteByte(0xb1) // return
		u2(&body, 0)         // exception table
		u2(&body, 1)         // one attribute: LineNumberTable
		u2(&body, lnt)
		u4(&body, table.Len())
		body.Write(table.Bytes())
		u2(&ms, code)
		u4(&ms, body.Len())
		ms.Write(body.Bytes())
	}
	var out bytes.Buffer
	u4(&out, classFileMagic)
	u2(&out, 0)
	u2(&out, 61)
	u2(&out, n)
	out.Write(pool.Bytes())
	u2(&out, 0x0021)
	u2(&out, classIdx)
	u2(&out, 0) // no superclass
	u2(&out, 0) // no interfaces
	u2(&out, 0) // no fields
	out.Write(ms.Bytes())
	u2(&out, 1)
	u2(&out, sf)
	u4(&out, 2)
	u2(&out, srcIdx)
	return out.Bytes()
}

func TestParseClassFileHandBuilt(t *testing.T) {
	b := buildClass("a/b/Main$1", "Main.java",
		testMethod{"<init>", "()V", [][2]int{{0, 7}}},
		testMethod{"run", "()V", [][2]int{{0, 9}, {4, 10}, {8, 12}}})
	cf, err := ParseClassFile(b)
	if err != nil {
		t.Fatal(err)
	}
	if cf.Name != "a/b/Main$1" || cf.SourceFile != "Main.java" || len(cf.Methods) != 2 {
		t.Fatalf("parsed %+v", cf)
	}
	if m := cf.Methods[1]; m.Name != "run" || m.Descriptor != "()V" || len(m.Lines) != 3 || m.Lines[2] != (LineNumber{PC: 8, Line: 12}) {
		t.Errorf("run = %+v", m)
	}
	for i := 0; i < len(b); i++ {
		if _, err := ParseClassFile(b[:i]); err == nil {
			t.Fatalf("a class file cut at %d bytes parsed", i)
		}
	}
}

func TestPlaceLine(t *testing.T) {
	cf, err := ParseClassFile(buildClass("Main", "Main.java",
		testMethod{"main", "([Ljava/lang/String;)V", [][2]int{{0, 5}, {3, 6}, {9, 9}, {12, 10}}},
		testMethod{"Main", "()V", nil},
		testMethod{"square", "(I)I", [][2]int{{0, 14}}}))
	if err != nil {
		t.Fatal(err)
	}
	classes := []*ClassFile{cf}
	for _, tc := range []struct {
		line int
		text string
		want int
		ok   bool
	}{
		{6, "x++;", 6, true},                         // code at the line
		{7, "}", 9, true},                            // no code inside main: the next line with code
		{13, "static int square(int x) {", 14, true}, // a declaration: the method's first line
		{2, "import x;", 0, false},                   // outside every method
		{12, "// nothing", 0, false},                 // between methods
		{20, "}", 0, false},
	} {
		got, ok := placeLine(classes, tc.line, tc.text)
		if got != tc.want || ok != tc.ok {
			t.Errorf("placeLine(%d, %q) = %d, %v; want %d, %v", tc.line, tc.text, got, ok, tc.want, tc.ok)
		}
	}
}

// TestClassIndexFindsInnerClassesInDirsAndJars finds every class compiled
// from one source file, in a directory and in a jar.
func TestClassIndexFindsInnerClassesInDirsAndJars(t *testing.T) {
	dir := t.TempDir()
	pkg := filepath.Join(dir, "com", "x")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		"Main.class":   buildClass("com/x/Main", "Main.java", testMethod{"main", "()V", [][2]int{{0, 3}}}),
		"Main$1.class": buildClass("com/x/Main$1", "Main.java", testMethod{"run", "()V", [][2]int{{0, 8}}}),
		"Helper.class": buildClass("com/x/Helper", "Main.java", testMethod{"help", "()V", [][2]int{{0, 12}}}),
		"Other.class":  buildClass("com/x/Other", "Other.java"),
		"Broken.class": []byte("not a class"),
		"readme.txt":   []byte("x"),
	}
	jar := filepath.Join(t.TempDir(), "app.jar")
	jf, err := os.Create(jar)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(jf)
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(pkg, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
		w, _ := zw.Create("BOOT-INF/classes/com/x/" + name)
		_, _ = w.Write(b)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	jf.Close()
	for _, root := range []string{dir, jar} {
		x := newClassIndex([]string{root})
		got := classNames(x.find("com/x", "Main.java"))
		if got != "com.x.Helper, com.x.Main, com.x.Main$1" {
			t.Errorf("%s: classes of Main.java = %q", root, got)
		}
		if x.find("com/y", "Main.java") != nil || x.find("?", "Main.java") != nil {
			t.Errorf("%s: found classes in another package", root)
		}
	}
}

// TestParseClassFileOfJavac reads what javac writes: an anonymous class
// and a lambda's line table.
func TestParseClassFileOfJavac(t *testing.T) {
	cp := compileFixtures(t)
	x := newClassIndex([]string{cp})
	classes := x.find("", "Inner.java")
	if len(classes) < 3 {
		t.Fatalf("classes of Inner.java: %s", classNames(classes))
	}
	for _, marker := range []string{"inner", "lambda", "anon"} {
		l := fixtureLine(t, "Inner.java", marker)
		if got, ok := placeLine(classes, l, ""); !ok || got != l {
			t.Errorf("%s line %d placed at %d, %v", marker, l, got, ok)
		}
	}
}

func FuzzParseClassFile(f *testing.F) {
	f.Add(buildClass("Main", "Main.java", testMethod{"main", "()V", [][2]int{{0, 3}, {2, 4}}}))
	f.Add(buildClass("a/B$1", "B.java"))
	f.Add([]byte{0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 61, 0, 2, 1, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		cf, err := ParseClassFile(b)
		if err == nil && cf == nil {
			t.Fatal("nil class file without an error")
		}
		if err == nil {
			placeLine([]*ClassFile{cf}, 5, "f(")
		}
	})
}
