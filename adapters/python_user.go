package adapters

import (
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"strconv"
	"strings"
	"syscall"

	"github.com/dbg-dev/dbg/proc"
)

// Attaching by pid runs the target's own interpreter: to ask it about
// itself, to start debugpy's adapter and injector, and in the throwaway
// process of the injection check. That interpreter runs its site-packages'
// .pth files and sitecustomize at start, and its executable may be its
// user's own file (a pyenv or venv in their home). Run as root, any of
// these would run that user's code as root. So when the target is another
// user's, dbg runs every one of them as that user: the uid, gid and
// groups of the target process, with that user's home. Only root can;
// any other user is refused before anything runs.

// pyUser is the user dbg acts as on an attach target that is not its
// own user's. A nil *pyUser is dbg's own user: its methods leave commands
// as they are.
type pyUser struct {
	UID, GID int
	Groups   []uint32
	Home     string
}

// targetUser says as whom dbg acts on process pid: nil when the process
// is dbg's own user's, the process's user when dbg runs as root, and an
// [AttachRefusedError] when neither.
func targetUser(pid int) (*pyUser, error) {
	st, err := proc.ReadStatus(pid)
	if err != nil {
		return nil, &AttachRefusedError{PID: pid, Reason: fmt.Sprintf("cannot read process %d's owner: %v", pid, err),
			Hint: "check the pid, and that dbg runs as the process's user or as root"}
	}
	if st.UID == os.Geteuid() {
		return nil, nil
	}
	if os.Geteuid() != 0 {
		return nil, &AttachRefusedError{PID: pid,
			Reason: fmt.Sprintf("process %d belongs to uid %d and dbg runs as uid %d: only root may attach to another user's process", pid, st.UID, os.Geteuid()),
			Hint:   "run dbg as the process's user"}
	}
	u := &pyUser{UID: st.UID, GID: st.GID, Groups: procGroups(pid), Home: "/"}
	if pw, err := user.LookupId(strconv.Itoa(st.UID)); err == nil && pw.HomeDir != "" {
		u.Home = pw.HomeDir
	}
	return u, nil
}

// procGroups reads the supplementary groups of process pid.
func procGroups(pid int) []uint32 {
	b, err := os.ReadFile(proc.Path(pid, "status"))
	if err != nil {
		return nil
	}
	var out []uint32
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "Groups:"); ok {
			for _, f := range strings.Fields(v) {
				if g, err := strconv.ParseUint(f, 10, 32); err == nil {
					out = append(out, uint32(g))
				}
			}
		}
	}
	return out
}

// apply makes cmd run as u, in u's home (its environment's HOME too), so
// that it reads u's user site and nothing of dbg's user.
func (u *pyUser) apply(cmd *exec.Cmd) {
	if u == nil {
		return
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Credential = &syscall.Credential{Uid: uint32(u.UID), Gid: uint32(u.GID), Groups: u.Groups}
	cmd.Dir = "/"
	env := cmd.Env
	if env == nil {
		env = os.Environ()
	}
	cmd.Env = append(withoutEnv(env, "HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME"), "HOME="+u.Home)
}

// key names u in a cache key: what a process run as u reports may differ
// from what dbg's own user's does ("" for dbg's own user).
func (u *pyUser) key() string {
	if u == nil {
		return ""
	}
	return fmt.Sprintf("uid=%d gid=%d", u.UID, u.GID)
}
