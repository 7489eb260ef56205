package adapters

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// pureBuiltins are the Go builtins that read a value and change nothing.
var pureBuiltins = map[string]bool{"len": true, "cap": true, "real": true, "imag": true}

// goSideEffectFree reports an error when a Go expression calls a function
// (delve's "call f()" or f()), or is an assignment or increment: what
// would change the program when delve evaluates it. The builtins len, cap,
// real and imag are reads.
func goSideEffectFree(expr string) error {
	src := strings.TrimSpace(expr)
	if strings.HasPrefix(src, "call ") {
		return errors.New("it calls a function (call)")
	}
	e, err := parser.ParseExpr(src)
	if err != nil {
		return goStatement(src)
	}
	var found error
	ast.Inspect(e, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && found == nil {
			if id, ok := c.Fun.(*ast.Ident); ok && pureBuiltins[id.Name] {
				return true
			}
			found = fmt.Errorf("it calls %s", exprText(src, c.Fun))
		}
		return found == nil
	})
	return found
}

// goStatement explains what a source that is no Go expression does: an
// assignment or increment is refused, anything else cannot be checked.
func goStatement(src string) error {
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p; func _() {\n"+src+"\n}", 0)
	if err != nil {
		return fmt.Errorf("it is not a Go expression dbg can check: %w", err)
	}
	var found error
	ast.Inspect(f, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.AssignStmt:
			found = errors.New("it is an assignment")
		case *ast.IncDecStmt:
			found = errors.New("it is an increment or decrement")
		}
		return found == nil
	})
	if found == nil {
		found = errors.New("it is a statement, not an expression")
	}
	return found
}

// exprText is the source of a node of an expression parsed from src.
func exprText(src string, n ast.Node) string {
	from, to := int(n.Pos())-1, int(n.End())-1
	if from < 0 || to > len(src) || from >= to {
		return "a function"
	}
	return src[from:to]
}
