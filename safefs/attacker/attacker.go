// Package attacker gives tests a second local user, the attacker of a
// shared machine: a test makes the folders, files, links and sockets she
// would, as her, and checks that dbg refuses them. Only tests import it.
//
//	eve := attacker.New(t) // skips, saying why, where no user can be made
//	eve.MustRun(t, "mkdir", "-m", "777", dir) // a folder dbg must not trust
package attacker

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/proc"
)

// Name is the user the tests make (once per machine; it is kept).
const Name = "dbg-attacker"

// User is the second user.
type User struct {
	Name     string
	UID, GID int
}

// New returns the second user, making it with useradd when the machine
// has none yet. A test that cannot make one (dbg's tests not run as
// root, no useradd or setpriv) is skipped with the reason.
func New(t testing.TB) *User {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skipf("a second user is needed to play the attacker, and only root can make one and act as it (running as uid %d)", os.Geteuid())
	}
	for _, tool := range []string{"useradd", "setpriv"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: no second user can be made or acted as", tool)
		}
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		if u, err := user.Lookup(Name); err == nil {
			uid, _ := strconv.Atoi(u.Uid)
			gid, _ := strconv.Atoi(u.Gid)
			return &User{Name: Name, UID: uid, GID: gid}
		}
		// Packages tested in parallel may add the user at once: useradd
		// then fails on its lock or finds the user made, and the lookup
		// above tells.
		out, err := exec.Command("useradd", "--system", "--no-create-home", "--user-group", "--shell", "/usr/sbin/nologin", Name).CombinedOutput()
		if err != nil && time.Now().After(deadline) {
			t.Skipf("useradd %s: %v: %s", Name, err, out)
		}
		if err != nil {
			time.Sleep(100 * time.Millisecond)
		}
	}
}

// Command runs name as the user: her uid and gid, no other groups.
func (u *User) Command(ctx context.Context, name string, args ...string) *exec.Cmd {
	argv := append([]string{fmt.Sprintf("--reuid=%d", u.UID), fmt.Sprintf("--regid=%d", u.GID), "--clear-groups", "--", name}, args...)
	cmd := exec.CommandContext(ctx, "setpriv", argv...)
	cmd.Dir = "/"
	cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/nonexistent", "LANG=C"}
	return cmd
}

