package console

import (
	"os"
	"path/filepath"
	"strings"
)

// systemParts mark files of runtimes, libraries and toolchains rather
// than the user's code.
var systemParts = []string{
	"/usr/", "/lib/", "/lib64/", "/opt/", "/nix/store/",
	"/pkg/mod/", "/site-packages/", "/dist-packages/", "/.pyenv/versions/", "/.rustup/", "/rustc/",
	"/node_modules/", "/go/src/runtime/", "/go/src/internal/", "/go/src/syscall/",
}

// isUserFile reports whether file is the user's source: it exists, and
// is not under a runtime's, library's or toolchain's directory.
func isUserFile(file string) bool {
	if file == "" || !filepath.IsAbs(file) {
		return false
	}
	for _, part := range systemParts {
		if strings.Contains(file, part) {
			return false
		}
	}
	_, err := os.Stat(file)
	return err == nil
}
