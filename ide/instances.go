package ide

import (
	"os"
	"path/filepath"
	"slices"

	"github.com/dbg-dev/dbg/proc"
)

// otherInstances finds processes dbg did not start that run the same
// program as cfg in the same working directory: an argument equal to
// cfg.Program (a main class, a script path) and a working directory equal
// to cfg.Cwd. Processes in the groups listed in ours are skipped. It reads
// /proc, so it finds nothing where there is none.
func otherInstances(cfg RunConfiguration, ours map[int]bool) []int {
	if cfg.Program == "" || cfg.Cwd == "" {
		return nil
	}
	parent := map[int]int{}
	var found []int
	for _, pid := range proc.PIDs() {
		if pid == os.Getpid() {
			continue
		}
		args, err := proc.Cmdline(pid)
		if err != nil || !slices.Contains(args, cfg.Program) {
			continue
		}
		if cwd, err := proc.Cwd(pid); err != nil || filepath.Clean(cwd) != filepath.Clean(cfg.Cwd) {
			continue
		}
		st, err := proc.ReadStat(pid)
		if err != nil || st.State == 'Z' || ours[st.PGID] || ours[pid] {
			continue
		}
		parent[pid] = st.PPID
		found = append(found, pid)
	}
	// A fork of an instance (a shell's child before it runs its command)
	// is part of that instance, not one more.
	var out []int
	for _, pid := range found {
		if _, forked := parent[parent[pid]]; !forked {
			out = append(out, pid)
		}
	}
	return out
}
