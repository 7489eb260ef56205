package remote

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbg-dev/dbg/adapters"
)

func touch(t *testing.T, root string, rels ...string) {
	t.Helper()
	for _, r := range rels {
		p := filepath.Join(root, r)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestPropose(t *testing.T) {
	t.Parallel()
	proj := t.TempDir()
	touch(t, proj, "svc/api/main.go", "svc/api/handlers.go", "tools/main.go", "web/app.py", "node_modules/x/app.py", ".git/app.py", "dup/a/util.py", "dup/b/util.py")
	for _, c := range []struct {
		remote []string
		want   []adapters.PathMapping
		note   string
	}{
		// One path, the longest common tail wins over the other main.go.
		{[]string{"/build/svc/api/main.go"}, []adapters.PathMapping{{RemoteRoot: "/build", LocalRoot: proj}}, "proposed"},
		// Paths that agree make one mapping.
		{[]string{"/opt/app/web/app.py", "/opt/app/svc/api/handlers.go"}, []adapters.PathMapping{{RemoteRoot: "/opt/app", LocalRoot: proj}}, "proposed"},
		// A tail of the file name alone, in a different tree.
		{[]string{"/srv/app.py"}, []adapters.PathMapping{{RemoteRoot: "/srv", LocalRoot: filepath.Join(proj, "web")}}, "proposed"},
		// Two files with as long a tail: nothing is guessed.
		{[]string{"/x/util.py"}, nil, "several files"},
		{[]string{"/x/nothing.rb"}, nil, "no file of the project"},
		// A path that exists here needs no mapping.
		{[]string{filepath.Join(proj, "web/app.py")}, nil, ""},
		{[]string{"relative/app.py", ""}, nil, ""},
	} {
		got, note := propose(proj, c.remote)
		if !equalMaps(got, c.want) || !strings.Contains(note, c.note) {
			t.Errorf("propose(%q) = %v, %q; want %v, %q", c.remote, got, note, c.want, c.note)
		}
	}
	if got, note := propose("", []string{"/a/b.py"}); got != nil || note != "" {
		t.Errorf("no project: %v %q", got, note)
	}
}

func TestMergeProposals(t *testing.T) {
	t.Parallel()
	m := func(r, l string) adapters.PathMapping { return adapters.PathMapping{RemoteRoot: r, LocalRoot: l} }
	got := mergeProposals([]proposal{{m: m("/srv", "/p")}, {m: m("/srv/sub", "/p/sub")}, {m: m("/srv", "/q")}, {m: m("/srv", "/p")}, {m: m("/other", "/o")}})
	want := []adapters.PathMapping{m("/srv", "/p"), m("/other", "/o")}
	if !equalMaps(got, want) {
		t.Errorf("%v, want %v", got, want)
	}
}

func equalMaps(a, b []adapters.PathMapping) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
