package testrun

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
)

// Go lists a test's subtests only once they run (`go test -list` names
// top-level tests), so dbg reads them out of the test's source: the
// t.Run calls whose names are constants, or fields of a table the test
// ranges over. A test whose every t.Run name is read so is complete: a
// subtest id not among its subtests then does not exist.

// goSubtests are the subtests found in one package's test files, by
// top-level test.
type goSubtests struct {
	names    map[string][]string // test → subtest ids ("TestPairs/wrong")
	complete map[string]bool     // test → every t.Run name was read
}

// withSubtests inserts each test's subtests, read from its package's
// source, after it; the test is marked when that list is complete.
func withSubtests(dir string, ids []TestID) []TestID {
	byDir := map[string]goSubtests{}
	var out []TestID
	for _, t := range ids {
		pdir := filepath.Join(dir, filepath.FromSlash(t.Package))
		if !strings.HasPrefix(t.Package, ".") {
			out = append(out, t) // a package outside the module
			continue
		}
		st, ok := byDir[pdir]
		if !ok {
			st = readGoSubtests(pdir)
			byDir[pdir] = st
		}
		t.subtestsComplete = st.complete[t.ID]
		out = append(out, t)
		for _, sub := range st.names[t.ID] {
			out = append(out, TestID{ID: sub, Package: t.Package, File: t.File})
		}
	}
	return out
}

// maxGoTestFiles bounds how many test files one package's reading parses.
const maxGoTestFiles = 200

// readGoSubtests parses the _test.go files of dir.
func readGoSubtests(dir string) goSubtests {
	st := goSubtests{names: map[string][]string{}, complete: map[string]bool{}}
	files, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if len(files) > maxGoTestFiles {
		files = files[:maxGoTestFiles]
	}
	fset := token.NewFileSet()
	for _, f := range files {
		if src, err := os.ReadFile(f); err == nil {
			st.read(fset, f, src)
		}
	}
	return st
}

// read adds the subtests of one test file's source.
func (st goSubtests) read(fset *token.FileSet, name string, src []byte) {
	file, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return
	}
	pkgTables := packageTables(file)
	for _, d := range file.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv != nil || fn.Body == nil || !goTestName.MatchString(fn.Name.Name) {
			continue
		}
		t := testingParam(fn.Type)
		if t == "" {
			continue
		}
		w := &subtestWalker{tables: pkgTables, complete: true}
		w.walk(fn.Body, t, fn.Name.Name, nil, map[string]ast.Expr{}, map[string]int{})
		st.names[fn.Name.Name] = w.ids
		st.complete[fn.Name.Name] = w.complete
	}
}

// testingParam is the name of a test function's *testing.T (or *testing.F)
// parameter.
func testingParam(ft *ast.FuncType) string {
	if ft.Params == nil || len(ft.Params.List) != 1 || len(ft.Params.List[0].Names) != 1 {
		return ""
	}
	star, ok := ft.Params.List[0].Type.(*ast.StarExpr)
	if !ok {
		return ""
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	if !ok || (sel.Sel.Name != "T" && sel.Sel.Name != "F") {
		return ""
	}
	return ft.Params.List[0].Names[0].Name
}

// packageTables are the package-level variables initialised with a
// composite literal: tables tests range over.
func packageTables(f *ast.File) map[string]ast.Expr {
	out := map[string]ast.Expr{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			for i, n := range vs.Names {
				if i < len(vs.Values) {
					out[n.Name] = vs.Values[i]
				}
			}
		}
	}
	return out
}

// subtestWalker collects the subtests of one function body.
type subtestWalker struct {
	tables   map[string]ast.Expr
	ids      []string
	complete bool
}

// rangeVar is an enclosing range loop: its key and value variables over a
// table.
type rangeVar struct {
	key, value string
	table      ast.Expr
}

// walk finds the t.Run calls of body, whose test is named parent; loops
// are the range loops around them, locals the variables defined so far,
// seen the subtest names the parent has.
func (w *subtestWalker) walk(body ast.Node, t, parent string, loops []rangeVar, locals map[string]ast.Expr, seen map[string]int) {
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE && len(n.Lhs) == len(n.Rhs) {
				for i, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						locals[id.Name] = n.Rhs[i]
					}
				}
			}
		case *ast.RangeStmt:
			rv := rangeVar{key: identName(n.Key), value: identName(n.Value), table: w.resolve(n.X, locals)}
			w.walk(n.Body, t, parent, append(append([]rangeVar{}, loops...), rv), locals, seen)
			return false
		case *ast.FuncLit:
			// A closure may run subtests whose names are not read here.
			if runsSubtests(n, t) {
				w.complete = false
			}
			return false
		case *ast.CallExpr:
			sel, ok := n.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "Run" || identName(sel.X) != t || len(n.Args) != 2 {
				// A helper given t may run subtests of its own.
				for _, a := range n.Args {
					if identName(a) == t {
						w.complete = false
					}
				}
				return true
			}
			names, ok := w.names(n.Args[0], loops)
			if !ok {
				w.complete = false
			}
			lit, _ := n.Args[1].(*ast.FuncLit)
			if lit == nil {
				w.complete = false // a named function may run subtests of its own
			}
			for _, name := range names {
				id := parent + "/" + goUniqueName(goSubtestName(name), seen)
				w.ids = append(w.ids, id)
				if lit != nil {
					if inner := testingParam(lit.Type); inner != "" {
						w.walk(lit.Body, inner, id, loops, locals, map[string]int{})
					}
				}
			}
			return false
		}
		return true
	})
}

