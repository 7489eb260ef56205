package safefs

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// newFlags open a file that must not exist yet, and never through a
// symbolic link.
const newFlags = os.O_CREATE | os.O_EXCL | syscall.O_NOFOLLOW | syscall.O_CLOEXEC

// randomName replaces the last * of pattern (or appends) with 24
// unpredictable hex digits.
func randomName(pattern string) string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	r := hex.EncodeToString(b[:])
	if i := strings.LastIndexByte(pattern, '*'); i >= 0 {
		return pattern[:i] + r + pattern[i+1:]
	}
	return pattern + r
}

// CreateTemp makes dir private (see [Dir]) and creates a new file in it,
// named by pattern with its last * replaced by an unpredictable string,
// opened for reading and writing, mode 0600. The caller removes it.
func CreateTemp(dir, pattern string) (*os.File, error) {
	if strings.ContainsRune(pattern, os.PathSeparator) {
		return nil, fmt.Errorf("safefs: pattern %q holds a path separator", pattern)
	}
	if err := Dir(dir); err != nil {
		return nil, err
	}
	for range 10 {
		f, err := os.OpenFile(filepath.Join(dir, randomName(pattern)), os.O_RDWR|newFlags, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, fmt.Errorf("safefs: no new name for %s in %s", pattern, dir)
}

// MkdirTemp makes dir private (see [Dir]) and a new folder in it, named
// by pattern with its last * replaced by an unpredictable string, mode
// 0700. The caller removes it.
func MkdirTemp(dir, pattern string) (string, error) {
	if err := Dir(dir); err != nil {
		return "", err
	}
	return NewDir(dir, pattern)
}

// NewDir makes a new folder, mode 0700, in parent, a folder that may be
// shared (a target's /tmp): named by pattern with its last * replaced by
// an unpredictable string, so that nobody can have made it first. It
// checks what it made (see [Dir]).
func NewDir(parent, pattern string) (string, error) {
	for range 10 {
		p := filepath.Join(parent, randomName(pattern))
		err := os.Mkdir(p, 0o700)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		if err := checkPrivateDir(p); err != nil {
			return "", err
		}
		return p, nil
	}
	return "", fmt.Errorf("safefs: no new name for %s in %s", pattern, parent)
}

// OpenNew creates the file path, which a protocol names (a trigger file),
// for writing with perm: it fails when anything is there already, a
// file or a symbolic link, so nothing another user planted is opened.
func OpenNew(path string, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|newFlags, perm)
}

// WriteFile writes data to path atomically: path's folder is made
// private (see [Dir]), data goes to a new file of an unpredictable name
// with mode perm, which is then renamed over path.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	f, err := CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Chmod(perm)
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp, path)
	}
	if werr != nil {
		_ = os.Remove(tmp)
	}
	return werr
}

// ReadPrivate reads a file this user wrote and nobody else can read or
// change: a regular file, not a symbolic link, owned by the effective
// uid, with no access for group or others. At most max bytes are read
// (0: no limit). Any other file is an error wrapping [ErrUnsafe]; a
// missing one wraps [fs.ErrNotExist].
func ReadPrivate(path string, max int64) ([]byte, error) {
	return readChecked(path, os.Geteuid(), 0o077, max)
}

// ReadOwned reads a file that uid must have written (a port file a
// target process writes): a regular file, not a symbolic link, owned by
// uid. Its mode is the writer's umask's: put such files in a folder only
// uid can enter (see [HandOff]). At most max bytes are read (0: no
// limit).
func ReadOwned(path string, uid int, max int64) ([]byte, error) {
	return readChecked(path, uid, 0, max)
}

func readChecked(path string, uid int, deny fs.FileMode, max int64) ([]byte, error) {
	// O_NONBLOCK: a FIFO planted there must not block the open.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if errors.Is(err, syscall.ELOOP) {
		return nil, unsafe(path, "a symbolic link")
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	switch {
	case !fi.Mode().IsRegular():
		return nil, unsafe(path, "not a regular file")
	case Owner(fi) != uid:
		return nil, unsafe(path, "owned by uid %d, not uid %d", Owner(fi), uid)
	case fi.Mode().Perm()&deny != 0:
		return nil, unsafe(path, "mode %v gives other users access to it", fi.Mode().Perm())
	}
	var r io.Reader = f
	if max > 0 {
		r = io.LimitReader(f, max)
	}
	return io.ReadAll(r)
}
