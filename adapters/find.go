package adapters

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
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

// merge copies extra into args (extra wins) and returns args.
func merge(args map[string]any, extra map[string]any) map[string]any {
	for k, v := range extra {
		args[k] = v
	}
	return args
}

// nonNil returns s, or an empty slice for nil, so JSON says [] not null.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// envList turns an env map into KEY=VALUE pairs appended to the current
// environment.
func envList(env map[string]string) []string {
	out := os.Environ()
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	return out
}

// absPath makes p absolute relative to the process working directory.
func absPath(p string) string {
	if p == "" {
		return ""
	}
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// hostOr returns host or 127.0.0.1.
func hostOr(host string) string {
	if strings.TrimSpace(host) == "" {
		return "127.0.0.1"
	}
	return host
}
