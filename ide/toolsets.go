package ide

import (
	"os"
	"path/filepath"

	"github.com/dbg-dev/dbg/toolkit"
)

// The ide toolsets. A server lists each by default when its project
// needs it: RunToolset when it has saved run configurations, GitToolset
// (its GitLead tools) when it is in a Git repository.
const (
	RunToolset = "ide"
	GitToolset = "git"
)

// GitLead are the Git tools a project in a repository lists by default:
// the reads and fetch. Pull and push are listed once asked for
// (--toolsets git, enable_toolset git), and answer calls all the same.
var GitLead = []string{"get_git_repositories", "get_git_remotes", "git_fetch"}

// declareToolsets declares the run-configuration and Git toolsets of the
// server's project.
func (x *IDE) declareToolsets(tb *toolkit.Toolbox) {
	dir := func() string {
		d, err := x.project("")
		if err != nil {
			return ""
		}
		return d
	}
	tb.DeclareToolset(toolkit.Toolset{Name: RunToolset, Description: "run configurations: list, restart, debug",
		Wanted: func() bool { d := dir(); return d != "" && hasRunConfigurations(d, x.opts.Getenv) }})
	tb.DeclareToolset(toolkit.Toolset{Name: GitToolset, Description: "Git: repositories, remotes, fetch, pull, push",
		Wanted: func() bool { d := dir(); return d != "" && inRepository(d) }, Lead: GitLead})
}

// hasRunConfigurations reports whether dir has a saved run
// configuration; the files are read only when one of them exists.
func hasRunConfigurations(dir string, getenv func(string) string) bool {
	for _, p := range []string{".idea/runConfigurations", ".run", ".idea/workspace.xml", ".vscode/launch.json"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
			return len(LoadRunConfigurations(dir, getenv).Configurations) > 0
		}
	}
	return false
}

// inRepository reports whether dir is in a Git working tree.
func inRepository(dir string) bool {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return true
		}
		if filepath.Dir(d) == d {
			return false
		}
	}
}
