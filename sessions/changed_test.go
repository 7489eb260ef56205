package sessions

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/textcut"
)

// locals builds a view from name, value pairs, as readLocals does.
func locals(kv ...string) []localValue {
	var out []localValue
	for i := 0; i+1 < len(kv); i += 2 {
		h := fnv.New64a()
		_, _ = h.Write([]byte(kv[i+1]))
		out = append(out, localValue{key: kv[i], name: kv[i], hash: h.Sum64(), shown: textcut.Clip(kv[i+1], maxChangedValueLen)})
	}
	return out
}

func TestCompareLocals(t *testing.T) {
	t.Parallel()
	c := compareLocals(locals("a", "1", "b", "x", "c", "gone"), locals("a", "2", "b", "x", "d", "new"))
	b, _ := json.Marshal(c)
	want := `{"values":[{"name":"a","old":"1","new":"2"}],"new":[{"name":"d","value":"new"}],"gone":["c"],"unchanged":1}`
	if string(b) != want {
		t.Errorf("changes %s, want %s", b, want)
	}
	same := compareLocals(locals("a", "1"), locals("a", "1"))
	if b, _ := json.Marshal(same); string(b) != `{"values":[],"new":[],"gone":[],"unchanged":1}` {
		t.Errorf("no change encodes as %s", b)
	}
	if b, _ := json.Marshal(&Changes{first: true}); string(b) != "null" {
		t.Errorf("a first stop encodes as %s, want null", b)
	}
}

func TestCompareLocalsBounds(t *testing.T) {
	t.Parallel()
	var old, cur []string
	for i := 0; i < 3*maxChangedEntries; i++ {
		old = append(old, fmt.Sprintf("v%d", i), "0")
		cur = append(cur, fmt.Sprintf("v%d", i), "1")
	}
	c := compareLocals(locals(old...), locals(cur...))
	if len(c.Values) != maxChangedEntries || c.Truncation == nil || c.Truncation.Total != 3*maxChangedEntries || c.Truncation.Returned != maxChangedEntries {
		t.Errorf("%d values, truncation %+v; want %d of %d", len(c.Values), c.Truncation, maxChangedEntries, 3*maxChangedEntries)
	}
	big := strings.Repeat("é", 4*maxChangedValueLen)
	old, cur = nil, nil
	for i := 0; i < 40; i++ {
		old = append(old, fmt.Sprintf("s%d", i), big+"a")
		cur = append(cur, fmt.Sprintf("s%d", i), big+"b") // differ only past the cut
	}
	c = compareLocals(locals(old...), locals(cur...))
	size := 0
	for _, v := range c.Values {
		size += len(v.Name) + len(v.Old) + len(v.New)
		if len(v.New) > maxChangedValueLen+len("…") || !strings.HasSuffix(v.New, "…") {
			t.Fatalf("value of %d bytes not cut to %d: %q", len(v.New), maxChangedValueLen, v.New[:20])
		}
	}
	if size > maxChangedBytes || c.Truncation == nil || c.Truncation.Total != 40 || len(c.Values) == 0 {
		t.Errorf("%d bytes in %d values, truncation %+v; want at most %d bytes, the rest counted", size, len(c.Values), c.Truncation, maxChangedBytes)
	}
}

func TestSourceCache(t *testing.T) {
	t.Parallel()
	var c sourceCache
	path := filepath.Join(t.TempDir(), "a.py")
	write := func(text string, mtime time.Time) {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	t0 := time.Now().Add(-time.Hour)
	write("one\ntwo\n", t0)
	if got := c.line(path, 2); got != "two" {
		t.Fatalf("line 2 %q", got)
	}
	write("uno\ndos\n", t0.Add(time.Second)) // same size, later mtime
	if got := c.line(path, 2); got != "dos" {
		t.Errorf("after an edit with the same size, line 2 is %q, want dos", got)
	}
	write("uno\ndos\ntres\n", t0.Add(time.Second)) // same mtime, new size
	if lines, n := c.context(path, 3, 1); n != 3 || len(lines) != 2 || lines[1].Text != "tres" {
		t.Errorf("after an edit with a new size: %v of %d lines", lines, n)
	}
	for i := 0; i < 2*sourceCacheFiles; i++ {
		p := filepath.Join(t.TempDir(), fmt.Sprintf("f%d.py", i))
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		c.line(p, 1)
	}
	if len(c.files) > sourceCacheFiles {
		t.Errorf("%d files cached, bound %d", len(c.files), sourceCacheFiles)
	}
	if c.line(filepath.Join(t.TempDir(), "missing.py"), 1) != "" {
		t.Error("a missing file has a line")
	}
}

// TestChangedRecursion: the frames of one function at different depths
// are different frames, also in a recursion deeper than a stop's stack
// read; a frame's stops compare with that frame's own earlier view.
func TestChangedRecursion(t *testing.T) {
	t.Parallel()
	if !(adapters.Python{}).Find(context.Background()).Found {
		t.Skip("debugpy is not installed (scripts/install-test-deps.sh installs it)")
	}
	for _, limit := range []int{3, 2 * stopLevels} {
		t.Run(fmt.Sprint(limit), func(t *testing.T) {
			m := pythonManager(t, adapters.NewPython())
			ctx := context.Background()
			s, _, err := m.Create(ctx, CreateRequest{Language: "python"})
			if err != nil {
				t.Fatal(err)
			}
			prog := testdata(t, "python/recurse.py")
			cond := fmt.Sprintf("n >= %d", limit-1) // the two deepest frames
			for _, mark := range []string{"# RECURSE", "# BACK"} {
				if _, err := s.SetBreakpoint(ctx, BreakpointSpec{File: prog, Line: lineOf(t, prog, mark), Condition: cond}); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := s.Launch(ctx, StartRequest{ScriptPath: prog, Args: []string{fmt.Sprint(limit)}, Wait: 30 * time.Second}); err != nil {
				t.Fatal(err)
			}
			stop := func(first bool) *ExecResult {
				t.Helper()
				r := s.result(s.Info(), true)
				if !first {
					var err error
					if r, err = s.Continue(ctx, 0, 30*time.Second); err != nil {
						t.Fatal(err)
					}
				}
				if r.State != StatePaused {
					t.Fatalf("not stopped: %+v", r)
				}
				s.AddChanges(ctx, r, true)
				return r
			}
			for i, n := range []int{limit - 1, limit} { // RECURSE, one level deeper each time
				if r := stop(i == 0); !r.Changed.First() || !strings.Contains(r.ChangedNote, "no earlier view") {
					b, _ := json.Marshal(r.Changed)
					t.Errorf("RECURSE at n=%d: changed %s (%s), want null: a new depth is a new frame", n, b, r.ChangedNote)
				}
			}
			for _, n := range []int{limit, limit - 1} { // BACK, returning
				r := stop(false)
				c := r.Changed
				if c == nil || c.First() || len(c.Values) != 0 || len(c.New) != 1 || c.New[0].Name != "here" || c.New[0].Value != fmt.Sprint(n*10) {
					b, _ := json.Marshal(c)
					t.Errorf("BACK at n=%d: changed %s (%s), want only here=%d new, against this frame's RECURSE stop", n, b, r.ChangedNote, n*10)
				}
			}
		})
	}
}
