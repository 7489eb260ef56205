package javadap

import (
	"fmt"
	"regexp"
	"strings"
)

// assignRE finds an assignment, compound assignment, increment or
// decrement outside string literals (which are removed first).
var assignRE = regexp.MustCompile(`\+\+|--|(^|[^=!<>])=($|[^=])`)

// stringLitRE matches string and char literals.
var stringLitRE = regexp.MustCompile(`"(\\.|[^"\\])*"|'(\\.|[^'\\])*'`)

// sideEffectFree reports why a Java expression could change the program,
// or nil when it only reads.
func sideEffectFree(src string) error {
	src = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(src), ";"))
	if assignRE.MatchString(stringLitRE.ReplaceAllString(src, `""`)) {
		return fmt.Errorf("refused without side effects: %q assigns or increments", src)
	}
	e, err := parseExpr(src)
	if err != nil {
		return fmt.Errorf("cannot parse %q: %w", src, err)
	}
	if c := firstCall(e); c != nil {
		return fmt.Errorf("refused without side effects: %q invokes the method %s", src, c.name)
	}
	return nil
}

// firstCall returns the first method invocation in e, nil when none.
func firstCall(e expr) *callExpr {
	var kids []expr
	switch e := e.(type) {
	case *callExpr:
		return e
	case *fieldExpr:
		kids = []expr{e.x}
	case *indexExpr:
		kids = []expr{e.x, e.i}
	case *unaryExpr:
		kids = []expr{e.x}
	case *condExpr:
		kids = []expr{e.c, e.x, e.y}
	case *castExpr:
		kids = []expr{e.x}
	case *binaryExpr:
		kids = []expr{e.x, e.y}
	}
	for _, k := range kids {
		if k == nil {
			continue
		}
		if c := firstCall(k); c != nil {
			return c
		}
	}
	return nil
}
