package proc

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Path is the path of a file under /proc/PID, for the files callers open
// or walk themselves ("maps", "root", "cwd"). It is the one place that
// spells /proc/PID.
func Path(pid int, name string) string {
	return "/proc/" + strconv.Itoa(pid) + "/" + name
}

// Exists reports whether /proc has an entry for pid (zombies included).
func Exists(pid int) bool {
	if pid <= 0 {
		return false
	}
	_, err := os.Stat("/proc/" + strconv.Itoa(pid))
	return err == nil
}

// Cmdline returns pid's command line, one string per argument (nil for a
// kernel thread, whose command line is empty).
func Cmdline(pid int) ([]string, error) {
	b, err := readFile(pid, "cmdline")
	return nulList(b), err
}

// Environ returns pid's environment as it was at exec, as KEY=value
// strings.
func Environ(pid int) ([]string, error) {
	b, err := readFile(pid, "environ")
	return nulList(b), err
}

// nulList splits NUL-terminated strings.
func nulList(b []byte) []string {
	s := strings.TrimRight(string(b), "\x00")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\x00")
}

// Comm returns pid's command name (the executable's base name, cut to 15
// bytes by the kernel).
func Comm(pid int) (string, error) {
	b, err := readFile(pid, "comm")
	return strings.TrimSpace(string(b)), err
}

// Exe returns the path of pid's executable.
func Exe(pid int) (string, error) { return link(pid, "exe") }

// Cwd returns pid's working directory.
func Cwd(pid int) (string, error) { return link(pid, "cwd") }

// MountNamespace names pid's mount namespace ("mnt:[4026531841]"); two
// processes with the same name see the same file system.
func MountNamespace(pid int) (string, error) { return link(pid, "ns/mnt") }

func link(pid int, name string) (string, error) {
	if pid <= 0 {
		return "", ErrNoProcess
	}
	return os.Readlink(Path(pid, name))
}

// PIDs lists every process /proc shows, in increasing order (nil without
// /proc).
func PIDs() []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range ents {
		if pid, err := strconv.Atoi(e.Name()); err == nil && pid > 0 {
			out = append(out, pid)
		}
	}
	sort.Ints(out)
	return out
}

// BootID identifies this boot of the machine ("" without /proc): start
// times count from the boot, so they compare only under one boot id.
func BootID() string {
	b, _ := os.ReadFile("/proc/sys/kernel/random/boot_id")
	return strings.TrimSpace(string(b))
}

// Sysctl reads a kernel setting by its dotted name ("fs.protected_symlinks"),
// without its trailing newline.
func Sysctl(name string) (string, error) {
	b, err := os.ReadFile(filepath.Join(append([]string{"/proc/sys"}, strings.Split(name, ".")...)...))
	return strings.TrimSpace(string(b)), err
}
