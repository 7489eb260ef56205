package safefs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// ErrUnsafe is wrapped by every refusal of a folder or file that another
// user could have made or could change.
var ErrUnsafe = errors.New("not safe on a shared machine")

// UnsafeError says which path was refused and why.
type UnsafeError struct {
	Path   string
	Reason string
}

func (e *UnsafeError) Error() string {
	return fmt.Sprintf("%s is %s: %s", e.Path, ErrUnsafe, e.Reason)
}

// Unwrap makes errors.Is(err, ErrUnsafe) hold.
func (e *UnsafeError) Unwrap() error { return ErrUnsafe }

func unsafe(path, format string, args ...any) error {
	return &UnsafeError{Path: path, Reason: fmt.Sprintf(format, args...)}
}

// Owner returns the uid owning fi (-1 when the system does not say).
func Owner(fi fs.FileInfo) int {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int(st.Uid)
	}
	return -1
}

// group returns the gid of fi (-1 when the system does not say).
func group(fi fs.FileInfo) int {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int(st.Gid)
	}
	return -1
}

// othersMayWrite reports whether users other than the owner may add or
// replace files in the folder fi: it is writable by everyone without the
// sticky bit, or writable by a group that is neither this user's own
// (the private group of most systems' users, umask 002) nor root's.
func othersMayWrite(fi fs.FileInfo) bool {
	m := fi.Mode()
	if m.Perm()&0o002 != 0 && m&fs.ModeSticky == 0 {
		return true
	}
	g := group(fi)
	return m.Perm()&0o020 != 0 && g != os.Getegid() && g != 0
}

// Dir makes dir, and the parents it lacks, with mode 0700, and checks
// that it is a private folder of this user (see the package doc). A
// folder of this user that others may read is tightened to 0700; one
// they may write into (/tmp itself) is refused. It
// returns an error wrapping [ErrUnsafe] when the folder or one of its
// parents is another user's, is writable by others, or dir is a
// symbolic link; any other error is the file system's (a parent that is
// a file, a full disk).
func Dir(dir string) error {
	dir, err := absParentsChecked(dir)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	return checkPrivateDir(dir)
}

// Check checks dir as [Dir] does, without making anything: the parents
// that exist, and dir itself when it exists (a looser mode that only lets
// others read is tightened). A folder that does not exist yet passes; Dir
// makes it when it is needed.
func Check(dir string) error {
	dir, err := absParentsChecked(dir)
	if err != nil {
		return err
	}
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return checkPrivateDir(dir)
}

// absParentsChecked is dir made absolute, once its parents are checked.
func absParentsChecked(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	return dir, checkParents(dir)
}

// checkPrivateDir checks dir itself: a real directory of this user,
// tightened to 0700 when it is looser.
func checkPrivateDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return unsafe(dir, "a symbolic link, not a folder")
	case !fi.IsDir():
		return unsafe(dir, "not a folder")
	case Owner(fi) != os.Geteuid():
		return unsafe(dir, "owned by uid %d, not by this user (uid %d)", Owner(fi), os.Geteuid())
	}
	if fi.Mode().Perm()&0o002 != 0 || fi.Mode()&fs.ModeSticky != 0 || othersMayWrite(fi) {
		// Others may have put files in it: a shared folder is no private
		// one, and tightening it would not undo what they did.
		return unsafe(dir, "mode %v lets other users add and replace files in it", fi.Mode())
	}
	if fi.Mode().Perm()&0o077 != 0 || fi.Mode()&(fs.ModeSetuid|fs.ModeSetgid) != 0 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return unsafe(dir, "mode %v and it cannot be made 0700: %v", fi.Mode().Perm(), err)
		}
	}
	return nil
}

// checkParents checks every folder above dir, both as written (a
// symbolic link among them must be root's or this user's) and as
// resolved: each must be owned by root or this user, and writable by
// nobody else unless it is sticky (/tmp), where others can add names but
// not replace this user's. Parents that do not exist yet are skipped:
// Dir makes them.
func checkParents(dir string) error {
	for p := filepath.Dir(dir); ; p = filepath.Dir(p) {
		if err := checkParent(p); err != nil {
			return err
		}
		if p == filepath.Dir(p) {
			break
		}
	}
	real, err := existingReal(filepath.Dir(dir))
	if err != nil {
		return err
	}
	for p := real; ; p = filepath.Dir(p) {
		if err := checkParent(p); err != nil {
			return err
		}
		if p == filepath.Dir(p) {
			return nil
		}
	}
}

// checkParent checks one folder above a private one (see checkParents).
func checkParent(p string) error {
	fi, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if o := Owner(fi); o != 0 && o != os.Geteuid() {
		return unsafe(p, "owned by uid %d, neither root nor this user (uid %d), so it can replace what lies below it", o, os.Geteuid())
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return nil // its target is checked as resolved
	}
	if fi.IsDir() && othersMayWrite(fi) {
		return unsafe(p, "writable by other users (mode %v, group %d) without the sticky bit", fi.Mode().Perm(), group(fi))
	}
	return nil
}

// existingReal resolves the symbolic links of the longest existing
// prefix of p, and appends the rest as written.
func existingReal(p string) (string, error) {
	rest := ""
	for {
		r, err := filepath.EvalSymlinks(p)
		if err == nil {
			return filepath.Join(r, rest), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(p)
		if parent == p {
			return "", err
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}
