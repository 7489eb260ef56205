package javadap

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/dbg-dev/dbg/safefs"
)

// A launch of a .java program compiles it with javac -g (about half a
// second of a core). A program of one file and no class path compiles to
// the same classes for the same source and the same javac, so those
// classes are kept in dbg's private cache (safefs.CacheDir("javac"),
// one folder per source content and javac) and each launch gets its
// own copy of them. A program with a class path always compiles: what
// the classes on it hold (a constant inlined from them) can change
// without a trace on the path.

// compileTimeoutSource bounds a launch's javac.
const compileTimeoutSource = 2 * time.Minute

// compileSource compiles src with javac into a new folder and returns
// it with the function that removes it; the classes come from the cache
// when they can (see above). javac's output is in the error when
// compiling fails.
func compileSource(ctx context.Context, javac, src string, cp []string) (string, func(), error) {
	out, err := os.MkdirTemp("", "dbg-java-")
	if err != nil {
		return "", nil, err
	}
	cleanup := func() { os.RemoveAll(out) }
	key := ""
	if len(cp) == 0 {
		key = compileKey(javac, src)
	}
	if key != "" {
		if dir, err := safefs.CacheDir("javac"); err == nil && copyTree(filepath.Join(dir, key), out) == nil {
			return out, cleanup, nil
		}
	}
	if err := runJavac(ctx, javac, src, cp, out); err != nil {
		cleanup()
		return "", nil, err
	}
	if key != "" {
		keepCompile(key, out)
	}
	return out, cleanup, nil
}

// runJavac compiles src into out with the light JVM options.
func runJavac(ctx context.Context, javac, src string, cp []string, out string) error {
	cctx, cancel := context.WithTimeout(ctx, compileTimeoutSource)
	defer cancel()
	args := append(javacLight(), "-g", "-d", out)
	if len(cp) > 0 {
		args = append(args, "-cp", strings.Join(cp, string(os.PathListSeparator)))
	}
	b, err := exec.CommandContext(cctx, javac, append(args, src)...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("javac %s failed: %w\n%s", src, err, b)
	}
	return nil
}

// compileKey names the compile of src by javac: the source's bytes and
// path (a class's SourceFile and the breakpoints' paths come from it),
// and javac's path, size and time. It is "" when one cannot be read.
func compileKey(javac, src string) string {
	b, err := os.ReadFile(src)
	if err != nil {
		return ""
	}
	fi, err := os.Stat(javac)
	if err != nil {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%d\x00%d\x00%q\x00", src, javac, fi.Size(), fi.ModTime().UnixNano(), javacLight())
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// keepCompile copies the classes in out to the cache under key. A copy
// is made in a new folder of the cache and renamed into place, so a
// launch never reads half of one; when another launch put the same key
// first, this copy goes.
func keepCompile(key, out string) {
	dir, err := safefs.CacheDir("javac")
	if err != nil {
		return
	}
	tmp, err := safefs.NewDir(dir, ".new-*")
	if err != nil {
		return
	}
	if copyTree(out, tmp) != nil || os.Rename(tmp, filepath.Join(dir, key)) != nil {
		os.RemoveAll(tmp)
	}
}

// copyTree copies the regular files and folders of from into to, which
// exists. A link or any other kind of file is an error: javac makes
// none.
func copyTree(from, to string) error {
	fi, err := os.Lstat(from)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a folder", from)
	}
	return filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, p)
		if err != nil || rel == "." {
			return err
		}
		dst := filepath.Join(to, rel)
		switch {
		case d.IsDir():
			return os.Mkdir(dst, 0o700)
		case d.Type().IsRegular():
			return copyFile(p, dst)
		default:
			return errors.New("not a regular file: " + p)
		}
	})
}

// copyFile copies the regular file from to the new file to (made with
// O_EXCL|O_NOFOLLOW, in a folder of this user's that it made).
func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return err
	}
	_, werr := f.Write(b)
	if err := f.Close(); werr == nil {
		werr = err
	}
	return werr
}
