package adapters

import (
	"debug/buildinfo"
	"debug/elf"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/dbg-dev/dbg/proc"
)

// DetectLanguage guesses the language of a running process from its
// executable and command line (read from /proc), for `dbg attach --pid`.
func DetectLanguage(pid int) (string, error) {
	exe, err := proc.Exe(pid)
	if err != nil {
		if !proc.Exists(pid) {
			return "", fmt.Errorf("no process %d", pid)
		}
		return "", fmt.Errorf("cannot read the executable of process %d: %w", pid, err)
	}
	args, _ := proc.Cmdline(pid)
	if lang := languageOfCommand(filepath.Base(exe), args); lang != "" {
		return lang, nil
	}
	if _, err := buildinfo.ReadFile(exe); err == nil {
		return "go", nil
	}
	if f, err := elf.Open(exe); err == nil {
		defer f.Close()
		return nativeLanguage(f), nil
	}
	return "", fmt.Errorf("cannot tell the language of process %d (%s); pass --language", pid, exe)
}

// languageOfCommand recognises interpreters and VMs by name.
func languageOfCommand(exe string, args []string) string {
	name := strings.ToLower(exe)
	switch {
	case strings.HasPrefix(name, "python"), strings.HasPrefix(name, "pypy"):
		return "python"
	case name == "java" || name == "javaw":
		return "java"
	case name == "node" || strings.HasPrefix(name, "nodejs"):
		return "javascript"
	case strings.HasPrefix(name, "ruby"):
		return "ruby"
	case name == "dotnet":
		return "dotnet"
	case name == "dart":
		return "dart"
	}
	if len(args) > 0 && strings.HasSuffix(args[0], ".py") {
		return "python"
	}
	return ""
}

// nativeLanguage tells Rust, C++ and C binaries apart by their symbols.
func nativeLanguage(f *elf.File) string {
	syms, err := f.Symbols()
	if err != nil {
		syms, _ = f.DynamicSymbols()
	}
	cpp := false
	for _, s := range syms {
		switch {
		case strings.Contains(s.Name, "rust_begin_unwind"), strings.HasPrefix(s.Name, "_ZN3std2rt"):
			return "rust"
		case strings.HasPrefix(s.Name, "_ZNSt"), strings.HasPrefix(s.Name, "_ZSt"), strings.Contains(s.Name, "GLIBCXX"):
			cpp = true
		}
	}
	for _, lib := range importedLibs(f) {
		if strings.HasPrefix(lib, "libstdc++") || strings.HasPrefix(lib, "libc++") {
			cpp = true
		}
		if strings.HasPrefix(lib, "libcob") {
			return "cobol"
		}
	}
	if cpp {
		return "cpp"
	}
	return "c"
}

func importedLibs(f *elf.File) []string {
	libs, _ := f.ImportedLibraries()
	return libs
}
