package debugtools

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/dbg-dev/dbg/proc"
	"github.com/dbg-dev/dbg/safefs"
	"github.com/dbg-dev/dbg/textcut"
)

// ErrNotAttachable is returned, wrapped, for targets dbg refuses to
// signal: not a HotSpot JVM, or one that would die of SIGQUIT or ignore it.
var ErrNotAttachable = errors.New("debugtools: JVM cannot be attached")

// AttachError says why an attach failed; Code is the JVM's return code
// when it answered, Err the cause when there is one.
type AttachError struct {
	PID  int
	Code int
	Msg  string
	Err  error
}

func (e *AttachError) Error() string {
	return fmt.Sprintf("attach to pid %d failed (code %d): %s", e.PID, e.Code, e.Msg)
}

// Unwrap returns the cause.
func (e *AttachError) Unwrap() error { return e.Err }

// CheckAttachable refuses JVMs that must not get SIGQUIT: a JVM started
// with -XX:+DisableAttachMechanism ignores attach requests, and with -Xrs
// or -XX:+ReduceSignalUsage SIGQUIT is not handled (it would kill the
// process). Non-HotSpot JVMs speak another attach protocol.
func CheckAttachable(j *JVM) error {
	opts := j.VMOptions()
	last := map[string]bool{}
	for _, o := range opts {
		switch o {
		case "-XX:+DisableAttachMechanism":
			last["attach"] = true
		case "-XX:-DisableAttachMechanism":
			last["attach"] = false
		case "-Xrs":
			last["xrs"] = true
		case "-XX:+ReduceSignalUsage":
			last["rsu"] = true
		case "-XX:-ReduceSignalUsage":
			last["rsu"] = false
		}
	}
	switch {
	case last["attach"]:
		return fmt.Errorf("%w: pid %d runs with -XX:+DisableAttachMechanism; restart it without that option", ErrNotAttachable, j.PID)
	case last["xrs"]:
		return fmt.Errorf("%w: pid %d runs with -Xrs, so SIGQUIT would terminate it; restart it without -Xrs", ErrNotAttachable, j.PID)
	case last["rsu"]:
		return fmt.Errorf("%w: pid %d runs with -XX:+ReduceSignalUsage, so SIGQUIT would terminate it", ErrNotAttachable, j.PID)
	}
	if !isHotSpot(j) {
		return fmt.Errorf("%w: pid %d is not a HotSpot JVM (%s)", ErrNotAttachable, j.PID, orUnknown(j.VMName))
	}
	return nil
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown VM"
	}
	return s
}

