package debugtools

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/dbg-dev/dbg/proc"
	"github.com/dbg-dev/dbg/safefs"
)

// maxPerfFile bounds an hsperfdata file (HotSpot's are 32 KiB by default).
const maxPerfFile = 4 << 20

// readPerfFor reads the hsperfdata file of the JVM pid (nspid inside its
// pid namespace), run by uid, through its root, which is the target's
// mount namespace for a JVM in a container. Anyone can make a folder in
// /tmp, so only hsperfdata_<the JVM user's name>/<nspid> is read, and
// only when the folder and the file are owned by uid and are no
// symbolic links: a copy another user planted, claiming another Java
// home or other options, is never believed.
func readPerfFor(pid, nspid, uid int) (*PerfData, string) {
	root := proc.Path(pid, "root")
	dirs := []string{filepath.Join(root, "tmp")}
	if nspid != pid {
		dirs = append(dirs, "/tmp") // a JVM sharing the host's /tmp
	}
	for _, tmp := range dirs {
		for _, dir := range perfDirs(tmp, userName(root, uid)) {
			fi, err := os.Lstat(dir)
			if err != nil || !fi.IsDir() || safefs.Owner(fi) != uid {
				continue
			}
			f := filepath.Join(dir, strconv.Itoa(nspid))
			b, err := safefs.ReadOwned(f, uid, maxPerfFile)
			if err != nil {
				continue
			}
			if pd, err := ParsePerfData(b); err == nil {
				return pd, f
			}
		}
	}
	return nil, ""
}

// perfDirs are the hsperfdata folders of user in tmp: the one of that
// name, or, when the user has no name there, every hsperfdata folder
// (their owner is checked).
func perfDirs(tmp, user string) []string {
	if user != "" {
		return []string{filepath.Join(tmp, "hsperfdata_"+user)}
	}
	m, _ := filepath.Glob(filepath.Join(tmp, "hsperfdata_*"))
	return m
}

// userName is the name of uid in the passwd file under root (the
// target's own, for a JVM in a container), "" when it has none.
func userName(root string, uid int) string {
	b, err := os.ReadFile(filepath.Join(root, "etc", "passwd"))
	if err != nil {
		return ""
	}
	want := strconv.Itoa(uid)
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Split(sc.Text(), ":")
		if len(f) > 2 && f[2] == want && f[0] != "" {
			return f[0]
		}
	}
	return ""
}

// javaHomeOf is the Java home of the JVM pid, from its executable
// (/proc/PID/exe, <home>/bin/java), as the target sees it; "" when the
// executable is not a java launcher.
func javaHomeOf(pid int) string {
	exe, err := proc.Exe(pid)
	if err != nil || !strings.HasSuffix(exe, "/bin/java") {
		return ""
	}
	return strings.TrimSuffix(exe, "/bin/java")
}
