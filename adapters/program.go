package adapters

import (
	"fmt"
	"os"
	"path/filepath"
)

// programPath resolves the program (or script) of a launch: a relative
// path is taken against cwd, or against the working directory when cwd is
// empty. It returns the absolute path and what is there; a missing file is
// an error naming it as what ("program", "script").
func programPath(what, program, cwd string) (string, os.FileInfo, error) {
	if !filepath.IsAbs(program) && cwd != "" {
		program = filepath.Join(cwd, program)
	}
	p, err := filepath.Abs(program)
	if err != nil {
		return "", nil, err
	}
	st, err := os.Stat(p)
	if err != nil {
		return "", nil, fmt.Errorf("%s %s: %w", what, p, err)
	}
	return p, st, nil
}
