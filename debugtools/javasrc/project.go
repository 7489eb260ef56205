package javasrc

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// Limits of a project scan: .java files read, the size of one file, and
// directory entries visited (so that a project path such as a home
// directory cannot make every call walk for minutes).
const (
	maxFiles    = 50000
	maxFileSize = 4 << 20
	maxEntries  = 400000
)

// skipDirs are folders never searched for sources: build outputs,
// dependencies and tool folders (any folder whose name starts with "."
// is skipped too).
var skipDirs = map[string]bool{"node_modules": true, "target": true, "build": true, "out": true, "bin": true}

// Index holds the parsed Java sources of one project directory. Refresh
// brings it up to date, re-parsing only files whose size or modification
// time changed. An Index is safe for concurrent use; the *TypeDecl values
// it hands out are immutable and stay valid after later refreshes.
type Index struct {
	root string

	mu    sync.Mutex
	files map[string]*fileEntry // by path relative to root, slash-separated
	gen   uint64                // bumped whenever the set of parsed files changes
	snap  *snapshot
}

type fileEntry struct {
	size  int64
	mtime time.Time
	file  *File
}

// snapshot is the lookup state derived from one generation of files.
type snapshot struct {
	gen   uint64
	types map[string][]*TypeDecl          // qualified and binary names
	pkgs  map[string]map[string]*TypeDecl // package -> simple name -> top-level type
	rel   map[*File]string                // file -> path relative to root
	all   []*TypeDecl                     // every type, in file order
	http  []Mapping                       // computed lazily
	once  sync.Once
}

// NewIndex returns an empty index of the project at root.
func NewIndex(root string) *Index {
	return &Index{root: root, files: map[string]*fileEntry{}}
}

// Root returns the project directory.
func (ix *Index) Root() string { return ix.root }

// Refresh walks the project for .java files and re-parses what changed.
// It returns an error only when the root cannot be read or ctx ends.
func (ix *Index) Refresh(ctx context.Context) error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if _, err := os.Stat(ix.root); err != nil {
		return fmt.Errorf("java sources: %w", err)
	}
	seen := map[string]bool{}
	changed := false
	count, entries := 0, 0
	err := filepath.WalkDir(ix.root, func(path string, d fs.DirEntry, err error) error {
		if entries++; entries > maxEntries {
			return filepath.SkipAll
		}
		if err != nil {
			if path == ix.root {
				return err
			}
			return nil // unreadable entry: skip it
		}
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		name := d.Name()
		if d.IsDir() {
			if path != ix.root && (strings.HasPrefix(name, ".") || skipDirs[name]) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".java") || !d.Type().IsRegular() {
			return nil
		}
		if count++; count > maxFiles {
			return filepath.SkipAll
		}
		info, err := d.Info()
		if err != nil || info.Size() > maxFileSize {
			return nil
		}
		rel, err := filepath.Rel(ix.root, path)
		if err != nil {
			return nil
		}
		rel = filepath.ToSlash(rel)
		seen[rel] = true
		if e, ok := ix.files[rel]; ok && e.size == info.Size() && e.mtime.Equal(info.ModTime()) {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		ix.files[rel] = &fileEntry{size: info.Size(), mtime: info.ModTime(), file: Parse(rel, string(src))}
		changed = true
		return nil
	})
	if err != nil {
		return fmt.Errorf("java sources of %s: %w", ix.root, err)
	}
	for rel := range ix.files {
		if !seen[rel] {
			delete(ix.files, rel)
			changed = true
		}
	}
	if changed || ix.snap == nil {
		ix.gen++
		ix.snap = ix.build()
	}
	return nil
}

// Generation identifies the current set of parsed files; it changes
// whenever a file is added, removed or modified.
func (ix *Index) Generation() uint64 {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.gen
}

// FileCount returns the number of parsed files.
func (ix *Index) FileCount() int {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return len(ix.files)
}

func (ix *Index) current() *snapshot {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.snap == nil {
		ix.snap = ix.build()
	}
	return ix.snap
}

