package cfgfile

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// WriteAtomic replaces path with data: a temporary file in the same
// directory, with the given mode, renamed over it.
func WriteAtomic(path string, data []byte, mode fs.FileMode) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return fmt.Errorf("writing %s: %w", tmp, err)
	}
	if err = f.Chmod(mode); err != nil {
		return fmt.Errorf("setting the mode of %s: %w", tmp, err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("writing %s: %w", tmp, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", tmp, err)
	}
	if err = os.Rename(tmp, path); err != nil {
		return fmt.Errorf("replacing %s: %w", path, err)
	}
	return nil
}

// Diff is a unified diff of a and b with one hunk around the changed
// lines (edits here touch one region of the file).
func Diff(aName, bName string, a, b []byte) string {
	al, bl := configLines(string(a)), configLines(string(b))
	p := 0
	for p < len(al) && p < len(bl) && al[p] == bl[p] {
		p++
	}
	s := 0
	for s < len(al)-p && s < len(bl)-p && al[len(al)-1-s] == bl[len(bl)-1-s] {
		s++
	}
	const ctxLines = 3
	start := max(0, p-ctxLines)
	aEnd := min(len(al), len(al)-s+ctxLines)
	bEnd := min(len(bl), len(bl)-s+ctxLines)
	var w strings.Builder
	fmt.Fprintf(&w, "--- %s\n+++ %s\n@@ -%d,%d +%d,%d @@\n", aName, bName, start+1, aEnd-start, start+1, bEnd-start)
	line := func(prefix, l string) {
		w.WriteString(prefix + strings.TrimSuffix(l, "\n") + "\n")
	}
	for _, l := range al[start:p] {
		line(" ", l)
	}
	for _, l := range al[p : len(al)-s] {
		line("-", l)
	}
	for _, l := range bl[p : len(bl)-s] {
		line("+", l)
	}
	for _, l := range al[len(al)-s : aEnd] {
		line(" ", l)
	}
	return w.String()
}

func configLines(s string) []string {
	l := strings.SplitAfter(s, "\n")
	if len(l) > 0 && l[len(l)-1] == "" {
		l = l[:len(l)-1]
	}
	return l
}
