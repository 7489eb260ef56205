package adapters

import (
	"context"
	"os"
	"sync"
)

// lldbPyDirs remembers lldbPythonDir's answer per adapter binary: it runs
// `lldb -P`, a third of a second, which every launch and every adapter
// start would otherwise pay. The zero value is ready to use.
type lldbPyDirs struct{ m sync.Map }

// pythonDir is lldbPythonDir of d, asked once per version of d's binary.
func (c *lldbPyDirs) pythonDir(ctx context.Context, d nativeDebugger) string {
	key := d.path
	if st, err := os.Stat(d.path); err == nil {
		key += "\x00" + st.ModTime().String()
	}
	if v, ok := c.m.Load(key); ok {
		return v.(string)
	}
	dir := lldbPythonDir(ctx, d)
	if ctx.Err() == nil {
		c.m.Store(key, dir)
	}
	return dir
}
