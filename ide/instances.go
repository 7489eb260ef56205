package ide

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// otherInstances finds processes dbg did not start that run the same
// program as cfg in the same working directory: an argument equal to
// cfg.Program (a main class, a script path) and /proc/PID/cwd equal to
// cfg.Cwd. Processes in the groups listed in ours are skipped. It reads
// /proc, so it finds nothing where there is none.
func otherInstances(cfg RunConfiguration, ours map[int]bool) []int {
	if cfg.Program == "" || cfg.Cwd == "" {
		return nil
	}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	want := []byte(cfg.Program)
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !bytes.Contains(b, want) {
			continue
		}
		match := false
		for _, arg := range bytes.Split(bytes.TrimRight(b, "\x00"), []byte{0}) {
			if bytes.Equal(arg, want) {
				match = true
				break
			}
		}
		if !match {
			continue
		}
		if cwd, err := os.Readlink(filepath.Join("/proc", e.Name(), "cwd")); err != nil || filepath.Clean(cwd) != filepath.Clean(cfg.Cwd) {
			continue
		}
		if pg := processGroup(pid); pg < 0 || ours[pg] || ours[pid] {
			continue
		}
		out = append(out, pid)
	}
	sort.Ints(out)
	return out
}

// processGroup reads a process's group id from /proc/PID/stat (0 when
// unknown). Zombies count as gone.
func processGroup(pid int) int {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 3 || f[0] == "Z" {
		return -1
	}
	pg, _ := strconv.Atoi(f[2])
	return pg
}
