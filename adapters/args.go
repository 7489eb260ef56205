package adapters

import (
	"os"
	"path/filepath"
	"strings"
)

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
