package javadap

import (
	"archive/zip"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// classIndex finds the class files compiled from a source file in class
// path entries (directories and jars), so that a breakpoint is verified
// against their line tables before the JVM loads the class. Parsed class
// files are cached by path and modification time. It is safe for
// concurrent use.
type classIndex struct {
	mu    sync.Mutex
	roots []string
	files map[string]cachedClassFile // directory class files by path
	jars  map[string]*jarClasses     // by jar path
}

type cachedClassFile struct {
	mod  time.Time
	size int64
	cf   *ClassFile // nil when the file does not parse
}

// jarClasses are the parsed classes of one jar, by package directory.
type jarClasses struct {
	mod   time.Time
	byPkg map[string][]*ClassFile
}

// jarPrefixes are where jars keep classes: the root, and a Spring Boot
// fat jar's own classes.
var jarPrefixes = []string{"", "BOOT-INF/classes/", "WEB-INF/classes/"}

func newClassIndex(roots []string) *classIndex {
	x := &classIndex{files: map[string]cachedClassFile{}, jars: map[string]*jarClasses{}}
	for _, r := range roots {
		x.add(r)
	}
	return x
}

// add appends a class path entry (a directory or a jar) once.
func (x *classIndex) add(root string) {
	if root == "" {
		return
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if !contains(x.roots, abs) {
		x.roots = append(x.roots, abs)
	}
}

// find returns the classes compiled from the source file base (such as
// "Main.java") in package directory pkg ("a/b", "" for the default
// package): the file's top-level classes and their inner, anonymous and
// local classes (Main$1, Main$Inner). nil when none is on the class path.
func (x *classIndex) find(pkg, base string) []*ClassFile {
	if pkg == "?" || !strings.HasSuffix(base, ".java") {
		return nil
	}
	x.mu.Lock()
	roots := append([]string{}, x.roots...)
	x.mu.Unlock()
	var out []*ClassFile
	for _, r := range roots {
		var cands []*ClassFile
		if strings.HasSuffix(r, ".jar") {
			cands = x.jarPackage(r, pkg)
		} else {
			cands = x.dirPackage(filepath.Join(r, filepath.FromSlash(pkg)))
		}
		for _, cf := range cands {
			if compiledFrom(cf, base) {
				out = append(out, cf)
			}
		}
		if len(out) > 0 {
			return out // the first class path entry with the file wins, as in the JVM
		}
	}
	return nil
}

// compiledFrom reports whether a class came from source file base. A
// class compiled without a SourceFile attribute matches by name.
func compiledFrom(cf *ClassFile, base string) bool {
	if cf.SourceFile != "" {
		return cf.SourceFile == base
	}
	name := path.Base(cf.Name)
	top := strings.TrimSuffix(base, ".java")
	return name == top || strings.HasPrefix(name, top+"$")
}

// dirPackage parses the class files directly in dir.
func (x *classIndex) dirPackage(dir string) []*ClassFile {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []*ClassFile
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".class") {
			continue
		}
		if cf := x.classFile(filepath.Join(dir, e.Name())); cf != nil {
			out = append(out, cf)
		}
	}
	return out
}

// classFile parses one class file, from the cache when it is unchanged.
func (x *classIndex) classFile(p string) *ClassFile {
	st, err := os.Stat(p)
	if err != nil {
		return nil
	}
	x.mu.Lock()
	c, ok := x.files[p]
	x.mu.Unlock()
	if ok && c.mod.Equal(st.ModTime()) && c.size == st.Size() {
		return c.cf
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return nil
	}
	cf, _ := ParseClassFile(b)
	x.mu.Lock()
	x.files[p] = cachedClassFile{mod: st.ModTime(), size: st.Size(), cf: cf}
	x.mu.Unlock()
	return cf
}

