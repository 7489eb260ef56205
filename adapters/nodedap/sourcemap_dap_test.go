package nodedap

import (
	"path/filepath"
	"testing"
)

// TestTypeScriptBreakpoints stops on .ts lines through the compiled
// JavaScript's source maps, in the main module and in one loaded later.
func TestTypeScriptBreakpoints(t *testing.T) {
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
