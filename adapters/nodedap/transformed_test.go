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

// transformedProject writes the loader, the module and, when main is
// not empty, a main script, and returns the directory.
func transformedProject(t *testing.T, main string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{"loader.js": transformedLoader, "mod.js": transformedModule}
	if main != "" {
		files["main.js"] = main
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// runToLine launches program with a breakpoint on line of mod and returns
// the top frame of the first stop, which must be that breakpoint's.
func runToLine(t *testing.T, c *client, program, mod string, line int) (frame, int) {
	t.Helper()
	c.launch(map[string]any{"program": program})
	c.setBreakpoints(mod, map[string]any{"line": line})
	c.req("configurationDone", nil)
	st := c.stopped()
	want(t, "reason", st.Reason, "breakpoint")
	m := c.req("stackTrace", map[string]any{"threadId": st.ThreadID})
	f := body[struct{ StackFrames []frame }](t, m).StackFrames[0]
	if f.Source.Path != mod || f.Line != line {
		t.Fatalf("stopped in %s at %s:%d, want %s:%d", f.Name, f.Source.Path, f.Line, mod, line)
	}
	return f, st.ThreadID
}

// TestBreakpointInTransformedFileBindsThroughItsMap: a breakpoint set on
// a file before the file is loaded as transformed code under its own name
// stops on the line asked for, not on the transformed code's line of
// that number.
func TestBreakpointInTransformedFileBindsThroughItsMap(t *testing.T) {
	t.Parallel()
	dir := transformedProject(t, "")
	mod := filepath.Join(dir, "mod.js")
	c := newClient(t)
	f, _ := runToLine(t, c, filepath.Join(dir, "loader.js"), mod, lineOf(t, mod, "BP:sum"))
	want(t, "function", f.Name, "add")
	want(t, "a", c.locals()["a"].Value, "2")
	c.finish("sum 5")
}

// TestBreakpointInPlainFileStaysOnItsLine: a file node loads itself (no
// source map) keeps the breakpoint set on its path.
func TestBreakpointInPlainFileStaysOnItsLine(t *testing.T) {
	t.Parallel()
	mod := filepath.Join(transformedProject(t, ""), "mod.js")
	c := newClient(t)
	f, _ := runToLine(t, c, mod, mod, lineOf(t, mod, "BP:sum"))
	want(t, "function", f.Name, "add")
	c.finish("sum 5")
}

// TestBreakpointInTransformedFileInAWorker: the same in a worker thread,
// on a line the module runs as it loads.
func TestBreakpointInTransformedFileInAWorker(t *testing.T) {
	t.Parallel()
	dir := transformedProject(t, "const { Worker } = require('worker_threads');\nnew Worker(require('path').join(__dirname, 'loader.js'));\n")
	mod := filepath.Join(dir, "mod.js")
	c := newClient(t)
	_, thread := runToLine(t, c, filepath.Join(dir, "main.js"), mod, lineOf(t, mod, "console.log"))
	c.req("continue", map[string]any{"threadId": thread})
	c.event("terminated")
	if !strings.Contains(c.outputText(), "sum 5") {
		t.Errorf("output %q", c.outputText())
	}
}
