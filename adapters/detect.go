package adapters

import (
	"debug/buildinfo"
	"debug/elf"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/dbg-dev/dbg/proc"
)

// DetectLanguage guesses the language of a running process from its
// executable and command line (read through proc), for `dbg attach
// --pid`: first by the names the adapters declare ([Traits.Commands]),
// then by the marks of a compiled program ([Traits.Binary]).
func (r *Registry) DetectLanguage(pid int) (string, error) {
	exe, err := proc.Exe(pid)
	if err != nil {
		if !proc.Exists(pid) {
			return "", fmt.Errorf("no process %d", pid)
		}
		return "", fmt.Errorf("cannot read the executable of process %d: %w", pid, err)
	}
	args, _ := proc.Cmdline(pid)
	if a, ok := r.forCommand(filepath.Base(exe), args); ok {
		return a.Language(), nil
	}
	e := &Executable{Path: exe}
	defer e.close()
	if a, ok := r.forBinary(e); ok {
		return a.Language(), nil
	}
	return "", fmt.Errorf("cannot tell the language of process %d (%s); pass --language", pid, exe)
}

// forCommand finds the adapter whose Commands name the executable, then
// the one whose Commands name the first argument's ending.
func (r *Registry) forCommand(exe string, args []string) (Adapter, bool) {
	name := strings.ToLower(exe)
	if a, ok := r.find(func(t Traits) bool {
		return slices.ContainsFunc(t.Commands, func(c string) bool {
			if strings.HasPrefix(c, "*.") {
				return false
			}
			if prefix, ok := strings.CutSuffix(c, "*"); ok {
				return strings.HasPrefix(name, prefix)
			}
			return name == c
		})
	}); ok {
		return a, true
	}
	if len(args) == 0 {
		return nil, false
	}
	return r.find(func(t Traits) bool {
		return slices.ContainsFunc(t.Commands, func(c string) bool {
			suffix, ok := strings.CutPrefix(c, "*")
			return ok && strings.HasPrefix(suffix, ".") && strings.HasSuffix(args[0], suffix)
		})
	})
}

// forBinary asks the adapters that recognise compiled programs, the
// highest BinaryRank first.
func (r *Registry) forBinary(e *Executable) (Adapter, bool) {
	var cands []Adapter
	for _, a := range r.All() {
		if a.Traits().Binary != nil {
			cands = append(cands, a)
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].Traits().BinaryRank > cands[j].Traits().BinaryRank })
	for _, a := range cands {
		if a.Traits().Binary(e) {
			return a, true
		}
	}
	return nil, false
}

// Executable is a program file as [Traits.Binary] looks at it. Its ELF
// symbols and imported libraries are read once, on first use, for every
// adapter that asks; it is safe for concurrent use.
type Executable struct {
	Path string

	once sync.Once
	elf  *elf.File
	syms []string
	libs []string
}

func (e *Executable) load() {
	e.once.Do(func() {
		f, err := elf.Open(e.Path)
		if err != nil {
			return
		}
		e.elf = f
		syms, err := f.Symbols()
		if err != nil {
			syms, _ = f.DynamicSymbols()
		}
		for _, s := range syms {
			e.syms = append(e.syms, s.Name)
		}
		e.libs, _ = f.ImportedLibraries()
	})
}

func (e *Executable) close() {
	if e.elf != nil {
		_ = e.elf.Close()
	}
}

// ELF reports whether the file is an ELF executable.
func (e *Executable) ELF() bool {
	e.load()
	return e.elf != nil
}

// GoBuild reports whether the file carries Go's build information.
func (e *Executable) GoBuild() bool {
	_, err := buildinfo.ReadFile(e.Path)
	return err == nil
}

// Symbol reports whether a symbol's name satisfies match.
func (e *Executable) Symbol(match func(name string) bool) bool {
	e.load()
	return slices.ContainsFunc(e.syms, match)
}

// Imports reports whether the file links a shared library whose name
// starts with one of prefixes ("libstdc++").
func (e *Executable) Imports(prefixes ...string) bool {
	e.load()
	return slices.ContainsFunc(e.libs, func(lib string) bool {
		return slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(lib, p) })
	})
}
