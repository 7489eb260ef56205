package ide

import (
	"fmt"
	"os"
	"strings"
	"sync"
)

// configCache keeps each project's run configurations until one of the
// files they come from changes (by modification time and size), so
// status and tools never parse twice. It is safe for concurrent use.
type configCache struct {
	getenv func(string) string

	mu      sync.Mutex
	entries map[string]configEntry
}

type configEntry struct {
	stamp string
	res   LoadResult
}

const configCacheSize = 64

func newConfigCache(getenv func(string) string) *configCache {
	return &configCache{getenv: getenv, entries: map[string]configEntry{}}
}

// fileStamp fingerprints files by modification time and size.
func fileStamp(files []string) string {
	var b strings.Builder
	for _, f := range files {
		st, err := os.Stat(f)
		if err != nil {
			b.WriteString("-;")
			continue
		}
		fmt.Fprintf(&b, "%s:%d:%d;", f, st.ModTime().UnixNano(), st.Size())
	}
	return b.String()
}

// load returns the project's configurations, reading them again only
// when a source file changed.
func (c *configCache) load(dir string) LoadResult {
	base := fileStamp(runConfigFiles(dir))
	c.mu.Lock()
	e, ok := c.entries[dir]
	c.mu.Unlock()
	if ok && e.stamp == base+fileStamp(e.res.extraFiles) {
		return e.res
	}
	res := LoadRunConfigurations(dir, c.getenv)
	stamp := base + fileStamp(res.extraFiles)
	c.mu.Lock()
	if len(c.entries) >= configCacheSize {
		c.entries = map[string]configEntry{}
	}
	c.entries[dir] = configEntry{stamp: stamp, res: res}
	c.mu.Unlock()
	return res
}