// isHotSpot requires the HotSpot library mapped into the process (so a
// stale hsperfdata file of a reused pid never makes dbg signal another
// program); when the mappings cannot be read, the VM name from hsperfdata
// decides.
func isHotSpot(j *JVM) bool {
	f, err := os.Open(proc.Path(j.PID, "maps"))
	if err != nil {
		n := strings.ToLower(j.VMName)
		return n != "" && !strings.Contains(n, "j9") && (strings.Contains(n, "hotspot") || strings.Contains(n, "openjdk") ||
			strings.Contains(n, "graalvm") || strings.Contains(n, "server vm") || strings.Contains(n, "client vm"))
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	hot := false
	for sc.Scan() {
		l := sc.Text()
		if strings.Contains(l, "libj9") {
			return false // OpenJ9 ships a libjvm.so shim too
		}
		if strings.HasSuffix(l, "/libjvm.so") {
			hot = true
		}
	}
	return hot
}

// checkUser refuses a JVM of another user unless dbg runs as root.
func checkUser(j *JVM) error {
	if os.Geteuid() != 0 && os.Geteuid() != j.UID {
		return &AttachError{PID: j.PID, Code: -1, Msg: fmt.Sprintf("the JVM runs as uid %d and dbg as uid %d; run dbg as that user", j.UID, os.Geteuid())}
	}
	return nil
}

// AttachOptions tune Attach.
type AttachOptions struct {
	// SocketTimeout bounds the wait for the attach socket after SIGQUIT
	// (default 10s, within ctx).
	SocketTimeout time.Duration
}

// targetPaths maps paths between dbg and the target's mount namespace.
type targetPaths struct {
	root string // the target's root directory, seen from dbg
	tmp  string // the target's /tmp, seen from dbg
}

func pathsFor(pid int) targetPaths {
	root := proc.Path(pid, "root")
	return targetPaths{root: root, tmp: filepath.Join(root, "tmp")}
}

// SameMountNamespace reports whether pid sees dbg's file system.
func SameMountNamespace(pid int) bool {
	a, err1 := proc.MountNamespace(os.Getpid())
	b, err2 := proc.MountNamespace(pid)
	return err1 == nil && err2 == nil && a == b
}

// LoadAgent attaches to the JVM j with the HotSpot dynamic attach
// protocol and loads the java agent jar (a path inside the target's file
// system) with args. It returns once the JVM answered the load command.
// It never signals a JVM that CheckAttachable refuses.
func LoadAgent(ctx context.Context, j *JVM, jar, args string, opt AttachOptions) error {
	if err := CheckAttachable(j); err != nil {
		return err
	}
	if opt.SocketTimeout <= 0 {
		opt.SocketTimeout = 10 * time.Second
	}
	if err := checkUser(j); err != nil {
		return err
	}
	conn, err := openAttachSocket(ctx, j, opt.SocketTimeout)
	if err != nil {
		return err
	}
	defer conn.Close()
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	} else {
		_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	}
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Now()) })
	defer stop()
	req := "1\x00load\x00instrument\x00false\x00" + jar
	if args != "" {
		req += "=" + args
	}
	req += "\x00"
	if _, err := io.WriteString(conn, req); err != nil {
		return fmt.Errorf("attach pid %d: send load: %w", j.PID, err)
	}
	reply, err := io.ReadAll(io.LimitReader(conn, 64<<10))
	if err != nil && len(reply) == 0 {
		if ctx.Err() != nil {
			return fmt.Errorf("attach pid %d: %w", j.PID, ctx.Err())
		}
		return fmt.Errorf("attach pid %d: read reply: %w", j.PID, err)
	}
	return parseLoadReply(j.PID, string(reply))
}

// parseLoadReply reads the attach listener's answer: the command status
// on the first line, then the agent's return code ("return code: N" on
// JDK 9+, a bare number on JDK 8) or an error text.
func parseLoadReply(pid int, reply string) error {
	lines := strings.Split(strings.TrimRight(reply, "\n"), "\n")
	status, err := strconv.Atoi(strings.TrimSpace(lines[0]))
	if err != nil {
		return &AttachError{PID: pid, Code: -1, Msg: "unexpected reply; the JVM wrote: " + textcut.Quote(reply, 200)}
	}
	rest := strings.TrimSpace(strings.Join(lines[1:], "\n"))
	if status != 0 {
		if rest == "" {
			return &AttachError{PID: pid, Code: status, Msg: "the JVM refused the load command"}
		}
		return &AttachError{PID: pid, Code: status, Msg: "the JVM refused the load command; it wrote: " + textcut.Quote(rest, 400)}
	}
	if rest == "" {
		return nil
	}
	first := strings.TrimSpace(strings.SplitN(rest, "\n", 2)[0])
	num := strings.TrimSpace(strings.TrimPrefix(first, "return code:"))
	if code, err := strconv.Atoi(num); err == nil {
		if code != 0 {
			return &AttachError{PID: pid, Code: code, Msg: "the agent failed to start (agentmain threw, or the jar is unreadable by the target); see the target's stderr"}
		}
		return nil
	}
	return &AttachError{PID: pid, Code: -1, Msg: "unexpected reply; the JVM wrote: " + textcut.Quote(rest, 400)}
}

