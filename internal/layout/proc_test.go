package layout

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"
)

// /proc is read through package proc only: no other file spells a path
// under /proc. Callers use proc's readers (Exe, Cmdline, ReadStatus...),
// or proc.Path for a file they open or walk themselves.
func TestProcOnlyThroughProc(t *testing.T) {
	t.Parallel()
	goFiles(t, "proc", func(rel string, src []byte) {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, rel, src, parser.SkipObjectResolution)
		if err != nil {
			return // a fixture that does not compile on purpose
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil && (s == "/proc" || strings.HasPrefix(s, "/proc/")) {
					t.Errorf("%s: %q: read /proc through package proc", fset.Position(lit.Pos()), s)
				}
			}
			return true
		})
	})
}
