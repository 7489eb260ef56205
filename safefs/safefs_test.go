package safefs_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/dbg-dev/dbg/safefs"
	"github.com/dbg-dev/dbg/safefs/attacker"
)

func mode(t *testing.T, p string) fs.FileMode {
	t.Helper()
	fi, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode()
}

func TestDirMakesPrivateFolders(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	dir := filepath.Join(base, "a", "b")
	if err := safefs.Dir(dir); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(base, "a"), dir} {
		if m := mode(t, p); m.Perm() != 0o700 || !m.IsDir() {
			t.Errorf("%s: mode %v, want a 0700 folder", p, m)
		}
	}
	// A folder of this user others may read is tightened; one they may
	// write into is refused, never chmodded.
	loose := filepath.Join(base, "loose")
	if err := os.Mkdir(loose, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := safefs.Dir(loose); err != nil {
		t.Fatal(err)
	}
	if m := mode(t, loose); m.Perm() != 0o700 {
		t.Errorf("loose folder: mode %v, want 0700", m)
	}
	shared := filepath.Join(base, "shared")
	if err := os.Mkdir(shared, 0o777); err != nil {
		t.Fatal(err)
	}
	_ = os.Chmod(shared, 0o777|fs.ModeSticky)
	if err := safefs.Dir(shared); !errors.Is(err, safefs.ErrUnsafe) {
		t.Errorf("a shared folder of this user: %v, want ErrUnsafe", err)
	}
	if m := mode(t, shared); m.Perm() != 0o777 {
		t.Errorf("the shared folder's mode was changed to %v", m)
	}
}

