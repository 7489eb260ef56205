package adapters

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"sort"
)

// Tool declares an outside program an adapter runs (netcoredbg, rdbg, the
// Dart SDK, LLDB): the executables that provide it, how its version is
// read and how it is installed. An adapter declares its Tool once, and
// finds, describes and installs it through the methods here, so the
// lookup (PATH, then the per-user bin folders), the version probe, the
// not-found error and the install hint are written once for all of them.
type Tool struct {
	// Language is the adapter's language; the install hint is
	// `dbg adapters install <Language>`.
	Language string
	// What names the program in the not-found error ("netcoredbg").
	What string
	// Names are the executable names, looked up in order.
	Names []string
	// Versioned, when set, matches the names of versioned installs
	// (Debian's rdbg3.1) looked for in PATH after Names; the greatest
	// name wins.
	Versioned *regexp.Regexp
	// VersionArgs make the program print its version ("--version"); the
	// first dotted number of the output is the version. Nil: no version.
	VersionArgs []string
	// Install are the pinned commands that install the program, each an
	// argv, run in order by `dbg adapters install`.
	Install [][]string
}

// InstallHint is the command that installs the tool.
func (t Tool) InstallHint() string { return "dbg adapters install " + t.Language }

// NotFound is the error of the missing tool.
func (t Tool) NotFound() *NotFoundError {
	return &NotFoundError{Language: t.Language, What: t.What, Install: t.InstallHint()}
}

// Path finds the tool: the first of Names in PATH or the user bin
// folders, else the greatest Versioned name in PATH. The error is a
// [NotFoundError].
func (t Tool) Path() (string, error) {
	for _, name := range t.Names {
		if p, err := lookPath(name); err == nil {
			return p, nil
		}
	}
	if t.Versioned != nil {
		if found := execsInPath(t.Versioned); len(found) > 0 {
			sort.SliceStable(found, func(i, j int) bool { return filepath.Base(found[i]) > filepath.Base(found[j]) })
			return found[0], nil
		}
	}
	return "", t.NotFound()
}

// Version asks the tool at path for its version ("" when it has no
// VersionArgs or does not answer within five seconds).
func (t Tool) Version(ctx context.Context, path string) string {
	if t.VersionArgs == nil {
		return ""
	}
	return commandVersion(ctx, append([]string{path}, t.VersionArgs...)...)
}

// Describe completes info, an adapter's description, with what is found
// on this machine: the install hint, and the path and version of the
// tool. A missing tool is not Found and its Note is the not-found error;
// a found one keeps info.Note.
func (t Tool) Describe(ctx context.Context, info Info) Info {
	info.InstallCommand = t.InstallHint()
	p, err := t.Path()
	if err != nil {
		info.Found, info.Note = false, err.Error()
		return info
	}
	info.Found, info.Path = true, p
	info.Version = t.Version(ctx, p)
	return info
}

// InstallCommands returns the tool's install commands (see [Installer]).
func (t Tool) InstallCommands() [][]string { return t.Install }

// execsInPath returns the executables in PATH whose names match re, in
// PATH order; of several with one name, the first.
func execsInPath(re *regexp.Regexp) []string {
	var found []string
	seen := map[string]bool{}
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if dir == "" {
			continue
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			p := filepath.Join(dir, e.Name())
			if seen[e.Name()] || !re.MatchString(e.Name()) || !isExec(p) {
				continue
			}
			seen[e.Name()] = true
			found = append(found, p)
		}
	}
	return found
}

// isExec reports whether p is an executable regular file.
func isExec(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
}
