package adapters

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"time"
)

// ErrNotFound is wrapped by errors about a missing adapter executable.
var ErrNotFound = errors.New("adapter not found")

// NotFoundError says which adapter is missing and how to install it.
type NotFoundError struct {
	Language string
	What     string // what was looked for
	Install  string // the command that installs it
}

func (e *NotFoundError) Error() string {
	return fmt.Sprintf("%s debugging needs %s, which is not installed; install it with `%s`", e.Language, e.What, e.Install)
}

// Unwrap makes errors.Is(err, ErrNotFound) true.
func (e *NotFoundError) Unwrap() error { return ErrNotFound }

// lookPath finds an executable in PATH and then in the usual per-user
// install folders (go install, pip --user, gem, cargo), which are often
// missing from the PATH of MCP clients.
func lookPath(name string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	var dirs []string
	if gobin := os.Getenv("GOBIN"); gobin != "" {
		dirs = append(dirs, gobin)
	}
	if gopath := os.Getenv("GOPATH"); gopath != "" {
		for _, p := range filepath.SplitList(gopath) {
			dirs = append(dirs, filepath.Join(p, "bin"))
		}
	}
	if home, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(home, "go", "bin"), filepath.Join(home, ".local", "bin"), filepath.Join(home, ".cargo", "bin"))
	}
	for _, d := range dirs {
		if p := filepath.Join(d, name); isExec(p) {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: %w", name, exec.ErrNotFound)
}

var versionRE = regexp.MustCompile(`\d+\.\d+(\.\d+)?`)

// commandVersion runs a version command (bounded to 5s) and returns the
// first version-looking token of its output.
func commandVersion(ctx context.Context, argv ...string) string {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, argv[0], argv[1:]...).CombinedOutput()
	if err != nil && len(out) == 0 {
		return ""
	}
	return versionRE.FindString(string(out))
}
