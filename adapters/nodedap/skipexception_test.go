package nodedap

import (
	"os"
	"path/filepath"
	"testing"
)

// writeLoaderScripts writes a program that imports a module from a timer
// callback: node's ESM loader, linking it, throws and catches an
// "Invalid URL" for the module's bare specifier, with no frame of the
// program on the stack. Then the program throws and catches its own.
func writeLoaderScripts(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"main.mjs": "setTimeout(async () => {\n  const m = await import('./lib.mjs');\n  try {\n    throw new RangeError('own ' + typeof m.z); // BP:own\n  } catch (e) {\n    console.log('caught ' + e.message);\n  }\n}, 10);\n",
		"lib.mjs":  "import zlib from 'zlib';\nexport const z = zlib;\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "main.mjs")
}

// TestExceptionsWhollyInSkippedNodeCodeDoNotStop: with all exceptions on
// and node's code skipped, the first stop is the program's own
// exception.
func TestExceptionsWhollyInSkippedNodeCodeDoNotStop(t *testing.T) {
	t.Parallel()
	script := writeLoaderScripts(t)
	c := newClient(t)
	c.launch(map[string]any{"program": script})
	c.req("setExceptionBreakpoints", map[string]any{"filters": []string{"all"}})
	c.req("configurationDone", nil)
	st := c.stopped()
	want(t, "text", st.Text, "RangeError: own object")
	want(t, "line", c.frames()[0].Line, lineOf(t, script, "BP:own"))
	c.finish("caught own object")
}

// TestExceptionsInNodeCodeStopWithoutSkipFiles: with skipFiles [], node's
// own exceptions are the program's like any other and stop, in node.
func TestExceptionsInNodeCodeStopWithoutSkipFiles(t *testing.T) {
	t.Parallel()
	script := writeLoaderScripts(t)
	c := newClient(t)
	c.launch(map[string]any{"program": script, "skipFiles": []string{}})
	c.req("setExceptionBreakpoints", map[string]any{"filters": []string{"all"}})
	c.req("configurationDone", nil)
	st := c.stopped()
	want(t, "text", st.Text, "TypeError: Invalid URL")
	if f := c.frames()[0]; f.Source.Path != "" {
		t.Fatalf("the loader's exception stopped in %+v, want node's own code", f)
	}
}
