package main

import (
	"debug/elf"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/dbg-dev/dbg/proc"
)

// Where dbg's memory goes (bench/memory_bench_test.go): at a Python
// session's first stop, about 8 MB are anonymous (by runtime/metrics: 2
// MB of live objects, 4 MB of heap spans not yet reused or released, 3 MB
// of the runtime's metadata, stacks) and 13 MB are pages of the
// executable; a start-up alone maps 17 MB of those.

// tuneGC collects when the heap has doubled (GOGC=100) unless GOGC says
// otherwise. dbg's live heap is about 1 MB while sessions are paused, and
// each MCP call allocates some 300 KB (most of it the go-sdk's 32 KB
// decoding buffers, a few per message): at GOGC=50 the heap's 2 MB goal
// made a collection every two or three steps, and each one, on a loaded
// machine, held a step up by milliseconds (bench/results/spine.md). The
// 4 MB goal of GOGC=100 costs about 1 MB of resident memory after a run
// of steps and nothing at a session's first stop.
func tuneGC(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(100)
	}
}

// heapProfileEnv names a file to which `dbg mcp` writes a heap profile
// (allocations since start, and what is live) when its client
// disconnects: bench/memory_bench_test.go reads it to tell where the
// server's memory goes. The file must not exist.
const heapProfileEnv = "DBG_HEAPPROFILE"

// writeHeapProfile writes the heap profile to path ("": nothing).
func writeHeapProfile(path string) error {
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return fmt.Errorf("%s: %w", heapProfileEnv, err)
	}
	runtime.GC() // the live figures are those of the last GC
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		_ = f.Close()
		return fmt.Errorf("%s: %w", heapProfileEnv, err)
	}
	return f.Close()
}

// trimStartupPages hands back to the system, once the server is built,
// what its start-up used and the server does not: the heap freed since
// (the go runtime would return it only over minutes), and the pages of
// its own executable's code and read-only data that package
// initialization and the tools' schemas mapped. Those stay in the page
// cache, and the server maps again, cheaply, the ones it runs later.
// Only the read-only mappings of the executable are dropped; its
// writable data, the heap and the stacks are not.
func trimStartupPages() {
	debug.FreeOSMemory()
	exe, err := os.Executable()
	if err != nil {
		return
	}
	ms, err := proc.Mappings(os.Getpid())
	if err != nil {
		return
	}
	// Read-only data of a binary with a RELRO segment (a PIE build) holds
	// what the dynamic loader wrote there: dropping it would bring back
	// the file's bytes. Only code is dropped then.
	rodata := !hasRelro(exe)
	for _, m := range ms {
		if m.Path != exe || (m.Perms != "r-xp" && (m.Perms != "r--p" || !rodata)) {
			continue
		}
		// A raw madvise: the range is no Go memory, and no Go value points
		// into it.
		_, _, _ = unix.Syscall(unix.SYS_MADVISE, uintptr(m.Start), uintptr(m.End-m.Start), unix.MADV_DONTNEED)
	}
}

// hasRelro reports whether the executable at path has a PT_GNU_RELRO
// segment, or cannot be read (then it is taken to have one).
func hasRelro(path string) bool {
	f, err := elf.Open(path)
	if err != nil {
		return true
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_GNU_RELRO {
			return true
		}
	}
	return false
}
