package bench

// Where the memory of one debug session goes: a `dbg mcp` server (warm
// pool on, as by default) runs one session of the language to its first
// stop, and the benchmark reads the resident memory of dbg itself (split
// into anonymous memory and pages of its executable) and of its whole
// process tree (adapter, helpers, debuggee); then it closes the session
// and reads the tree again, which now holds the idle adapter the warm pool
// keeps for the next session:
//
//	go test -run XXX -bench SessionMemory -benchtime 3x ./bench/
//
// With DBG_BENCH_HEAPPROFILE set to a folder, each server writes its heap
// profile there (DBG_HEAPPROFILE), to read with
// `go tool pprof -sample_index=inuse_space FILE`. bench/peer.sh gives the
// same tree figure beside mcp-debugger's, as a ratio.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/proc"
)

// residentKB reads the VmRSS, RssAnon and RssFile lines of a process's
// status, in KiB.
func residentKB(b *testing.B, pid int) (rss, anon, file float64) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		n, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
		switch k {
		case "VmRSS":
			rss = n
		case "RssAnon":
			anon = n
		case "RssFile":
			file = n
		}
	}
	return rss, anon, file
}

// treeMB is the resident memory of pid and its descendants, in MiB, and
// how many processes that is.
func treeMB(pid int) (float64, int) {
	var total int64
	n := 0
	for _, p := range append([]int{pid}, proc.Descendants(pid)...) {
		if r, err := proc.RSS(p); err == nil {
			total += r
			n++
		}
	}
	return float64(total) / (1 << 20), n
}

func BenchmarkSessionMemory(b *testing.B) {
	root := nativeRoot(b)
	cases := []struct{ lang, program string }{
		{"python", "testdata/python/loop.py"},
		{"go", "testdata/go/loop/main.go"},
	}
	for _, tc := range cases {
		b.Run(tc.lang, func(b *testing.B) {
			a, ok := adapters.Default().Lookup(tc.lang)
			if !ok || !a.Find(context.Background()).Found {
				b.Skipf("no %s adapter here", tc.lang)
			}
			program := filepath.Join(root, tc.program)
			line := nativeLine(b, program, "BREAK")
			var own, anon, file, tree, procs, idleTree []float64
			for i := 0; i < b.N; i++ {
				state := b.TempDir()
				env := []string{"DBG_STATE_DIR=" + state}
				if dir := os.Getenv("DBG_BENCH_HEAPPROFILE"); dir != "" {
					env = append(env, "DBG_HEAPPROFILE="+filepath.Join(dir, fmt.Sprintf("dbg-%s-%d-%d.pb", tc.lang, os.Getpid(), i)))
				}
				c := startMCPEnv(b, env...)
				id := c.call("create_debug_session", map[string]any{"language": tc.lang})["sessionId"].(string)
				c.call("set_breakpoint", map[string]any{"sessionId": id, "file": program, "line": line})
				if st := c.call("start_debugging", map[string]any{"sessionId": id, "scriptPath": program, "waitMs": 60000}); st["state"] != "paused" {
					b.Fatalf("not paused: %v", st)
				}
				pid := c.cmd.Process.Pid
				session := proc.Descendants(pid)
				r, an, f := residentKB(b, pid)
				t, n := treeMB(pid)
				if i == 0 {
					logTree(b, pid)
				}
				own, anon, file, tree, procs = append(own, r/1024), append(anon, an/1024), append(file, f/1024), append(tree, t), append(procs, float64(n))
				c.call("close_debug_session", map[string]any{"sessionId": id})
				// The close starts the idle adapter: wait for its record,
				// and for the session's processes to be gone.
				deadline := time.Now().Add(30 * time.Second)
				for {
					recs, _ := filepath.Glob(filepath.Join(state, "sessions", "*-warm-*.json"))
					if len(recs) == 1 && !slices.ContainsFunc(session, proc.Alive) {
						break
					}
					if time.Now().After(deadline) {
						b.Fatalf("no idle adapter alone 30 s after the close (records %v, children %v)", recs, proc.Descendants(pid))
					}
					time.Sleep(20 * time.Millisecond)
				}
				t, _ = treeMB(pid)
				idleTree = append(idleTree, t)
				_ = c.cs.Close()
			}
			b.ReportMetric(middle(own), "dbg-MB")
			b.ReportMetric(middle(anon), "dbg-anon-MB")
			b.ReportMetric(middle(file), "dbg-file-MB")
			b.ReportMetric(middle(tree), "tree-MB")
			b.ReportMetric(middle(procs), "procs")
			b.ReportMetric(middle(idleTree), "idle-tree-MB")
		})
	}
}

// logTree logs the resident memory of pid and of each descendant, with
// its command line, to say where a tree's memory goes (-v).
func logTree(b *testing.B, pid int) {
	for _, p := range append([]int{pid}, proc.Descendants(pid)...) {
		r, err := proc.RSS(p)
		if err != nil {
			continue
		}
		cmd, _ := os.ReadFile("/proc/" + strconv.Itoa(p) + "/cmdline")
		line := strings.Join(strings.Fields(strings.ReplaceAll(string(cmd), "\x00", " ")), " ")
		if len(line) > 100 {
			line = line[:100] + "…"
		}
		b.Logf("%6.1f MiB  %s", float64(r)/(1<<20), line)
	}
}

// middle is the median of vs.
func middle(vs []float64) float64 {
	s := append([]float64(nil), vs...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}