// build derives the lookup maps. Sources under src/main come before
// others (tests, samples) when a name is declared twice.
func (ix *Index) build() *snapshot {
	s := &snapshot{gen: ix.gen, types: map[string][]*TypeDecl{}, pkgs: map[string]map[string]*TypeDecl{}, rel: map[*File]string{}}
	rels := make([]string, 0, len(ix.files))
	for rel := range ix.files {
		rels = append(rels, rel)
	}
	sort.Slice(rels, func(i, j int) bool {
		mi, mj := strings.Contains(rels[i], "src/main/"), strings.Contains(rels[j], "src/main/")
		if mi != mj {
			return mi
		}
		return rels[i] < rels[j]
	})
	var add func(t *TypeDecl)
	add = func(t *TypeDecl) {
		s.all = append(s.all, t)
		s.types[t.QualifiedName] = append(s.types[t.QualifiedName], t)
		if t.BinaryName != t.QualifiedName {
			s.types[t.BinaryName] = append(s.types[t.BinaryName], t)
		}
		for _, nt := range t.Types {
			add(nt)
		}
	}
	for _, rel := range rels {
		f := ix.files[rel].file
		s.rel[f] = rel
		for _, t := range f.Types {
			add(t)
			if s.pkgs[f.Package] == nil {
				s.pkgs[f.Package] = map[string]*TypeDecl{}
			}
			if _, dup := s.pkgs[f.Package][t.Name]; !dup {
				s.pkgs[f.Package][t.Name] = t
			}
		}
	}
	return s
}

// Type returns the declarations of a type by qualified name
// ("a.b.Outer.Inner") or binary name ("a.b.Outer$Inner"), main sources
// first.
func (ix *Index) Type(name string) []*TypeDecl {
	s := ix.current()
	name = strings.TrimSpace(name)
	if ts := s.types[name]; len(ts) > 0 {
		return ts
	}
	return s.types[strings.ReplaceAll(name, "$", ".")]
}

// TypesNamed returns the qualified names of types whose simple name is
// name, for suggestions.
func (ix *Index) TypesNamed(name string) []string {
	s := ix.current()
	simple := lastDot(strings.ReplaceAll(name, "$", "."))
	var out []string
	seen := map[string]bool{}
	for _, t := range s.all {
		if strings.EqualFold(t.Name, simple) && !seen[t.QualifiedName] {
			seen[t.QualifiedName] = true
			out = append(out, t.QualifiedName)
		}
	}
	return out
}

// RelPath returns the path of t's file relative to the project root,
// slash-separated.
func (ix *Index) RelPath(t *TypeDecl) string {
	if t == nil || t.File == nil {
		return ""
	}
	return ix.current().rel[t.File]
}

// resolve finds the type a name written inside ctx refers to. It returns
// the qualified name (as well as it can tell) and the declaration when
// the type is part of the project.
func (s *snapshot) resolve(name string, ctx *TypeDecl) (string, *TypeDecl) {
	first, rest, dotted := strings.Cut(name, ".")
	if q, d := s.resolveSimple(first, ctx); q != "" {
		if !dotted {
			return q, d
		}
		for _, seg := range strings.Split(rest, ".") {
			q += "." + seg
			if d != nil {
				d = memberType(d, seg)
			}
		}
		if d == nil {
			if ts := s.types[q]; len(ts) > 0 {
				d = ts[0]
			}
		}
		return q, d
	}
	if !dotted {
		return name, nil
	}
	if ts := s.types[name]; len(ts) > 0 {
		return ts[0].QualifiedName, ts[0]
	}
	return name, nil
}

func memberType(t *TypeDecl, name string) *TypeDecl {
	for _, nt := range t.Types {
		if nt.Name == name {
			return nt
		}
	}
	return nil
}

// resolveSimple resolves a simple type name in ctx: the enclosing types
// and their members, single-type imports, the package, wildcard imports,
// java.lang and finally well-known JDK names.
func (s *snapshot) resolveSimple(name string, ctx *TypeDecl) (string, *TypeDecl) {
	var file *File
	for t := ctx; t != nil; t = t.Outer {
		file = t.File
		if t.Name == name {
			return t.QualifiedName, t
		}
		if nt := memberType(t, name); nt != nil {
			return nt.QualifiedName, nt
		}
		for _, sup := range append(append([]TypeRef(nil), t.Extends...), t.Implements...) {
			if _, sd := s.resolveShallow(sup.Name, t); sd != nil {
				if nt := memberType(sd, name); nt != nil {
					return nt.QualifiedName, nt
				}
			}
		}
	}
	if file != nil {
		if q, d := s.resolveInFile(name, file); q != "" {
			return q, d
		}
	}
	if q, ok := javaLang[name]; ok {
		return q, nil
	}
	if q, ok := wellKnown[name]; ok {
		return q, nil
	}
	return "", nil
}

