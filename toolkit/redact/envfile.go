package redact

import (
	"path/filepath"
	"strings"
)

// EnvFile reports whether the file at path holds environment values or
// credentials line by line (.env, .env.local, prod.env, .envrc, .npmrc,
// .pypirc, .git-credentials, AWS's credentials): a tool showing its lines
// redacts each with [String].
func EnvFile(path string) bool {
	base := strings.ToLower(filepath.Base(path))
	switch base {
	case ".env", ".envrc", ".npmrc", ".pypirc", ".git-credentials", "credentials":
		return true
	}
	return strings.HasPrefix(base, ".env.") || strings.HasSuffix(base, ".env")
}