// runsSubtests reports whether a closure calls t.Run or hands t on.
func runsSubtests(fn *ast.FuncLit, t string) bool {
	found := false
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if sel, ok := c.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Run" && identName(sel.X) == t {
				found = true
			}
			for _, a := range c.Args {
				if identName(a) == t {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// resolve follows a local or package variable to its literal.
func (w *subtestWalker) resolve(x ast.Expr, locals map[string]ast.Expr) ast.Expr {
	if id, ok := x.(*ast.Ident); ok {
		if v, ok := locals[id.Name]; ok {
			return v
		}
		if v, ok := w.tables[id.Name]; ok {
			return v
		}
	}
	return x
}

// names are the values a t.Run name takes: a constant, or a table's
// field or key through a range variable. ok is false when it is anything
// else.
func (w *subtestWalker) names(x ast.Expr, loops []rangeVar) ([]string, bool) {
	if s, ok := stringLit(x); ok {
		return []string{s}, true
	}
	var loop *rangeVar
	field := ""
	switch x := x.(type) {
	case *ast.Ident:
		for i := len(loops) - 1; i >= 0; i-- {
			if loops[i].key == x.Name {
				loop = &loops[i]
				break
			}
		}
		if loop != nil {
			return mapKeys(loop.table)
		}
	case *ast.SelectorExpr:
		base := identName(x.X)
		for i := len(loops) - 1; i >= 0; i-- {
			if loops[i].value == base && base != "" {
				loop = &loops[i]
				break
			}
		}
		field = x.Sel.Name
	}
	if loop == nil {
		return nil, false
	}
	return tableField(loop.table, field)
}

// mapKeys are the string keys of a map literal.
func mapKeys(x ast.Expr) ([]string, bool) {
	cl, ok := x.(*ast.CompositeLit)
	if !ok {
		return nil, false
	}
	if _, isMap := cl.Type.(*ast.MapType); !isMap {
		return nil, false
	}
	var out []string
	for _, e := range cl.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			return nil, false
		}
		s, ok := stringLit(kv.Key)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// tableField is field's constant value in every element of a slice (or
// map) literal of structs, keyed or in the struct's field order.
func tableField(x ast.Expr, field string) ([]string, bool) {
	cl, ok := x.(*ast.CompositeLit)
	if !ok {
		return nil, false
	}
	var elem ast.Expr
	switch t := cl.Type.(type) {
	case *ast.ArrayType:
		elem = t.Elt
	case *ast.MapType:
		elem = t.Value
	default:
		return nil, false
	}
	index := structFieldIndex(elem, field)
	var out []string
	for _, e := range cl.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			e = kv.Value // a map's element
		}
		row, ok := e.(*ast.CompositeLit)
		if !ok {
			return nil, false
		}
		v, ok := rowField(row, field, index)
		if !ok {
			return nil, false
		}
		out = append(out, v)
	}
	return out, true
}

// structFieldIndex is field's position in an inline struct type, or -1.
func structFieldIndex(t ast.Expr, field string) int {
	st, ok := t.(*ast.StructType)
	if !ok {
		return -1
	}
	i := 0
	for _, f := range st.Fields.List {
		if len(f.Names) == 0 {
			i++
			continue
		}
		for _, n := range f.Names {
			if n.Name == field {
				return i
			}
			i++
		}
	}
	return -1
}

// rowField is field's constant value in one table row.
func rowField(row *ast.CompositeLit, field string, index int) (string, bool) {
	for i, e := range row.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			if identName(kv.Key) == field {
				return stringLit(kv.Value)
			}
			continue
		}
		if i == index {
			return stringLit(e)
		}
	}
	return "", false
}

func identName(x ast.Expr) string {
	if id, ok := x.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

func stringLit(x ast.Expr) (string, bool) {
	bl, ok := x.(*ast.BasicLit)
	if !ok || bl.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(bl.Value)
	return s, err == nil
}

// goSubtestName is the name the testing package gives a subtest: spaces
// become underscores, and runes that do not print are quoted.
func goSubtestName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			b.WriteByte('_')
		case !strconv.IsPrint(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// goUniqueName numbers a repeated subtest name as the testing package
// does: the second "a" is "a#01", an empty name "#00".
func goUniqueName(name string, seen map[string]int) string {
	empty := name == ""
	for {
		n, used := seen[name]
		if !empty && !used {
			seen[name] = 1
			return name
		}
		seen[name] = n + 1
		name = fmt.Sprintf("%s#%02d", name, n)
		empty = false
	}
}

// goSubtestRan is Go's Framework.Subtests: whether a verbose go test
// run's output shows id ran, and the tests and subtests it ran.
func goSubtestRan(id, out string) (bool, []TestID) {
	if strings.Contains(out, "=== RUN   "+id+"\n") {
		return true, nil
	}
	var ids []TestID
	for _, l := range strings.Split(out, "\n") {
		if name, ok := strings.CutPrefix(l, "=== RUN   "); ok {
			ids = append(ids, TestID{ID: strings.TrimSpace(name)})
		}
	}
	return false, ids
}
