package javadap

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// classCache remembers what the adapter learned about loaded types: their
// signatures, source files, members, line tables and supertypes. Types
// never change once loaded, so entries are kept for the whole session. It
// is safe for concurrent use; lookups run outside the lock.
type classCache struct {
	vm *Client

	mu      sync.Mutex
	sigs    map[uint64]string
	sources map[uint64]string // "" when absent
	methods map[uint64][]MethodInfo
	fields  map[uint64][]FieldInfo
	lines   map[[2]uint64]LineTable
	vars    map[[2]uint64][]VarInfo
	supers  map[uint64][]string // all supertype signatures, self included
}

func newClassCache(vm *Client) *classCache {
	return &classCache{vm: vm, sigs: map[uint64]string{}, sources: map[uint64]string{},
		methods: map[uint64][]MethodInfo{}, fields: map[uint64][]FieldInfo{},
		lines: map[[2]uint64]LineTable{}, vars: map[[2]uint64][]VarInfo{}, supers: map[uint64][]string{}}
}

func (c *classCache) signature(ctx context.Context, rt uint64) (string, error) {
	c.mu.Lock()
	s, ok := c.sigs[rt]
	c.mu.Unlock()
	if ok {
		return s, nil
	}
	s, err := c.vm.Signature(ctx, rt)
	if err != nil {
		return "", err
	}
	c.mu.Lock()
	c.sigs[rt] = s
	c.mu.Unlock()
	return s, nil
}

func (c *classCache) setSignature(rt uint64, sig string) {
	c.mu.Lock()
	c.sigs[rt] = sig
	c.mu.Unlock()
}

// sourceFile returns the type's source file name, "" when unknown.
func (c *classCache) sourceFile(ctx context.Context, rt uint64) string {
	c.mu.Lock()
	s, ok := c.sources[rt]
	c.mu.Unlock()
	if ok {
		return s
	}
	s, err := c.vm.SourceFile(ctx, rt)
	if err != nil && !IsErrorCode(err, ErrCodeAbsentInformation) {
		return ""
	}
	c.mu.Lock()
	c.sources[rt] = s
	c.mu.Unlock()
	return s
}

func (c *classCache) methodsOf(ctx context.Context, rt uint64) ([]MethodInfo, error) {
	c.mu.Lock()
	m, ok := c.methods[rt]
	c.mu.Unlock()
	if ok {
		return m, nil
	}
	m, err := c.vm.Methods(ctx, rt)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.methods[rt] = m
	c.mu.Unlock()
	return m, nil
}

func (c *classCache) method(ctx context.Context, rt, id uint64) (MethodInfo, bool) {
	ms, err := c.methodsOf(ctx, rt)
	if err != nil {
		return MethodInfo{}, false
	}
	for _, m := range ms {
		if m.ID == id {
			return m, true
		}
	}
	return MethodInfo{}, false
}

func (c *classCache) fieldsOf(ctx context.Context, rt uint64) ([]FieldInfo, error) {
	c.mu.Lock()
	f, ok := c.fields[rt]
	c.mu.Unlock()
	if ok {
		return f, nil
	}
	f, err := c.vm.Fields(ctx, rt)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.fields[rt] = f
	c.mu.Unlock()
	return f, nil
}

func (c *classCache) lineTable(ctx context.Context, rt, method uint64) (LineTable, error) {
	k := [2]uint64{rt, method}
	c.mu.Lock()
	t, ok := c.lines[k]
	c.mu.Unlock()
	if ok {
		return t, nil
	}
	t, err := c.vm.LineTable(ctx, rt, method)
	if err != nil && !IsErrorCode(err, ErrCodeAbsentInformation) && !IsErrorCode(err, ErrCodeNotImplemented) {
		return t, err
	}
	sort.Slice(t.Lines, func(i, j int) bool { return t.Lines[i].Index < t.Lines[j].Index })
	c.mu.Lock()
	c.lines[k] = t
	c.mu.Unlock()
	return t, nil
}

// varTable returns a method's variables, nil with no error when the class
// was compiled without -g.
func (c *classCache) varTable(ctx context.Context, rt, method uint64) ([]VarInfo, error) {
	k := [2]uint64{rt, method}
	c.mu.Lock()
	v, ok := c.vars[k]
	c.mu.Unlock()
	if ok {
		return v, nil
	}
	_, v, err := c.vm.VariableTable(ctx, rt, method)
	if err != nil && !IsErrorCode(err, ErrCodeAbsentInformation) && !IsErrorCode(err, ErrCodeNotImplemented) {
		return nil, err
	}
	c.mu.Lock()
	c.vars[k] = v
	c.mu.Unlock()
	return v, nil
}