// openAttachSocket connects to the JVM's attach listener, starting it
// with .attach_pid + SIGQUIT when it is not running yet. Anyone can make
// a socket of that name in /tmp first: dbg talks only to a socket owned
// by the JVM's user whose listener is the JVM itself (SO_PEERCRED).
func openAttachSocket(ctx context.Context, j *JVM, wait time.Duration) (net.Conn, error) {
	tp := pathsFor(j.PID)
	sock := filepath.Join(tp.tmp, ".java_pid"+strconv.Itoa(j.NSPID))
	c, err := dialAttach(ctx, j, sock)
	if err == nil || errors.Is(err, safefs.ErrUnsafe) {
		return c, err
	}
	// The JVM looks for the trigger file in its working directory, then
	// in its temp directory, and heeds one owned by its user or by root:
	// dbg makes a new one (never opening what is there, a link another
	// user planted) and never changes its owner.
	var trigger string
	for _, dir := range []string{proc.Path(j.PID, "cwd"), tp.tmp} {
		p := filepath.Join(dir, ".attach_pid"+strconv.Itoa(j.NSPID))
		f, err := safefs.OpenNew(p, 0o600)
		if err != nil {
			continue
		}
		f.Close()
		trigger = p
		break
	}
	if trigger == "" {
		return nil, &AttachError{PID: j.PID, Code: -1, Msg: "cannot create a new .attach_pid trigger file in the target's working or temp directory (one is there already, or neither can be written)"}
	}
	defer os.Remove(trigger)
	if err := syscall.Kill(j.PID, syscall.SIGQUIT); err != nil {
		return nil, &AttachError{PID: j.PID, Code: -1, Msg: "SIGQUIT: " + err.Error()}
	}
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	delay := 5 * time.Millisecond
	for {
		c, err := dialAttach(ctx, j, sock)
		if err == nil || errors.Is(err, safefs.ErrUnsafe) {
			return c, err
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("attach pid %d: waiting for the attach socket: %w", j.PID, ctx.Err())
		case <-deadline.C:
			t.Stop()
			return nil, &AttachError{PID: j.PID, Code: -1, Msg: fmt.Sprintf("the attach listener did not start within %s (socket %s)", wait, sock)}
		case <-t.C:
		}
		if delay < 25*time.Millisecond {
			delay *= 2
		}
	}
}

// dialAttach connects to the attach socket at path of j: a socket (not a
// link) owned by the JVM's user, whose listening end is the JVM's own
// process. Any other is refused with an error wrapping safefs.ErrUnsafe
// and is never written to.
func dialAttach(ctx context.Context, j *JVM, path string) (net.Conn, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&os.ModeSocket == 0 || safefs.Owner(fi) != j.UID {
		return nil, refusedSocket(j, &safefs.UnsafeError{Path: path,
			Reason: fmt.Sprintf("owned by uid %d, not by the JVM's uid %d, or not a socket", safefs.Owner(fi), j.UID)})
	}
	var d net.Dialer
	d.Timeout = 2 * time.Second
	c, err := d.DialContext(ctx, "unix", path)
	if err != nil {
		return nil, err
	}
	cred, err := peerCred(c)
	if err != nil || int(cred.Pid) != j.PID || int(cred.Uid) != j.UID {
		c.Close()
		who := "unknown"
		if err == nil {
			who = fmt.Sprintf("pid %d, uid %d", cred.Pid, cred.Uid)
		}
		return nil, refusedSocket(j, &safefs.UnsafeError{Path: path, Reason: "its listener is " + who + ", not the JVM"})
	}
	return c, nil
}

// refusedSocket is the error of an attach socket dbg does not trust.
func refusedSocket(j *JVM, why error) error {
	return &AttachError{PID: j.PID, Code: -1, Err: why,
		Msg: "refused the attach socket, which another user may have made: " + why.Error() + "; nothing was sent to it"}
}

// peerCred is the listening process of a connected UNIX socket.
func peerCred(c net.Conn) (*syscall.Ucred, error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return nil, errors.New("not a UNIX socket")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return nil, err
	}
	var cred *syscall.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return nil, err
	}
	return cred, cerr
}
