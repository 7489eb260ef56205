package sessions

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/dbg-dev/dbg/toolkit"
)

// projectMarkers are the entries whose presence makes a directory a
// project root.
var projectMarkers = []string{".idea", ".vscode", ".git", "go.mod", "pom.xml", "build.gradle", "build.gradle.kts", "package.json", "pyproject.toml"}

// ResolveProject returns the project directory for a tool call: arg when
// given, else the server's project, else its working directory. A path
// inside a project (a file or a sub-folder) resolves to the nearest
// ancestor holding a project marker; a directory with no marker above it
// is its own project.
func (m *Manager) ResolveProject(arg string) (string, error) {
	p := arg
	if p == "" {
		p = m.cfg.Project
	}
	if p == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", toolkit.NewError(toolkit.CodeNoProject, "no project: "+err.Error(), "pass projectPath")
		}
		p = wd
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", toolkit.NewError(toolkit.CodeNoProject, err.Error(), "pass an absolute projectPath")
	}
	st, err := os.Stat(abs)
	if err != nil {
		return "", toolkit.NewError(toolkit.CodeNoProject, fmt.Sprintf("project path %s does not exist", abs), "pass the directory of an existing project as projectPath")
	}
	dir := abs
	if !st.IsDir() {
		dir = filepath.Dir(abs)
	}
	for d := dir; ; d = filepath.Dir(d) {
		for _, mk := range projectMarkers {
			if _, err := os.Stat(filepath.Join(d, mk)); err == nil {
				return d, nil
			}
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return dir, nil
}
