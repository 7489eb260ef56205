package debugtools

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/dbg-dev/dbg/safefs"
)

// attachDir is the folder one attach shares with the target JVM: a new
// folder of an unpredictable name in the target's /tmp, given to the
// JVM's user by its descriptor (safefs.HandOff), so that no other user
// can read, plant or replace anything in it. It holds the agent jar when
// the target cannot read dbg's own (another user, another mount
// namespace), and the port file the agent writes.
type attachDir struct {
	host   string // the folder, seen from dbg
	target string // the folder, seen from the target
	jar    string // the jar to load, seen from the target
	uid    int    // the JVM's user, who writes the port file
}

// newAttachDir makes the attach folder of j and stages jar in it when the
// target cannot read dbg's copy.
func newAttachDir(j *JVM, jar string) (*attachDir, error) {
	tp := pathsFor(j.PID)
	host, err := safefs.NewDir(tp.tmp, "dbg-attach-*")
	if err != nil {
		return nil, fmt.Errorf("make the attach folder in the target's /tmp: %w", err)
	}
	d := &attachDir{host: host, target: "/tmp/" + filepath.Base(host), jar: jar, uid: j.UID}
	if !SameMountNamespace(j.PID) || j.UID != os.Geteuid() {
		if err := copyFile(jar, filepath.Join(host, "dbg-agent.jar")); err != nil {
			d.remove()
			return nil, fmt.Errorf("copy the agent into the target's /tmp: %w", err)
		}
		d.jar = d.target + "/dbg-agent.jar"
	}
	if err := safefs.HandOff(host, j.UID, j.GID); err != nil {
		d.remove()
		return nil, fmt.Errorf("give the attach folder to uid %d: %w", j.UID, err)
	}
	return d, nil
}

// portFile is the port file's path as the target sees it, and as dbg does.
func (d *attachDir) portFile() (target, host string) {
	return d.target + "/port.json", filepath.Join(d.host, "port.json")
}

// readPort reads the port file: only one the JVM's user wrote.
func (d *attachDir) readPort() ([]byte, error) {
	_, host := d.portFile()
	return safefs.ReadOwned(host, d.uid, 64<<10)
}

// settled ends the attach's use of the folder: once the port file is
// read, a folder that holds no staged jar is removed at once (one with
// the jar stays until the server ends, as the JVM may read it again).
func (d *attachDir) settled() {
	if !strings.HasPrefix(d.jar, d.target+"/") {
		d.remove()
	}
}

// remove removes the folder and what it holds.
func (d *attachDir) remove() {
	if d != nil {
		_ = os.RemoveAll(d.host)
	}
}

// copyFile copies src to a new file dst (O_EXCL|O_NOFOLLOW), mode 0644.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := safefs.OpenNew(dst, 0o644)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}
