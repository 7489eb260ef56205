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
	var out []int
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
		if pg := processGroup(pid); pg < 0 || ours[pg] || ours[pid] {
			continue
		}
		out = append(out, pid)
	}
	return out
}

// processGroup returns a process's group id (0 when unknown). Zombies
// count as gone (-1).
func processGroup(pid int) int {
	st, err := proc.ReadStat(pid)
	switch {
	case err != nil:
		return 0
	case st.State == 'Z':
		return -1
	}
	return st.PGID
}
