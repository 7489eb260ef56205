package sessions

import (
	"os"
	"strings"
	"sync"
	"time"
)

// A session reads the same few source files at every stop: the stop's
// line, its context, the line of every frame of a stack. sourceCache keeps
// their lines, keyed by path and checked against the file's size and
// modification time at each use, so an edited file is read again.

// Bounds of one session's source cache.
const (
	sourceCacheFiles = 32
	sourceCacheBytes = 16 << 20
)

type cachedSource struct {
	size  int64
	mtime time.Time
	lines []string
	bytes int64
	used  uint64
}

// sourceCache is a bounded cache of source files' lines; safe for
// concurrent use. The zero value is ready.
type sourceCache struct {
	mu    sync.Mutex
	files map[string]*cachedSource
	bytes int64
	tick  uint64
}

// lines returns the lines of path (nil when unreadable or huge), from the
// cache while the file's size and modification time are unchanged.
func (c *sourceCache) lines(path string) []string {
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() || st.Size() > maxSourceBytes {
		return nil
	}
	c.mu.Lock()
	if f, ok := c.files[path]; ok && f.size == st.Size() && f.mtime.Equal(st.ModTime()) {
		c.tick++
		f.used = c.tick
		c.mu.Unlock()
		return f.lines
	}
	c.mu.Unlock()
	lines := readLines(path)
	if lines == nil {
		return nil
	}
	c.put(path, &cachedSource{size: st.Size(), mtime: st.ModTime(), lines: lines, bytes: st.Size()})
	return lines
}

// put stores f, dropping the least recently used files over the bounds.
func (c *sourceCache) put(path string, f *cachedSource) {
	if f.bytes > sourceCacheBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.files == nil {
		c.files = map[string]*cachedSource{}
	}
	if old, ok := c.files[path]; ok {
		c.bytes -= old.bytes
	}
	c.tick++
	f.used = c.tick
	c.files[path] = f
	c.bytes += f.bytes
	for len(c.files) > sourceCacheFiles || c.bytes > sourceCacheBytes {
		oldest := ""
		for p, x := range c.files {
			if oldest == "" || x.used < c.files[oldest].used {
				oldest = p
			}
		}
		c.bytes -= c.files[oldest].bytes
		delete(c.files, oldest)
	}
}

// line returns one line (1-based), trimmed, or "".
func (c *sourceCache) line(path string, line int) string {
	lines := c.lines(path)
	if line < 1 || line > len(lines) {
		return ""
	}
	return strings.TrimSpace(lines[line-1])
}

// context returns up to n lines around line, and the file's line count.
func (c *sourceCache) context(path string, line, n int) ([]SourceLine, int) {
	return linesAround(c.lines(path), line, n)
}