// resolveShallow resolves a supertype name without looking at the
// supertypes' members (to stay finite).
func (s *snapshot) resolveShallow(name string, ctx *TypeDecl) (string, *TypeDecl) {
	first, _, dotted := strings.Cut(name, ".")
	if dotted {
		if ts := s.types[name]; len(ts) > 0 {
			return name, ts[0]
		}
		return name, nil
	}
	for t := ctx; t != nil; t = t.Outer {
		if t.Name == first {
			return t.QualifiedName, t
		}
		if nt := memberType(t, first); nt != nil {
			return nt.QualifiedName, nt
		}
	}
	if ctx != nil && ctx.File != nil {
		return s.resolveInFile(first, ctx.File)
	}
	return "", nil
}

func (s *snapshot) resolveInFile(name string, file *File) (string, *TypeDecl) {
	for _, imp := range file.Imports {
		if !imp.Static && !imp.Wildcard && lastDot(imp.Name) == name {
			if ts := s.types[imp.Name]; len(ts) > 0 {
				return ts[0].QualifiedName, ts[0]
			}
			return imp.Name, nil
		}
	}
	if t := s.pkgs[file.Package][name]; t != nil {
		return t.QualifiedName, t
	}
	for _, imp := range file.Imports {
		if imp.Wildcard && !imp.Static {
			q := imp.Name + "." + name
			if ts := s.types[q]; len(ts) > 0 {
				return ts[0].QualifiedName, ts[0]
			}
			if wellKnown[name] == q {
				return q, nil
			}
		}
	}
	return "", nil
}

// javaLang lists the java.lang types that need no import.
var javaLang = func() map[string]string {
	m := map[string]string{}
	for _, n := range []string{"String", "Object", "Integer", "Long", "Short", "Byte", "Character", "Boolean",
		"Double", "Float", "Number", "CharSequence", "Class", "Enum", "Iterable", "Runnable", "Void",
		"StringBuilder", "StringBuffer", "Throwable", "Exception", "RuntimeException", "Error", "Thread",
		"Record", "Comparable", "AutoCloseable", "Math", "System", "Cloneable"} {
		m[n] = "java.lang." + n
	}
	return m
}()

// wellKnown maps simple names of common JDK and framework types to their
// qualified names, used through wildcard imports and as a last resort.
var wellKnown = func() map[string]string {
	m := map[string]string{}
	add := func(pkg string, names ...string) {
		for _, n := range names {
			m[n] = pkg + "." + n
		}
	}
	add("java.util", "List", "ArrayList", "LinkedList", "Set", "HashSet", "LinkedHashSet", "TreeSet", "SortedSet",
		"NavigableSet", "Map", "HashMap", "LinkedHashMap", "TreeMap", "SortedMap", "NavigableMap", "Collection",
		"Queue", "Deque", "ArrayDeque", "PriorityQueue", "Optional", "Date", "UUID", "Locale", "Calendar", "Currency",
		"Properties", "Vector", "Stack", "Hashtable", "EnumSet", "EnumMap", "Iterator", "Objects", "Collections", "Arrays")
	add("java.util.concurrent", "ConcurrentMap", "ConcurrentHashMap", "CopyOnWriteArrayList", "TimeUnit", "Callable",
		"CompletableFuture", "Future", "BlockingQueue", "LinkedBlockingQueue")
	add("java.util.function", "Function", "BiFunction", "Supplier", "Consumer", "BiConsumer", "Predicate",
		"BiPredicate", "UnaryOperator", "BinaryOperator", "IntFunction", "ToIntFunction", "ToLongFunction")
	add("java.time", "LocalDate", "LocalDateTime", "LocalTime", "Instant", "ZonedDateTime", "OffsetDateTime",
		"OffsetTime", "Duration", "Period", "DayOfWeek", "Month", "Year", "YearMonth", "MonthDay", "ZoneId", "ZoneOffset")
	add("java.math", "BigDecimal", "BigInteger", "RoundingMode")
	add("java.io", "File", "InputStream", "OutputStream", "Serializable", "Reader", "Writer")
	add("java.net", "URI", "URL", "InetAddress")
	add("java.nio.file", "Path")
	add("java.sql", "Timestamp", "Time")
	add("java.util.stream", "Stream")
	add("java.util.regex", "Pattern")
	return m
}()
