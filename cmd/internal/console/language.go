package console

import (
	"os"
	"path/filepath"
	"strings"
)

// LanguageOfFile maps a program to its language: by extension, or for a
// directory by its build file (go.mod, Cargo.toml). "" means unknown.
func LanguageOfFile(p string) string {
	switch strings.ToLower(filepath.Ext(p)) {
	case ".go":
		return "go"
	case ".py":
		return "python"
	case ".js", ".mjs", ".cjs", ".ts":
		return "javascript"
	case ".java", ".jar":
		return "java"
	case ".c":
		return "c"
	case ".cc", ".cpp", ".cxx":
		return "cpp"
	case ".rs":
		return "rust"
	case ".rb":
		return "ruby"
	case ".cob", ".cbl":
		return "cobol"
	case ".mock":
		return "mock"
	}
	if st, err := os.Stat(p); err == nil && st.IsDir() {
		if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
			return "go"
		}
		if _, err := os.Stat(filepath.Join(p, "Cargo.toml")); err == nil {
			return "rust"
		}
	}
	return ""
}
