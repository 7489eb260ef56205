package nodedap

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// transformedLoader evaluates mod.js the way Vite's module runner does:
// its code transformed (here: two lines put before it) and run under the
// file's own name, with an inline source map back to the file.
const transformedLoader = `const fs = require('fs');
const vm = require('vm');
const path = require('path');
const file = path.join(__dirname, 'mod.js');
const src = fs.readFileSync(file, 'utf8');
const n = src.split('\n').length;
const map = { version: 3, sources: ['mod.js'], mappings: ';;AAAA' + ';AACA'.repeat(n - 1) };
const code = '// transformed\n// by a test\n' + src +
  '\n//# sourceMappingURL=data:application/json;base64,' + Buffer.from(JSON.stringify(map)).toString('base64');
vm.runInThisContext(code, { filename: file });
`

const transformedModule = `const base = 2;
const three = base + 1;
function add(a, b) {
  const sum = a + b; // BP:sum
  return sum;
}
console.log('sum ' + add(base, three));
`

// TestBreakpointInTransformedFileBindsThroughItsMap: a breakpoint set on
// a file before the file is loaded as transformed code under its own name
// stops on the line asked for, not on the transformed code's line of
// that number.
func TestBreakpointInTransformedFileBindsThroughItsMap(t *testing.T) {
	dir := t.TempDir()
	loader, mod := filepath.Join(dir, "loader.js"), filepath.Join(dir, "mod.js")
	for path, src := range map[string]string{loader: transformedLoader, mod: transformedModule} {
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	line := lineOf(t, mod, "BP:sum")
	c := newClient(t)
	c.launch(map[string]any{"program": loader})
	c.setBreakpoints(mod, map[string]any{"line": line})
	c.req("configurationDone", nil)
	want(t, "reason", c.stopped().Reason, "breakpoint")
	f := c.frames()[0]
	if f.Source.Path != mod || f.Line != line || f.Name != "add" {
		t.Fatalf("stopped in %s at %s:%d, want add at %s:%d", f.Name, f.Source.Path, f.Line, mod, line)
	}
	want(t, "a", c.locals()["a"].Value, "2")
	c.finish("sum 5")
}

// TestBreakpointInPlainFileStaysOnItsLine: a file node loads itself (no
// source map) keeps the breakpoint set on its path.
func TestBreakpointInPlainFileStaysOnItsLine(t *testing.T) {
	dir := t.TempDir()
	mod := filepath.Join(dir, "mod.js")
	if err := os.WriteFile(mod, []byte(transformedModule), 0o644); err != nil {
		t.Fatal(err)
	}
	line := lineOf(t, mod, "BP:sum")
	c := newClient(t)
	c.launch(map[string]any{"program": mod})
	c.setBreakpoints(mod, map[string]any{"line": line})
	c.req("configurationDone", nil)
	c.stopped()
	if f := c.frames()[0]; f.Line != line || f.Name != "add" {
		t.Fatalf("stopped in %s at line %d, want add at %d", f.Name, f.Line, line)
	}
	c.finish("sum 5")
	if strings.Contains(c.outputText(), "Error") {
		t.Fatalf("output %q", c.outputText())
	}
}

// TestBreakpointInTransformedFileInAWorker: the same in a worker thread,
// on a line the module runs as it loads.
func TestBreakpointInTransformedFileInAWorker(t *testing.T) {
	dir := t.TempDir()
	main, loader, mod := filepath.Join(dir, "main.js"), filepath.Join(dir, "loader.js"), filepath.Join(dir, "mod.js")
	for path, src := range map[string]string{
		main:   "const { Worker } = require('worker_threads');\nnew Worker(require('path').join(__dirname, 'loader.js'));\n",
		loader: transformedLoader, mod: transformedModule,
	} {
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	line := lineOf(t, mod, "console.log")
	c := newClient(t)
	c.launch(map[string]any{"program": main})
	c.setBreakpoints(mod, map[string]any{"line": line})
	c.req("configurationDone", nil)
	st := c.stopped()
	want(t, "reason", st.Reason, "breakpoint")
	m := c.req("stackTrace", map[string]any{"threadId": st.ThreadID})
	f := body[struct{ StackFrames []frame }](t, m).StackFrames[0]
	if f.Source.Path != mod || f.Line != line {
		t.Fatalf("stopped at %s:%d, want %s:%d", f.Source.Path, f.Line, mod, line)
	}
	c.req("continue", map[string]any{"threadId": st.ThreadID})
	c.event("terminated")
	if !strings.Contains(c.outputText(), "sum 5") {
		t.Errorf("output %q", c.outputText())
	}
}
