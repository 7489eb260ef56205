// Package remotetest makes a machine for the remote tests on this one:
// an OpenSSH server in a network namespace of its own, reached over a
// veth pair with addresses of its own, with its own loopback (a debug
// server on the "remote" 127.0.0.1 is not reachable from here but
// through the tunnel) and a mount namespace in which a folder of the test
// shows as [RemoteRoot], a path that does not exist here (so the remote
// program's files are not found locally, as on another machine). A key
// is generated for the test; ssh checks the host's key against a
// known_hosts of the test's own.
//
// It needs root, ip(8), nsenter(1), unshare(1) and sshd (scripts/deps/
// remote.sh). [Start] says why when the machine cannot make namespaces,
// so the test checks the refusal instead.
package remotetest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/proc"
)

// RemoteRoot is where the namespace's processes see [Host.Root].
const RemoteRoot = "/srv/app"

// ErrNoNamespaces is returned by [Start] when this machine cannot make
// the namespaces (not root, no ip, the kernel refuses).
var ErrNoNamespaces = errors.New("cannot make a network namespace here")

// Host is an ssh server in a namespace of its own.
type Host struct {
	// Addr is the server's address, on the veth pair's far end.
	Addr string
	// User is the user ssh logs in as (this one).
	User string
	// Identity is the private key the server accepts.
	Identity string
	// SSHConfig is an ssh_config that checks the host's key against the
	// test's known_hosts (for DBG_SSH_CONFIG).
	SSHConfig string
	// Root is the local folder the namespace sees as RemoteRoot.
	Root string
	// TmpDir is the TMPDIR of the server's sessions: what remote
	// commands leave in their temporary folder is there.
	TmpDir string

	ns      string
	veth    string
	dir     string
	sshd    *exec.Cmd
	sshdOut *bytes.Buffer
}

// Start makes the namespaces and runs sshd in them; tb's cleanup removes
// them. An error wrapping ErrNoNamespaces says why the machine cannot.
func Start(tb testing.TB) (*Host, error) {
	tb.Helper()
	if os.Geteuid() != 0 {
		return nil, fmt.Errorf("%w: not root", ErrNoNamespaces)
	}
	for _, tool := range []string{"ip", "nsenter", "unshare", "ssh-keygen", "ssh"} {
		if _, err := exec.LookPath(tool); err != nil {
			return nil, fmt.Errorf("%w: no %s", ErrNoNamespaces, tool)
		}
	}
	sshd := "/usr/sbin/sshd"
	if _, err := os.Stat(sshd); err != nil {
		return nil, fmt.Errorf("no %s: run scripts/deps/remote.sh", sshd)
	}
	id := randomHex(3)
	h := &Host{ns: "dbg-" + id, veth: "dbgv" + id, dir: tb.TempDir(), User: "root"}
	h.Root, h.TmpDir = filepath.Join(h.dir, "root"), filepath.Join(h.dir, "tmp")
	for _, d := range []string{h.Root, h.TmpDir} {
		if err := os.Mkdir(d, 0o755); err != nil {
			return nil, err
		}
	}
	if out, err := run("ip", "netns", "add", h.ns); err != nil {
		return nil, fmt.Errorf("%w: ip netns add: %s", ErrNoNamespaces, out)
	}
	tb.Cleanup(h.close)
	_, remote, err := h.link()
	if err != nil {
		return nil, err
	}
	h.Addr = remote
	if err := h.keys(); err != nil {
		return nil, err
	}
	if err := h.startSSHD(sshd); err != nil {
		return nil, err
	}
	return h, nil
}

// link makes the veth pair, its far end in the namespace, with a /30 of
// 10.200.0.0/13 that this machine does not use.
func (h *Host) link() (local, remote string, err error) {
	used, _ := run("ip", "-o", "addr")
	var a, b string
	for range 50 {
		r := randUint32()
		pre := fmt.Sprintf("10.%d.%d.", 200+r%8, r>>3&0xff)
		if strings.Contains(used, " "+pre) {
			continue
		}
		z := int(r>>11&0x3f) * 4
		a, b = pre+strconv.Itoa(z+1), pre+strconv.Itoa(z+2)
		break
	}
	if a == "" {
		return "", "", errors.New("no free 10.200.0.0/13 network for the veth pair")
	}
	steps := [][]string{
		{"ip", "link", "add", h.veth + "a", "type", "veth", "peer", "name", h.veth + "b"},
		{"ip", "link", "set", h.veth + "b", "netns", h.ns},
		{"ip", "addr", "add", a + "/30", "dev", h.veth + "a"},
		{"ip", "link", "set", h.veth + "a", "up"},
		{"ip", "netns", "exec", h.ns, "ip", "addr", "add", b + "/30", "dev", h.veth + "b"},
		{"ip", "netns", "exec", h.ns, "ip", "link", "set", h.veth + "b", "up"},
		{"ip", "netns", "exec", h.ns, "ip", "link", "set", "lo", "up"},
	}
	for _, s := range steps {
		if out, err := run(s...); err != nil {
			return "", "", fmt.Errorf("%s: %s", strings.Join(s, " "), out)
		}
	}
	return a, b, nil
}

