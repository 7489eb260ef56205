package layout

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/dbg-dev/dbg/adapters"
)

// The languages are decided in adapters/ only: everywhere else dbg asks
// an adapter's declaration (adapters.Traits).

// hookLanguages are the names the project's commit hook looks for; the
// registry's languages are added to them. Aliases are not: several name a
// tool or a capability as well ("debugpy", "jvm").
var hookLanguages = []string{"python", "go", "golang", "javascript", "typescript", "java", "c", "cpp", "rust", "ruby", "cobol", "mock", "dotnet", "dart"}

// hookPattern is the hook's own pattern, used for files go/parser cannot
// read (fixtures that do not compile on purpose).
var hookPattern = regexp.MustCompile(`(==|!=|case) *"(python|go|golang|javascript|typescript|java|c|cpp|rust|ruby|cobol|mock|dotnet|dart)"`)

// languageNames is every name a language goes by.
func languageNames() map[string]bool {
	names := map[string]bool{}
	for _, n := range hookLanguages {
		names[n] = true
	}
	for _, l := range adapters.Default().Languages() {
		names[l] = true
	}
	return names
}

// languageDecisions lists where src decides by a language's name: a
// comparison (==, !=, strings.EqualFold) with one, a switch case on one,
// a map literal keyed by one, or an index by one.
func languageDecisions(fset *token.FileSet, file *ast.File, names map[string]bool) []string {
	var out []string
	named := func(e ast.Expr) (string, bool) {
		lit, ok := ast.Unparen(e).(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(lit.Value)
		return s, err == nil && names[strings.ToLower(s)]
	}
	report := func(n ast.Node, what, name string) {
		out = append(out, fmt.Sprintf("%s: %s %q", fset.Position(n.Pos()), what, name))
	}
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if n.Op == token.EQL || n.Op == token.NEQ {
				for _, side := range []ast.Expr{n.X, n.Y} {
					if s, ok := named(side); ok {
						report(n, "compares with", s)
					}
				}
			}
		case *ast.CaseClause:
			for _, e := range n.List {
				if s, ok := named(e); ok {
					report(e, "switch case", s)
				}
			}
		case *ast.KeyValueExpr:
			if s, ok := named(n.Key); ok {
				report(n, "map key", s)
			}
		case *ast.IndexExpr:
			if s, ok := named(n.Index); ok {
				report(n, "index by", s)
			}
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "EqualFold" {
				for _, a := range n.Args {
					if s, ok := named(a); ok {
						report(n, "compares with", s)
					}
				}
			}
		}
		return true
	})
	return out
}

func TestNoLanguageNamedOutsideAdapters(t *testing.T) {
	t.Parallel()
	names := languageNames()
	var found []string
	goFiles(t, "adapters", func(rel string, src []byte) {
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, rel, src, parser.SkipObjectResolution)
		if err != nil {
			for i, line := range strings.Split(string(src), "\n") {
				if hookPattern.MatchString(line) {
					found = append(found, fmt.Sprintf("%s:%d: %s", rel, i+1, strings.TrimSpace(line)))
				}
			}
			return
		}
		found = append(found, languageDecisions(fset, file, names)...)
	})
	for _, f := range found {
		t.Errorf("%s: ask the adapter's declaration (adapters.Traits) instead", f)
	}
}

// The checker catches each way of deciding by a name, and leaves alone
// naming a language where nothing is decided.
func TestLanguageDecisionsAreFound(t *testing.T) {
	t.Parallel()
	names := languageNames()
	for src, want := range map[string]int{
		`x == "go"`:                    1,
		`"c" != x`:                     1,
		`strings.EqualFold(x, "Ruby")`: 1,
		`map[string]bool{"java": true, "dart": true}`: 2,
		`m["rust"]`: 1,
		`func() { switch x { case "python", "Cobol": } }`: 2,
		`Traits{Language: "go"}`:                          0,
		`f("typescript")`:                                 0,
		`x == "golang-ci" || x == "Go 1.22"`:              0,
		`m[lang]`:                                         0,
	} {
		file, err := parser.ParseFile(token.NewFileSet(), "x.go", "package p\nvar _ = "+src+"\n", 0)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if got := languageDecisions(token.NewFileSet(), file, names); len(got) != want {
			t.Errorf("%s: %d found (%q), want %d", src, len(got), got, want)
		}
	}
}

// Outside adapters/, no package imports one adapter's own package
// (javadap, nodedap, mockdap, native, cobol, pyhooks, ruby): what they
// hold that others need is in the adapter's declaration. bpcond, the one
// meaning of hit conditions every adapter and the session manager share,
// is no adapter's.
func TestNoAdapterInternalsOutsideAdapters(t *testing.T) {
	t.Parallel()
	const prefix = "github.com/dbg-dev/dbg/adapters/"
	shared := []string{prefix + "bpcond"}
	goFiles(t, "adapters", func(rel string, src []byte) {
		file, err := parser.ParseFile(token.NewFileSet(), rel, src, parser.ImportsOnly)
		if err != nil {
			return // not Go that builds: imports nothing
		}
		for _, imp := range file.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(p, prefix) && !slices.Contains(shared, p) {
				t.Errorf("%s imports %s: ask the adapter's declaration (adapters.Traits) instead", rel, p)
			}
		}
	})
}