func TestDirRefusesLinksAndLooseParents(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	target := filepath.Join(base, "target")
	if err := os.Mkdir(target, 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(base, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := safefs.Dir(link); !errors.Is(err, safefs.ErrUnsafe) {
		t.Errorf("a symbolic link as the folder: %v, want ErrUnsafe", err)
	}
	shared := filepath.Join(base, "shared")
	if err := os.Mkdir(shared, 0o777); err != nil {
		t.Fatal(err)
	}
	_ = os.Chmod(shared, 0o777) // no sticky bit: anyone can rename what is inside
	err := safefs.Dir(filepath.Join(shared, "mine"))
	if !errors.Is(err, safefs.ErrUnsafe) || !strings.Contains(err.Error(), shared) {
		t.Errorf("below a world-writable folder: %v, want ErrUnsafe naming %s", err, shared)
	}
	// Group-writable by this user's own group (umask 002): no one else's.
	own := filepath.Join(base, "own-group")
	if err := os.Mkdir(own, 0o775); err != nil {
		t.Fatal(err)
	}
	_ = os.Chmod(own, 0o775)
	if err := safefs.Dir(filepath.Join(own, "mine")); err != nil {
		t.Errorf("below a folder writable by this user's own group: %v", err)
	}
	sticky := filepath.Join(base, "sticky")
	if err := os.Mkdir(sticky, 0o777); err != nil {
		t.Fatal(err)
	}
	_ = os.Chmod(sticky, 0o777|fs.ModeSticky)
	if err := safefs.Dir(filepath.Join(sticky, "mine")); err != nil {
		t.Errorf("below a sticky folder like /tmp: %v", err)
	}
}

// The attacker makes dbg's folder first, mode 777, as she did with
// /tmp/dbg-state and /tmp/dbg-go-build-<uid>: it is refused, nothing is
// written into it, and a folder below one of hers is refused too.
func TestDirRefusesAFolderAnotherUserMadeFirst(t *testing.T) {
	eve := attacker.New(t)
	attacker.ProtectedSymlinks(t)
	base := attacker.SharedTemp(t)
	hers := filepath.Join(base, "dbg-state")
	eve.MustRun(t, "mkdir", "-m", "777", hers)
	err := safefs.Dir(hers)
	var ue *safefs.UnsafeError
	if !errors.As(err, &ue) || ue.Path != hers || !strings.Contains(ue.Reason, "owned by uid") {
		t.Fatalf("a folder the attacker made: %v, want an UnsafeError naming it and its owner", err)
	}
	if err := safefs.WriteFile(filepath.Join(hers, "token.json"), []byte("x"), 0o600); !errors.Is(err, safefs.ErrUnsafe) {
		t.Fatalf("WriteFile into her folder: %v, want ErrUnsafe", err)
	}
	if err := safefs.Dir(filepath.Join(hers, "sub")); !errors.Is(err, safefs.ErrUnsafe) {
		t.Fatalf("a folder below hers: %v, want ErrUnsafe", err)
	}
	if ents, _ := os.ReadDir(hers); len(ents) != 0 {
		t.Fatalf("dbg wrote into the attacker's folder: %v", ents)
	}
	// A folder of dbg's user that her group may write into.
	grp := filepath.Join(base, "group")
	if err := os.Mkdir(grp, 0o775); err != nil {
		t.Fatal(err)
	}
	_ = os.Chmod(grp, 0o775)
	_ = os.Chown(grp, os.Geteuid(), eve.GID)
	if err := safefs.Dir(filepath.Join(grp, "state")); !errors.Is(err, safefs.ErrUnsafe) {
		t.Fatalf("below a folder her group may write: %v, want ErrUnsafe", err)
	}
}

func TestCreateTempAndWriteFile(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "cache")
	f, err := safefs.CreateTemp(dir, "bin-*.tmp")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	name := filepath.Base(f.Name())
	if !strings.HasPrefix(name, "bin-") || !strings.HasSuffix(name, ".tmp") || len(name) < len("bin-.tmp")+24 {
		t.Errorf("name %q is not bin-<24 random hex>.tmp", name)
	}
	if m := mode(t, f.Name()); m.Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", m)
	}
	g, err := safefs.CreateTemp(dir, "bin-*.tmp")
	if err != nil {
		t.Fatal(err)
	}
	g.Close()
	if g.Name() == f.Name() {
		t.Fatal("two temporary files share a name")
	}
	p := filepath.Join(dir, "rec.json")
	for _, data := range []string{"one", "two"} {
		if err := safefs.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		b, err := safefs.ReadPrivate(p, 0)
		if err != nil || string(b) != data {
			t.Fatalf("read back %q, %v; want %q", b, err, data)
		}
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 3 {
		t.Errorf("a temporary file was left: %v", ents)
	}
}

func TestOpenNewNeverFollowsALink(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	if err := os.WriteFile(victim, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	trigger := filepath.Join(dir, ".attach_pid1")
	if err := os.Symlink(victim, trigger); err != nil {
		t.Fatal(err)
	}
	if f, err := safefs.OpenNew(trigger, 0o600); err == nil {
		f.Close()
		t.Fatal("OpenNew opened a symbolic link")
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Fatalf("the link's target changed: %q", b)
	}
	f, err := safefs.OpenNew(filepath.Join(dir, "fresh"), 0o600)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// The attacker's own token file, or a link to one, in dbg's place is
// not read as dbg's; neither is a file of dbg's that others can read.
func TestReadPrivateRefusesOtherUsersFiles(t *testing.T) {
	eve := attacker.New(t)
	dir := attacker.SharedTemp(t)
	hers := filepath.Join(dir, "hers.json")
	eve.MustRun(t, "sh", "-c", "umask 077; echo forged > "+hers)
	if _, err := safefs.ReadPrivate(hers, 0); !errors.Is(err, safefs.ErrUnsafe) {
		t.Errorf("her file: %v, want ErrUnsafe", err)
	}
	link := filepath.Join(dir, "link.json")
	mine := filepath.Join(dir, "mine.json")
	_ = os.WriteFile(mine, []byte("ok"), 0o600)
	_ = os.Symlink(mine, link)
	if _, err := safefs.ReadPrivate(link, 0); !errors.Is(err, safefs.ErrUnsafe) {
		t.Errorf("a link: %v, want ErrUnsafe", err)
	}
	open := filepath.Join(dir, "open.json")
	_ = os.WriteFile(open, []byte("ok"), 0o644)
	if _, err := safefs.ReadPrivate(open, 0); !errors.Is(err, safefs.ErrUnsafe) {
		t.Errorf("a 0644 file: %v, want ErrUnsafe", err)
	}
	if b, err := safefs.ReadOwned(hers, eve.UID, 0); err != nil || strings.TrimSpace(string(b)) != "forged" {
		t.Errorf("ReadOwned of her file as hers: %q %v", b, err)
	}
	if _, err := safefs.ReadOwned(mine, eve.UID, 0); !errors.Is(err, safefs.ErrUnsafe) {
		t.Errorf("ReadOwned of a file she did not write: %v, want ErrUnsafe", err)
	}
	if _, err := safefs.ReadPrivate(filepath.Join(dir, "none"), 0); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v, want ErrNotExist", err)
	}
}

func TestHandOffGivesTheFolderByItsDescriptor(t *testing.T) {
	eve := attacker.New(t)
	parent := attacker.SharedTemp(t)
	dir, err := safefs.NewDir(parent, "dbg-attach-*")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "agent.jar"), []byte("jar"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := safefs.HandOff(dir, eve.UID, eve.GID); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Lstat(dir)
	if safefs.Owner(fi) != eve.UID || fi.Mode().Perm() != 0o700 {
		t.Fatalf("handed-off folder: owner %d mode %v", safefs.Owner(fi), fi.Mode())
	}
	// She reads what dbg put there and writes her answer; dbg reads it as hers.
	eve.MustRun(t, "sh", "-c", "cat "+dir+"/agent.jar >/dev/null && echo 4242 > "+dir+"/port")
	if b, err := safefs.ReadOwned(filepath.Join(dir, "port"), eve.UID, 64); err != nil || strings.TrimSpace(string(b)) != "4242" {
		t.Fatalf("her answer: %q %v", b, err)
	}
	// A link in the folder's place is never followed.
	victim := filepath.Join(parent, "victim")
	_ = os.Mkdir(victim, 0o700)
	link := filepath.Join(parent, "link")
	_ = os.Symlink(victim, link)
	if err := safefs.HandOff(link, eve.UID, eve.GID); err == nil {
		t.Fatal("HandOff followed a symbolic link")
	}
	if fi, _ := os.Lstat(victim); safefs.Owner(fi) != os.Geteuid() {
		t.Fatal("the link's target changed owner")
	}
}

func TestTrusted(t *testing.T) {
	eve := attacker.New(t)
	if err := safefs.Trusted("/bin/sh"); err != nil {
		t.Errorf("/bin/sh: %v", err)
	}
	dir := attacker.SharedTemp(t)
	_ = os.Chmod(dir, 0o755)
	hers := filepath.Join(dir, "javac")
	if err := os.WriteFile(hers, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_ = os.Chown(hers, eve.UID, eve.GID)
	if err := safefs.Trusted(hers); !errors.Is(err, safefs.ErrUnsafe) {
		t.Errorf("her program: %v, want ErrUnsafe", err)
	}
	sub := filepath.Join(dir, "herdir")
	_ = os.Mkdir(sub, 0o755)
	_ = os.Chown(sub, eve.UID, eve.GID)
	mine := filepath.Join(sub, "javac")
	_ = os.WriteFile(mine, []byte("#!/bin/sh\n"), 0o755)
	if err := safefs.Trusted(mine); !errors.Is(err, safefs.ErrUnsafe) {
		t.Errorf("a program in her folder: %v, want ErrUnsafe", err)
	}
}

func TestStateDirWithoutHome(t *testing.T) {
	t.Parallel()
	env := map[string]string{"TMPDIR": "/var/tmp"}
	got := safefs.StateDir(func(k string) string { return env[k] })
	want := filepath.Join("/var/tmp", "dbg-"+strconv.Itoa(os.Geteuid()), "state")
	if got != want {
		t.Errorf("StateDir without HOME = %s, want %s", got, want)
	}
	env["HOME"] = "/home/u"
	if got := safefs.StateDir(func(k string) string { return env[k] }); got != "/home/u/.local/state/dbg" {
		t.Errorf("StateDir = %s", got)
	}
	env["DBG_STATE_DIR"] = "/s"
	if got := safefs.StateDir(func(k string) string { return env[k] }); got != "/s" {
		t.Errorf("StateDir = %s", got)
	}
}
