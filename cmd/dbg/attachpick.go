package main

import (
	"debug/elf"
	"os"
	"sort"
	"strings"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/cmd/internal/console"
	"github.com/dbg-dev/dbg/proc"
)

// debuggableProcesses lists the processes of this user that dbg can
// attach to, with their language: interpreters and VMs by name, Go
// binaries, and native binaries that carry debug info. dbg itself and
// its ancestors (the shell) are left out.
func debuggableProcesses(reg *adapters.Registry) []console.Process {
	uid := os.Geteuid()
	skip := map[int]bool{}
	for pid := os.Getpid(); pid > 1; {
		skip[pid] = true
		st, err := proc.ReadStat(pid)
		if err != nil {
			break
		}
		pid = st.PPID
	}
	self, _ := os.Executable()
	var out []console.Process
	for _, pid := range proc.PIDs() {
		if skip[pid] {
			continue
		}
		if st, err := proc.ReadStatus(pid); err != nil || st.UID != uid {
			continue
		}
		exe, err := proc.Exe(pid)
		if err != nil || exe == self {
			continue
		}
		lang, err := reg.DetectLanguage(pid)
		if err != nil || isNative(reg, lang) && !hasDebugInfo(exe) {
			continue
		}
		args, _ := proc.Cmdline(pid)
		out = append(out, console.Process{PID: pid, Language: lang, Command: strings.Join(args, " ")})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].PID < out[j].PID })
	return out
}

// hasDebugInfo reports whether a native binary carries DWARF.
func hasDebugInfo(exe string) bool {
	f, err := elf.Open(exe)
	if err != nil {
		return false
	}
	defer f.Close()
	return f.Section(".debug_info") != nil
}
