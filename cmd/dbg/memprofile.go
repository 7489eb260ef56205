package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"syscall"
)

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
