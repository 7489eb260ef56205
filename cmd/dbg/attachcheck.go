package main

import (
	"fmt"
	"os"
	"os/user"
	"strconv"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/proc"
)

// checkProcess says in a sentence why dbg cannot attach to pid: it does
// not exist, or it is another user's (only root may debug those).
func checkProcess(pid int) error {
	if pid <= 0 || !proc.Exists(pid) {
		return fmt.Errorf("no process %d: it has exited or the pid is wrong (dbg attach alone lists your processes)", pid)
	}
	st, err := proc.ReadStatus(pid)
	if err != nil {
		return fmt.Errorf("cannot read process %d: %w", pid, err)
	}
	if euid := os.Geteuid(); euid != 0 && st.UID != euid {
		owner := strconv.Itoa(st.UID)
		if u, err := user.LookupId(owner); err == nil {
			owner = u.Username + " (uid " + owner + ")"
		}
		return fmt.Errorf("process %d belongs to user %s: dbg attaches only to your own processes (run dbg as that user, or as root)", pid, owner)
	}
	return nil
}

// checkKind refuses a detected native language for a binary without
// debug info: dbg could neither tell its language nor show its source.
func checkKind(reg *adapters.Registry, pid int, lang string) error {
	if !isNative(reg, lang) {
		return nil
	}
	exe, err := proc.Exe(pid)
	if err != nil || hasDebugInfo(exe) {
		return nil
	}
	return fmt.Errorf("cannot tell what kind of program process %d is (%s): it is not a Go, Python, Node, Java, Ruby, .NET or Dart program, and a native binary without debug info; pass --language c, cpp or rust to attach anyway", pid, exe)
}

// isNative reports whether lang is a native language (see
// adapters.Traits.Native), whose programs dbg can only debug with their
// debug info.
func isNative(reg *adapters.Registry, lang string) bool {
	a, ok := reg.Lookup(lang)
	return ok && a.Traits().Native
}
