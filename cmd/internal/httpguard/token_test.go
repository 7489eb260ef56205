package httpguard

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/safefs"
	"github.com/dbg-dev/dbg/safefs/attacker"
)

func TestProjectToken(t *testing.T) {
	state := t.TempDir()
	a, err := ProjectToken(state, "/p", false)
	if err != nil || len(a) < 43 {
		t.Fatalf("token %q, %v", a, err)
	}
	path := TokenPath(state, "/p")
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("token file %v, %v; want mode 0600", st, err)
	}
	if dir, _ := os.Stat(filepath.Dir(path)); dir.Mode().Perm() != 0o700 {
		t.Fatalf("token directory mode %v, want 0700", dir.Mode().Perm())
	}
	if again, _ := ProjectToken(state, "/p", false); again != a {
		t.Fatalf("token changed without rotation: %q then %q", a, again)
	}
	if other, _ := ProjectToken(state, "/q", false); other == a {
		t.Fatal("two projects share a token")
	}
	rotated, err := ProjectToken(state, "/p", true)
	if err != nil || rotated == a {
		t.Fatalf("rotation kept the token (%v)", err)
	}
	// A file naming another project (a hash collision, a copied file) is
	// not trusted.
	b, _ := os.ReadFile(TokenPath(state, "/q"))
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if got, _ := ProjectToken(state, "/p", false); got == rotated || got == "" {
		t.Fatalf("token of /p after its file named /q: %q", got)
	}
	if ents, _ := os.ReadDir(filepath.Dir(path)); len(ents) != 2 {
		t.Fatalf("token files %v, want two", ents)
	}
}

func TestBearerTransport(t *testing.T) {
	var got string
	srv := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { got = r.Header.Get("Authorization") }))
	defer srv.Close()
	req, _ := http.NewRequest("GET", srv.URL, nil)
	resp, err := (&http.Client{Transport: BearerTransport{Token: "t0k"}}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got != "Bearer t0k" || req.Header.Get("Authorization") != "" {
		t.Fatalf("sent %q; caller's request changed: %q", got, req.Header.Get("Authorization"))
	}
}

// A guard following the token file admits the token in force: a rotation
// refuses the old one at once, and a broken file keeps the last good one.
func TestFileTokenFollowsRotation(t *testing.T) {
	state := t.TempDir()
	if _, err := NewFileToken(state, "/p"); !errors.Is(err, ErrNoToken) {
		t.Fatalf("no token yet: %v", err)
	}
	if _, err := ReadToken(state, "/p"); !errors.Is(err, ErrNoToken) {
		t.Fatalf("ReadToken without a token: %v", err)
	}
	old, _ := ProjectToken(state, "/p", false)
	ft, err := NewFileToken(state, "/p")
	if err != nil {
		t.Fatal(err)
	}
	h := NewFollowing(ft, 80, time.Now).Wrap(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {}))
	status := func(tok string) int {
		r := httptest.NewRequest("GET", "http://127.0.0.1:80/mcp", nil)
		r.RemoteAddr = "127.0.0.1:5000"
		r.Header.Set("Authorization", "Bearer "+tok)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Code
	}
	if got := status(old); got != 200 {
		t.Fatalf("the token: %d", got)
	}
	rotated, _ := ProjectToken(state, "/p", true)
	if got := status(old); got != 401 {
		t.Fatalf("the old token after rotation: %d, want 401", got)
	}
	if got := status(rotated); got != 200 {
		t.Fatalf("the new token: %d", got)
	}
	if err := os.WriteFile(TokenPath(state, "/p"), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := status(rotated); got != 200 {
		t.Fatalf("the last good token after the file broke: %d", got)
	}
	if got := status(""); got != 401 {
		t.Fatalf("an empty token: %d", got)
	}
}

// The attacker made the token folder first, mode 777, and put her own
// token file in it (finding 5): the file is not taken for the project's
// token, no token is written into her folder, and a token file of hers
// in a folder of ours (or one others can read) is replaced, never used.
func TestTokenFileOfAnotherUserIsNotTrusted(t *testing.T) {
	eve := attacker.New(t)
	shared := attacker.SharedTemp(t)
	state := filepath.Join(shared, "dbg-state")
	path := TokenPath(state, "/p")
	forged := `{"project":"/p","token":"` + strings.Repeat("E", 43) + `"}`
	eve.MustRun(t, "sh", "-c", "mkdir -m 777 "+state+" && mkdir -m 777 "+filepath.Dir(path)+" && echo '"+forged+"' > "+path)
	if tok, err := ReadToken(state, "/p"); err == nil || tok != "" {
		t.Fatalf("ReadToken trusted her file: %q", tok)
	}
	if tok, err := ProjectToken(state, "/p", false); !errors.Is(err, safefs.ErrUnsafe) {
		t.Fatalf("ProjectToken in her folder: %q, %v; want ErrUnsafe", tok, err)
	}
	if _, err := NewFileToken(state, "/p"); err == nil {
		t.Fatal("NewFileToken followed her file")
	}

	mine := t.TempDir()
	path = TokenPath(mine, "/p")
	if _, err := ProjectToken(mine, "/p", false); err != nil {
		t.Fatal(err)
	}
	for name, plant := range map[string]func(){
		"her file": func() { _ = os.WriteFile(path, []byte(forged), 0o600); _ = os.Chown(path, eve.UID, eve.GID) },
		"readable": func() { _ = os.WriteFile(path, []byte(forged), 0o644); _ = os.Chmod(path, 0o644) },
		"a link": func() {
			other := filepath.Join(shared, "hers.json")
			_ = os.WriteFile(other, []byte(forged), 0o600)
			_ = os.Remove(path)
			_ = os.Symlink(other, path)
		},
	} {
		plant()
		if tok, err := ReadToken(mine, "/p"); !errors.Is(err, safefs.ErrUnsafe) {
			t.Errorf("%s: ReadToken = %q, %v; want ErrUnsafe", name, tok, err)
		}
		if tok, err := ProjectToken(mine, "/p", false); err != nil || tok == strings.Repeat("E", 43) {
			t.Errorf("%s: ProjectToken = %q, %v; want a new token of its own", name, tok, err)
		}
	}
}
