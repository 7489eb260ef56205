package nodedap

import (
	"os"
	"path/filepath"
	"testing"
)

// TestTypeScriptBreakpoints stops on .ts lines through the compiled
// JavaScript's source maps, in the main module and in one loaded later.
func TestTypeScriptBreakpoints(t *testing.T) {
	t.Parallel()
	build := compiledTS(t)
	greet := fixture(t, "ts/greet.ts")
	util := fixture(t, "ts/util.ts")
	for _, program := range []string{filepath.Join(build, "greet.js"), greet} {
		t.Run(filepath.Base(program), func(t *testing.T) {
			c := newClient(t)
			c.launch(map[string]any{"program": program})
			gl := lineOf(t, greet, "BP:ts-greet")
			bps := c.setBreakpoints(greet, map[string]any{"line": gl})
			if !bps[0].Verified || bps[0].Line != gl {
				t.Fatalf("greet.ts breakpoint %+v", bps[0])
			}
			ul := lineOf(t, util, "BP:ts-shout")
			// util.js is not loaded yet: the breakpoint waits for it.
			ubps := c.setBreakpoints(util, map[string]any{"line": ul})
			c.req("configurationDone", nil)

			want(t, "reason", c.stopped().Reason, "breakpoint")
			f := c.frames()[0]
			want(t, "path", f.Source.Path, greet)
			want(t, "line", f.Line, gl)
			want(t, "name", c.eval("p.name", f.ID).Value, `"Ada"`)

			c.req("continue", map[string]any{"threadId": 1})
			st := c.stopped()
			want(t, "reason", st.Reason, "breakpoint")
			f = c.frames()[0]
			want(t, "path", f.Source.Path, util)
			want(t, "line", f.Line, ul)
			want(t, "s", c.locals()["s"].Value, `"Hello, Ada (36)"`)
			if len(st.HitBreakpointIDs) != 1 || st.HitBreakpointIDs[0] != ubps[0].ID {
				t.Errorf("hit %v, want [%d]", st.HitBreakpointIDs, ubps[0].ID)
			}
			// The caller frame maps back to greet.ts too.
			caller := c.frames()[1]
			want(t, "caller path", caller.Source.Path, greet)
			want(t, "caller line", caller.Line, lineOf(t, greet, "console.log(shout("))
		})
	}
}

// TestStepOverImport steps over the line that loads a module with a
// source map: the step must end on the next line, not run away.
func TestStepOverImport(t *testing.T) {
	t.Parallel()
	build := compiledTS(t)
	greet := fixture(t, "ts/greet.ts")
	c := newClient(t)
	c.launch(map[string]any{"program": filepath.Join(build, "greet.js"), "stopOnEntry": true})
	c.req("configurationDone", nil)
	want(t, "reason", c.stopped().Reason, "entry")
	importLine := lineOf(t, greet, "from './util'")
	for i := 0; i < 6; i++ {
		f := c.frames()[0]
		if f.Source.Path == greet && f.Line > importLine {
			return
		}
		c.req("next", map[string]any{"threadId": 1})
		st := c.stopped()
		want(t, "reason", st.Reason, "step")
	}
	t.Fatalf("never got past the import; at %+v", c.frames()[0])
}

// tsxProject makes a project folder holding the TypeScript fixtures and the
// pinned tsx that scripts/deps/node.sh installs.
func tsxProject(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("DBG_TSX_DIR")
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".cache", "dbg-test", "tsx")
	}
	mods := filepath.Join(dir, "node_modules")
	if _, err := os.Stat(filepath.Join(mods, "tsx", "package.json")); err != nil {
		t.Skipf("tsx is not installed in %s (scripts/deps/node.sh installs it)", dir)
	}
	proj := t.TempDir()
	if err := os.Symlink(mods, filepath.Join(proj, "node_modules")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"greet.ts", "util.ts"} {
		b, err := os.ReadFile(fixture(t, "ts/"+name))
		if err != nil {
			t.Fatal(err)
		}
		touch(t, filepath.Join(proj, "src", name), string(b))
	}
	return proj
}

// TestTypeScriptThroughTsx runs a .ts program through the project's tsx
// and stops on .ts lines through tsx's inline source maps.
func TestTypeScriptThroughTsx(t *testing.T) {
	t.Parallel()
	proj := tsxProject(t)
	greet := filepath.Join(proj, "src", "greet.ts")
	util := filepath.Join(proj, "src", "util.ts")
	c := newClient(t)
	c.launch(map[string]any{"program": greet})
	gl := lineOf(t, greet, "BP:ts-greet")
	ul := lineOf(t, util, "BP:ts-shout")
	c.setBreakpoints(greet, map[string]any{"line": gl})
	c.setBreakpoints(util, map[string]any{"line": ul})
	c.req("configurationDone", nil)
	want(t, "reason", c.stopped().Reason, "breakpoint")
	f := c.frames()[0]
	want(t, "path", f.Source.Path, greet)
	want(t, "line", f.Line, gl)
	want(t, "p.age", c.eval("p.age", f.ID).Value, "36")
	c.req("continue", map[string]any{"threadId": 1})
	c.stopped()
	f = c.frames()[0]
	want(t, "path", f.Source.Path, util)
	want(t, "line", f.Line, ul)
}
