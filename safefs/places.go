package safefs

import (
	"fmt"
	"os"
	"path/filepath"
)

// StateDir names dbg's state folder (process records, tokens, daemon
// records, verdicts): $DBG_STATE_DIR, else $XDG_STATE_HOME/dbg, else
// $HOME/.local/state/dbg, else the user's private folder in $TMPDIR
// (see [PrivateTemp]). getenv reads the environment (nil: os.Getenv).
// It names the folder only: [Dir] makes and checks it.
func StateDir(getenv func(string) string) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	if d := getenv("DBG_STATE_DIR"); d != "" {
		return d
	}
	if d := getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "dbg")
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".local", "state", "dbg")
	}
	return filepath.Join(PrivateTemp(getenv), "state")
}

// PrivateTemp names this user's own folder in the temporary folder,
// $TMPDIR/dbg-<uid> (TMPDIR unset: /tmp), where dbg keeps its state and
// caches when there is no HOME. [Dir] makes it and refuses it when
// someone else made it first.
func PrivateTemp(getenv func(string) string) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	tmp := getenv("TMPDIR")
	if tmp == "" || !filepath.IsAbs(tmp) {
		tmp = "/tmp"
	}
	return filepath.Join(tmp, fmt.Sprintf("dbg-%d", os.Geteuid()))
}

// UserCacheDir is os.UserCacheDir ($XDG_CACHE_HOME, else ~/.cache)
// without its failure: with neither set it is the user's private folder
// in $TMPDIR (see [PrivateTemp]). dbg's own folder in it, "dbg", is made
// private and checked (see [Dir]) before it is returned; callers put
// their caches below UserCacheDir()/dbg.
func UserCacheDir() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		base = PrivateTemp(nil)
		if err := Dir(base); err != nil {
			return "", err
		}
	}
	if err := Dir(filepath.Join(base, "dbg")); err != nil {
		return "", err
	}
	return base, nil
}

// CacheDir is the folder sub of dbg's cache (UserCacheDir()/dbg/sub),
// made private and checked.
func CacheDir(sub string) (string, error) {
	base, err := UserCacheDir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(base, "dbg", sub)
	return dir, Dir(dir)
}

// TempFile creates a new file for a moment's use (a report a tool
// writes) in dbg's private scratch folder, UserCacheDir()/dbg/tmp: see
// [CreateTemp]. The caller removes it.
func TempFile(pattern string) (*os.File, error) {
	dir, err := CacheDir("tmp")
	if err != nil {
		return nil, err
	}
	return CreateTemp(dir, pattern)
}