// lineOf maps a location to its source line (0 when unknown).
func (c *classCache) lineOf(ctx context.Context, loc Location) int {
	t, err := c.lineTable(ctx, loc.Class, loc.Method)
	if err != nil {
		return 0
	}
	line := 0
	for _, e := range t.Lines {
		if e.Index > loc.Index {
			break
		}
		line = int(e.Line)
	}
	return line
}

// supertypes returns the signatures of the type, its superclasses and all
// interfaces they implement.
func (c *classCache) supertypes(ctx context.Context, rt uint64) []string {
	c.mu.Lock()
	s, ok := c.supers[rt]
	c.mu.Unlock()
	if ok {
		return s
	}
	seen := map[uint64]bool{}
	var out []string
	var walk func(t uint64, isClass bool)
	walk = func(t uint64, isClass bool) {
		if t == 0 || seen[t] || len(seen) > 200 {
			return
		}
		seen[t] = true
		if sig, err := c.signature(ctx, t); err == nil {
			out = append(out, sig)
		}
		if ifs, err := c.vm.Interfaces(ctx, t); err == nil {
			for _, i := range ifs {
				walk(i, false)
			}
		}
		if isClass {
			if sup, err := c.vm.Superclass(ctx, t); err == nil {
				walk(sup, true)
			}
		}
	}
	walk(rt, true)
	c.mu.Lock()
	c.supers[rt] = out
	c.mu.Unlock()
	return out
}

func (c *classCache) implements(ctx context.Context, rt uint64, sig string) bool {
	for _, s := range c.supertypes(ctx, rt) {
		if s == sig {
			return true
		}
	}
	return false
}

// classChain returns the type and its superclasses, most derived first.
func (c *classCache) classChain(ctx context.Context, rt uint64) []uint64 {
	var out []uint64
	for t := rt; t != 0 && len(out) < 64; {
		out = append(out, t)
		sup, err := c.vm.Superclass(ctx, t)
		if err != nil {
			break
		}
		t = sup
	}
	return out
}

// packageDir returns the package directory of a signature ("a/b" for
// "La/b/C$D;", "" for the default package).
func packageDir(sig string) string {
	s := strings.TrimSuffix(strings.TrimPrefix(sig, "L"), ";")
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		return s[:i]
	}
	return ""
}

// simpleClassName returns "D" for "La/b/C$D;" and "C" for "La/b/C;".
func simpleClassName(sig string) string {
	s := javaTypeName(sig)
	if i := strings.LastIndexAny(s, ".$"); i >= 0 {
		return s[i+1:]
	}
	return s
}

// sourceMapper finds the absolute path of a class's source file.
type sourceMapper struct {
	mu    sync.Mutex
	roots []string
	known map[string][]string // base name -> absolute paths seen in setBreakpoints
	cache map[string]string
}

func newSourceMapper(roots []string) *sourceMapper {
	return &sourceMapper{roots: roots, known: map[string][]string{}, cache: map[string]string{}}
}

// addKnown records a source file the client named, and the source root it
// implies from its package (pkg as a directory, "?" when unknown): other
// files of the same tree then map too.
func (m *sourceMapper) addKnown(path, pkg string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	dir := filepath.Dir(path)
	if pkg != "?" {
		root := dir
		if pkg != "" {
			root = strings.TrimSuffix(filepath.ToSlash(dir), "/"+pkg)
			if root == filepath.ToSlash(dir) {
				root = ""
			}
		}
		if root != "" && !contains(m.roots, filepath.FromSlash(root)) {
			m.roots = append(m.roots, filepath.FromSlash(root))
			m.cache = map[string]string{}
		}
	}
	base := filepath.Base(path)
	for _, p := range m.known[base] {
		if p == path {
			return
		}
	}
	m.known[base] = append(m.known[base], path)
	m.cache = map[string]string{} // forget misses
}

// resolve returns the absolute path of file in package dir pkg, "" if not found.
func (m *sourceMapper) resolve(pkg, file string) string {
	if file == "" {
		return ""
	}
	key := pkg + "/" + file
	m.mu.Lock()
	defer m.mu.Unlock()
	if p, ok := m.cache[key]; ok {
		return p
	}
	found := ""
	for _, p := range m.known[file] {
		if pkg == "" || strings.HasSuffix(filepath.ToSlash(filepath.Dir(p)), pkg) {
			found = p
			break
		}
	}
	for _, r := range m.roots {
		if found != "" {
			break
		}
		cand := filepath.Join(r, filepath.FromSlash(pkg), file)
		if _, err := os.Stat(cand); err == nil {
			found, _ = filepath.Abs(cand)
		}
	}
	m.cache[key] = found
	return found
}

func contains(xs []string, x string) bool {
	for _, s := range xs {
		if s == x {
			return true
		}
	}
	return false
}
