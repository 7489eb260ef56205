package safefs

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// HandOff gives dir, a folder dbg has just made (see [NewDir]), to uid
// and gid, so a process of that user can read what dbg put in it and
// write its answers there. The change goes through the folder's
// descriptor, opened without following a symbolic link, so it never
// lands on anything else; nothing happens when uid is this user.
func HandOff(dir string, uid, gid int) error {
	if uid == os.Geteuid() {
		return nil
	}
	fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
	if err != nil {
		return &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	defer syscall.Close(fd)
	if err := syscall.Fchown(fd, uid, gid); err != nil {
		return &fs.PathError{Op: "fchown", Path: dir, Err: err}
	}
	return nil
}

// Trusted checks a program dbg is about to run: it and every folder
// above it, as resolved, must be owned by root or this user and not
// writable by others (a sticky folder aside), so no other user can have
// put their code there. It returns an error wrapping [ErrUnsafe] naming
// what another user can change.
func Trusted(program string) error {
	real, err := filepath.EvalSymlinks(program)
	if err != nil {
		return err
	}
	fi, err := os.Stat(real)
	if err != nil {
		return err
	}
	if o := Owner(fi); o != 0 && o != os.Geteuid() {
		return unsafe(real, "owned by uid %d, neither root nor this user (uid %d)", o, os.Geteuid())
	}
	if m := fi.Mode().Perm(); m&0o002 != 0 || (m&0o020 != 0 && group(fi) != os.Getegid() && group(fi) != 0) {
		return unsafe(real, "writable by other users (mode %v)", m)
	}
	for p := filepath.Dir(real); ; p = filepath.Dir(p) {
		if err := checkParent(p); err != nil {
			return err
		}
		if p == filepath.Dir(p) {
			return nil
		}
	}
}