// Run runs name as the user and returns its combined output.
func (u *User) Run(name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := u.Command(ctx, name, args...).CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

// MustRun runs name as the user and fails the test when it fails.
func (u *User) MustRun(t testing.TB, name string, args ...string) string {
	t.Helper()
	out, err := u.Run(name, args...)
	if err != nil {
		t.Fatalf("as %s: %s %s: %v: %s", u.Name, name, strings.Join(args, " "), err, out)
	}
	return out
}

// ProtectedSymlinks reports the kernel's fs.protected_symlinks: when set,
// a symbolic link in a sticky world-writable folder is followed only by
// its owner, which blunts some attacks through /tmp. The tests log it,
// and dbg's defences never rely on it.
func ProtectedSymlinks(t testing.TB) bool {
	t.Helper()
	v, err := proc.Sysctl("fs.protected_symlinks")
	t.Logf("fs.protected_symlinks = %v", v)
	return err == nil && v == "1"
}

// SharedTemp returns a new folder that behaves like /tmp (mode 1777,
// reachable by every user), removed with the test.
func SharedTemp(t testing.TB) string {
	t.Helper()
	d := t.TempDir()
	for _, p := range []string{filepath.Dir(d), d} {
		m := os.FileMode(0o755)
		if p == d {
			m = 0o777 | os.ModeSticky
		}
		if err := os.Chmod(p, m); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

// holdScript opens sys.argv[2] connections to the host:port sys.argv[1]
// and keeps them. With sys.argv[4] "1" each first sends one request
// without credentials (and reads its answer); otherwise it sends
// nothing. With sys.argv[3] "1", one the server closes is opened again
// at once. It prints how many it opened and how many dials failed, then,
// when its stdin closes, how many it opened again.
const holdScript = `
import os, selectors, socket, sys
host, port = sys.argv[1].rsplit(":", 1)
reopen, ask = sys.argv[3] == "1", sys.argv[4] == "1"
request = ("GET /mcp HTTP/1.1\r\nHost: %s\r\n\r\n" % sys.argv[1]).encode()
def dial():
    s = socket.create_connection((host, int(port)), timeout=5)
    if ask:
        s.sendall(request)
    return s
sel = selectors.DefaultSelector()
failed, again = 0, 0
for _ in range(int(sys.argv[2])):
    try:
        sel.register(dial(), selectors.EVENT_READ)
    except OSError:
        failed += 1
print("held %d failed %d" % (len(sel.get_map()), failed), flush=True)
sel.register(sys.stdin, selectors.EVENT_READ)
while True:
    for key, _ in sel.select():
        if key.fileobj is sys.stdin:
            if not os.read(sys.stdin.fileno(), 1):
                print("again %d" % again, flush=True)
                sys.exit(0)
            continue
        try:
            data = key.fileobj.recv(4096)
        except OSError:
            data = b""
        if data:
            continue
        sel.unregister(key.fileobj)
        key.fileobj.close()
        if not reopen:
            continue
        try:
            sel.register(dial(), selectors.EVENT_READ)
            again += 1
        except OSError:
            failed += 1
`

// Flood is the attacker's idle connections to a server: [User.HoldSockets].
type Flood struct {
	Held, Failed int // connections open once all were dialled, and dials that failed
	stop         []func() int
}

// Stop closes the connections and returns how many were opened again
// after the server closed them.
func (f *Flood) Stop() (reopened int) {
	for _, s := range f.stop {
		reopened += s()
	}
	f.stop = nil
	return reopened
}

// FloodOptions say how the attacker's connections behave.
type FloodOptions struct {
	// Reopen opens a connection again at once when the server closes it.
	Reopen bool
	// Ask sends one HTTP request without credentials on each connection
	// first, and keeps the connection after the answer.
	Ask bool
}

// HoldSockets has the user open n TCP connections to addr (a few
// processes of hers, each within its descriptor limit) and keep them
// until Stop or the end of the test, as opt says. It returns once all
// were dialled.
func (u *User) HoldSockets(t testing.TB, addr string, n int, opt FloodOptions) *Flood {
	t.Helper()
	const perProcess = 9000
	type first struct{ held, failed int }
	firsts := make(chan first, n/perProcess+1)
	f := &Flood{}
	for left := n; left > 0; left -= perProcess {
		flag := func(b bool) string {
			if b {
				return "1"
			}
			return "0"
		}
		cmd := u.Command(context.Background(), "python3", "-c", holdScript, addr, strconv.Itoa(min(left, perProcess)), flag(opt.Reopen), flag(opt.Ask))
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(out)
		last := make(chan int, 1)
		go func() {
			var r first
			if sc.Scan() {
				_, _ = fmt.Sscanf(sc.Text(), "held %d failed %d", &r.held, &r.failed)
			}
			firsts <- r
			again := 0
			if sc.Scan() {
				_, _ = fmt.Sscanf(sc.Text(), "again %d", &again)
			}
			last <- again
		}()
		var once sync.Once
		var again int
		stop := func() int {
			once.Do(func() {
				_ = stdin.Close()
				select {
				case again = <-last:
				case <-time.After(30 * time.Second):
				}
				_ = cmd.Process.Kill()
				_ = cmd.Wait()
			})
			return again
		}
		f.stop = append(f.stop, stop)
		t.Cleanup(func() { stop() })
	}
	for range f.stop {
		r := <-firsts
		f.Held += r.held
		f.Failed += r.failed
	}
	return f
}
