package daemon

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/cmd/internal/httpguard"
	"github.com/dbg-dev/dbg/proc"
	"github.com/dbg-dev/dbg/safefs/attacker"
)

func TestAnnounceFind(t *testing.T) {
	state := t.TempDir()
	if _, ok := Find(state, "/p"); ok {
		t.Fatal("found a daemon before any announced")
	}
	remove, err := Announce(state, "/p", "127.0.0.1:7077")
	if err != nil {
		t.Fatal(err)
	}
	d, ok := Find(state, "/p")
	if !ok || d.Addr != "127.0.0.1:7077" || d.PID != os.Getpid() || d.Start == "" {
		t.Fatalf("found %+v, %v", d, ok)
	}
	if st, _ := os.Stat(Path(state, "/p")); st.Mode().Perm() != 0o600 {
		t.Fatalf("record mode %v", st.Mode().Perm())
	}
	if _, ok := Find(state, "/q"); ok {
		t.Fatal("another project found this daemon")
	}
	remove()
	if _, ok := Find(state, "/p"); ok {
		t.Fatal("found after the record was removed")
	}
}

// TestFindRefusesStaleRecords: a record whose process is gone, or whose
// pid now belongs to another process, is not trusted.
func TestFindRefusesStaleRecords(t *testing.T) {
	state := t.TempDir()
	exe, _ := os.Executable()
	self := Record{Project: "/p", Addr: "127.0.0.1:1", PID: os.Getpid(), Start: proc.StartTime(os.Getpid()), Exe: exe}
	for name, mutate := range map[string]func(*Record){
		"other start time": func(r *Record) { r.Start = "1" },
		"no start time":    func(r *Record) { r.Start = "" },
		"other executable": func(r *Record) { r.Exe = "/bin/false" },
		"other project":    func(r *Record) { r.Project = "/q" },
		"no pid":           func(r *Record) { r.PID = 0 },
	} {
		t.Run(name, func(t *testing.T) {
			r := self
			mutate(&r)
			b, _ := json.Marshal(r)
			path := Path(state, "/p")
			if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
			if _, ok := Find(state, "/p"); ok {
				t.Fatalf("trusted %+v", r)
			}
		})
	}
}

// TestConnect reaches an announced, guarded MCP server with the
// project's token.
func TestConnect(t *testing.T) {
	state := t.TempDir()
	token, err := httpguard.ProjectToken(state, "/p", false)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	hs := &http.Server{Handler: httpguard.New(token, ln.Addr().(*net.TCPAddr).Port, time.Now).Wrap(mux)}
	go func() { _ = hs.Serve(ln) }()
	defer hs.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, ok := Connect(ctx, state, "/p", &mcp.Implementation{Name: "c", Version: "1"}); ok {
		t.Fatal("connected before the daemon announced itself")
	}
	remove, err := Announce(state, "/p", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer remove()
	cs, ok := Connect(ctx, state, "/p", &mcp.Implementation{Name: "c", Version: "1"})
	if !ok {
		t.Fatal("no connection to the announced daemon")
	}
	defer cs.Close()
	if err := cs.Ping(ctx, nil); err != nil {
		t.Fatal(err)
	}
	// A rotated token locks the old one out: the connection fails.
	if _, err := httpguard.ProjectToken(state, "/p", true); err != nil {
		t.Fatal(err)
	}
	if cs2, ok := Connect(ctx, state, "/p", &mcp.Implementation{Name: "c", Version: "1"}); ok {
		cs2.Close()
		t.Fatal("connected with a token the daemon does not hold")
	}
}

// A daemon record another user wrote, or one others can change, is not
// trusted: the token would go to the address it names.
func TestFindRefusesRecordsOthersWrote(t *testing.T) {
	eve := attacker.New(t)
	state := t.TempDir()
	remove, err := Announce(state, "/p", "127.0.0.1:7077")
	if err != nil {
		t.Fatal(err)
	}
	defer remove()
	path := Path(state, "/p")
	if _, ok := Find(state, "/p"); !ok {
		t.Fatal("its own record is not found")
	}
	if err := os.Chown(path, eve.UID, eve.GID); err != nil {
		t.Fatal(err)
	}
	if d, ok := Find(state, "/p"); ok {
		t.Fatalf("trusted a record of uid %d: %+v", eve.UID, d)
	}
	_ = os.Chown(path, os.Geteuid(), os.Getegid())
	_ = os.Chmod(path, 0o666)
	if d, ok := Find(state, "/p"); ok {
		t.Fatalf("trusted a record anyone can change: %+v", d)
	}
}
