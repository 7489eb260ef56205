package testrun

import (
	"crypto/rand"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// pytestBoot is dbg's start of pytest under debugpy: it imports pytest
// and its own plugins before the debugger traces anything, and connects
// the debugger just before the project's code loads (see the file). With
// --zygote it is the fork server of pytestzygote.go.
//
//go:embed pytestboot/dbg_pytest.py
var pytestBoot []byte

// pytestBootScript writes the start into a private folder of dbg's cache
// (one per content) and returns its path and folder.
func pytestBootScript() (script, dir string, err error) {
	sum := sha256.Sum256(pytestBoot)
	dir, err = privateCacheDir("pytest-" + hex.EncodeToString(sum[:8]))
	if err != nil {
		return "", "", err
	}
	script = filepath.Join(dir, "dbg_pytest.py")
	return script, dir, writePrivate(script, pytestBoot)
}

// privateCacheDir makes dbg's cache folder sub, private to this user,
// and checks it: a directory, not a link, this user's, with no access
// for anyone else.
func privateCacheDir(sub string) (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache folder: %w", err)
	}
	dir := filepath.Join(base, "dbg", sub)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	for _, d := range []string{filepath.Dir(dir), dir} {
		fi, err := os.Lstat(d)
		if err != nil {
			return "", err
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !fi.IsDir() || !ok || int(st.Uid) != os.Geteuid() {
			return "", fmt.Errorf("%s is not a folder of this user's", d)
		}
		if fi.Mode().Perm()&0o077 != 0 {
			if err := os.Chmod(d, 0o700); err != nil {
				return "", err
			}
		}
	}
	return dir, nil
}

// writePrivate makes file hold content: kept when it already does, else
// written to a new file of an unpredictable name (O_EXCL|O_NOFOLLOW) and
// renamed over it.
func writePrivate(file string, content []byte) error {
	if b, err := os.ReadFile(file); err == nil && string(b) == string(content) {
		return nil
	}
	var r [8]byte
	_, _ = rand.Read(r[:])
	tmp := file + "." + hex.EncodeToString(r[:])
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return err
	}
	_, werr := f.Write(content)
	if err := errors.Join(werr, f.Close()); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, file)
}