// keys generates the host's key and the user's, and writes the
// server's and the client's configuration.
func (h *Host) keys() error {
	hostKey, userKey := filepath.Join(h.dir, "host_key"), filepath.Join(h.dir, "id_ed25519")
	for _, k := range []string{hostKey, userKey} {
		if out, err := run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "dbg-test", "-f", k); err != nil {
			return fmt.Errorf("ssh-keygen: %s", out)
		}
	}
	h.Identity = userKey
	pub, err := os.ReadFile(userKey + ".pub")
	if err != nil {
		return err
	}
	hostPub, err := os.ReadFile(hostKey + ".pub")
	if err != nil {
		return err
	}
	fields := strings.Fields(string(hostPub))
	files := map[string]string{
		"authorized_keys": string(pub),
		"known_hosts":     h.Addr + " " + fields[0] + " " + fields[1] + "\n",
		"sshd_config": strings.Join([]string{
			"ListenAddress " + h.Addr + ":22",
			"HostKey " + hostKey,
			"AuthorizedKeysFile " + filepath.Join(h.dir, "authorized_keys"),
			"PubkeyAuthentication yes",
			"PasswordAuthentication no",
			"KbdInteractiveAuthentication no",
			"UsePAM no",
			"PermitRootLogin prohibit-password",
			// The test's folders are under /tmp, which sshd's check of
			// the key file's parents refuses (world-writable, sticky).
			"StrictModes no",
			"PidFile none",
			"AllowTcpForwarding local",
			"X11Forwarding no",
			"MaxSessions 64",
			"MaxStartups 64",
			"SetEnv TMPDIR=" + h.TmpDir,
			"LogLevel VERBOSE",
		}, "\n") + "\n",
		"ssh_config": strings.Join([]string{
			"Host *",
			"  UserKnownHostsFile " + filepath.Join(h.dir, "known_hosts"),
			"  GlobalKnownHostsFile /dev/null",
			"  StrictHostKeyChecking yes",
			"  IdentitiesOnly yes",
		}, "\n") + "\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(h.dir, name), []byte(content), 0o600); err != nil {
			return err
		}
	}
	h.SSHConfig = filepath.Join(h.dir, "ssh_config")
	return nil
}

// startSSHD runs sshd in the namespace, in a mount namespace where Root
// shows as RemoteRoot, and waits until it accepts connections.
func (h *Host) startSSHD(sshd string) error {
	if err := os.MkdirAll("/run/sshd", 0o755); err != nil {
		return err
	}
	script := fmt.Sprintf("mount -t tmpfs -o mode=0755 dbg-srv %s && mkdir -p %s && mount --bind %s %s && exec %s -D -e -f %s",
		filepath.Dir(RemoteRoot), RemoteRoot, h.Root, RemoteRoot, sshd, filepath.Join(h.dir, "sshd_config"))
	h.sshdOut = &bytes.Buffer{}
	h.sshd = exec.Command("ip", "netns", "exec", h.ns, "unshare", "--mount", "--propagation", "private", "sh", "-c", script)
	h.sshd.Stdout, h.sshd.Stderr = h.sshdOut, h.sshdOut
	h.sshd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := h.sshd.Start(); err != nil {
		return err
	}
	exited := make(chan struct{})
	go func() { _ = h.sshd.Wait(); close(exited) }()
	deadline := time.Now().Add(20 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", net.JoinHostPort(h.Addr, "22"), time.Second)
		if err == nil {
			_ = c.Close()
			return nil
		}
		select {
		case <-exited:
			return fmt.Errorf("sshd ended: %s", h.sshdOut.String())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("sshd does not accept connections at %s: %s", h.Addr, h.sshdOut.String())
		}
	}
}

// SSHDLog is what sshd logged.
func (h *Host) SSHDLog() string { return h.sshdOut.String() }

// Command is argv run in the namespace (its network and mount
// namespaces), as a program on the remote machine.
func (h *Host) Command(ctx context.Context, argv ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "nsenter", append([]string{"--target", strconv.Itoa(h.sshd.Process.Pid), "--net", "--mount", "--"}, argv...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	return cmd
}

// Processes lists the processes in the namespace (pid and command line)
// but sshd's listener and those of keep.
func (h *Host) Processes(keep ...int) map[int]string {
	nsStat, err := os.Stat("/run/netns/" + h.ns)
	if err != nil {
		return nil
	}
	want := nsStat.Sys().(*syscall.Stat_t).Ino
	out := map[int]string{}
	for _, pid := range proc.PIDs() {
		if pid == h.sshd.Process.Pid || contains(keep, pid) {
			continue
		}
		st, err := os.Stat(proc.Path(pid, "ns/net"))
		if err != nil || st.Sys().(*syscall.Stat_t).Ino != want {
			continue
		}
		cmd, _ := proc.Cmdline(pid)
		out[pid] = strings.Join(cmd, " ")
	}
	return out
}

func contains(list []int, n int) bool {
	for _, e := range list {
		if e == n {
			return true
		}
	}
	return false
}

func (h *Host) close() {
	if h.sshd != nil && h.sshd.Process != nil {
		_ = h.sshd.Process.Kill()
	}
	for pid := range h.Processes() {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	_, _ = run("ip", "link", "del", h.veth+"a")
	_, _ = run("ip", "netns", "del", h.ns)
}

func run(argv ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, argv[0], argv[1:]...).CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return fmt.Sprintf("%x", b)
}

func randUint32() uint32 {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return binary.BigEndian.Uint32(b[:])
}