// jarPackage parses the classes of one package of a jar, once per jar
// version.
func (x *classIndex) jarPackage(jar, pkg string) []*ClassFile {
	st, err := os.Stat(jar)
	if err != nil {
		return nil
	}
	x.mu.Lock()
	j, ok := x.jars[jar]
	if !ok || !j.mod.Equal(st.ModTime()) {
		j = &jarClasses{mod: st.ModTime(), byPkg: map[string][]*ClassFile{}}
		x.jars[jar] = j
	}
	cfs, done := j.byPkg[pkg]
	x.mu.Unlock()
	if done {
		return cfs
	}
	z, err := zip.OpenReader(jar)
	if err != nil {
		return nil
	}
	defer z.Close()
	for _, f := range z.File {
		if !inJarPackage(f.Name, pkg) || f.UncompressedSize64 > 16<<20 {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			continue
		}
		b, err := io.ReadAll(io.LimitReader(rc, 16<<20))
		rc.Close()
		if err != nil {
			continue
		}
		if cf, err := ParseClassFile(b); err == nil {
			cfs = append(cfs, cf)
		}
	}
	x.mu.Lock()
	j.byPkg[pkg] = cfs
	x.mu.Unlock()
	return cfs
}

// inJarPackage reports whether a jar entry is a class file directly in
// package directory pkg.
func inJarPackage(name, pkg string) bool {
	if !strings.HasSuffix(name, ".class") {
		return false
	}
	for _, pre := range jarPrefixes {
		rest, ok := strings.CutPrefix(name, pre)
		if !ok {
			continue
		}
		if pkg != "" {
			if rest, ok = strings.CutPrefix(rest, pkg+"/"); !ok {
				continue
			}
		}
		if !strings.Contains(rest, "/") {
			return true
		}
	}
	return false
}

// placeLine finds where a breakpoint on line (whose source text is text)
// binds in the given classes, as the JVM will when they load: the line
// itself when a method has code there; a method's first line when line
// declares that method; else the next line with code in the method whose
// code spans line (a blank line or a line without code inside a method
// body). ok is false when no class has code for the line.
func placeLine(classes []*ClassFile, line int, text string) (int, bool) {
	for _, cf := range classes {
		for _, m := range cf.Methods {
			for _, e := range m.Lines {
				if e.Line == line {
					return line, true
				}
			}
		}
	}
	if l, ok := declarationLine(classes, line, text); ok {
		return l, true
	}
	best := 0
	for _, cf := range classes {
		for _, m := range cf.Methods {
			lo, hi, next := 0, 0, 0
			for _, e := range m.Lines {
				if lo == 0 || e.Line < lo {
					lo = e.Line
				}
				if e.Line > hi {
					hi = e.Line
				}
				if e.Line > line && (next == 0 || e.Line < next) {
					next = e.Line
				}
			}
			if lo < line && line < hi && (best == 0 || next < best) {
				best = next
			}
		}
	}
	return best, best > 0
}

// declarationLine places a breakpoint on a method's declaration line (no
// code) at the method's first line, when text names the method and its
// first line follows within three lines, as bindDeclaration does for a
// loaded class.
func declarationLine(classes []*ClassFile, line int, text string) (int, bool) {
	if text == "" {
		return 0, false
	}
	for _, cf := range classes {
		simple := path.Base(cf.Name)
		if i := strings.LastIndexByte(simple, '$'); i >= 0 {
			simple = simple[i+1:]
		}
		for _, m := range cf.Methods {
			name := m.Name
			if name == "<init>" {
				name = simple
			}
			if len(m.Lines) == 0 || !strings.Contains(text, name+"(") {
				continue
			}
			first := m.Lines[0]
			for _, e := range m.Lines {
				if e.PC < first.PC {
					first = e
				}
			}
			if first.Line > line && first.Line <= line+3 {
				return first.Line, true
			}
		}
	}
	return 0, false
}

// classNames lists the classes' names in Java form, sorted, for messages.
func classNames(classes []*ClassFile) string {
	var names []string
	for _, cf := range classes {
		names = append(names, strings.ReplaceAll(cf.Name, "/", "."))
	}
	sort.Strings(names)
	if len(names) > 5 {
		names = append(names[:5], "...")
	}
	return strings.Join(names, ", ")
}
