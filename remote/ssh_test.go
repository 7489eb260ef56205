package remote

import (
	"bufio"
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/remote/remotetest"
	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
)

// sshHost starts the test's ssh server, or checks, where the machine
// cannot make namespaces, that the refusal says why and stops the test.
func sshHost(t *testing.T) *remotetest.Host {
	t.Helper()
	h, err := remotetest.Start(t)
	if errors.Is(err, remotetest.ErrNoNamespaces) {
		if !strings.Contains(err.Error(), ":") {
			t.Fatalf("the refusal says no why: %v", err)
		}
		t.Skipf("ssh end to end needs a network namespace: %v (the refusal was checked)", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func sshVia(h *remotetest.Host) sessions.Via {
	return sessions.Via{Kind: KindSSH, Host: h.Addr, User: h.User, IdentityFile: h.Identity}
}

func sshConfig(t *testing.T, h *remotetest.Host) Config {
	return Config{Adapters: adapters.Default(), Runner: ExecRunner{}, SSHConfig: h.SSHConfig,
		PrivateDir: func() (string, error) { return t.TempDir(), nil }}
}

// TestSSHTarget runs a command on the namespace's host over one master
// connection, forwards a port of its loopback, which this machine cannot
// reach otherwise, and leaves nothing when closed.
func TestSSHTarget(t *testing.T) {
	t.Parallel()
	h := sshHost(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tg, err := dialSSH(ctx, sshConfig(t, h), sshVia(h))
	if err != nil {
		t.Fatalf("%v\nsshd: %s", err, h.SSHDLog())
	}
	out, err := tg.exec(ctx, `printf '%s|%s|' "$1" "$2"; cat /proc/net/route | wc -l`, "it's", "two words")
	if err != nil || !strings.HasPrefix(out, "it's|two words|") {
		t.Fatalf("exec: %q %v", out, err)
	}
	// A listener on the namespace's own loopback.
	srv := h.Command(ctx, "python3", "-c", `import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
print(s.getsockname()[1], flush=True)
c, _ = s.accept(); c.sendall(b"hello " + c.recv(100)); c.close()`)
	stdout, _ := srv.StdoutPipe()
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer srv.Process.Kill()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	port, _ := strconv.Atoi(strings.TrimSpace(line))
	if c, err := net.DialTimeout("tcp", hostPort("127.0.0.1", port), time.Second); err == nil {
		// Not the namespace's listener, unless the tunnel is not needed.
		c.Close()
	}
	addr, err := tg.forward(ctx, "127.0.0.1", port)
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = c.Write([]byte("tunnel"))
	got, _ := bufio.NewReader(c).ReadString('\x00')
	c.Close()
	if got != "hello tunnel" {
		t.Fatalf("through the forward: %q", got)
	}
	sock := tg.sock
	tg.close(ctx)
	if _, err := os.Stat(filepath.Dir(sock)); !os.IsNotExist(err) {
		t.Errorf("the control socket's folder is left: %v", err)
	}
	select {
	case <-tg.master.Exited():
	default:
		t.Error("the master connection still runs")
	}
	if _, err := net.Dial("tcp", addr); err == nil {
		t.Error("the forward still listens after close")
	}
	waitNoSessions(t, h, srv.Process.Pid)
}

// waitNoSessions waits until the server has no session process left.
func waitNoSessions(t *testing.T, h *remotetest.Host, keep ...int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		left := h.Processes(keep...)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("left on the host: %v", left)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestSSHFailures: a key the server refuses and a host key known_hosts
// does not hold fail naming ssh with its stderr and the fix; a host
// that does not answer fails within the via's timeout.
func TestSSHFailures(t *testing.T) {
	t.Parallel()
	h := sshHost(t)
	ctx := context.Background()
	cfg := sshConfig(t, h)
	other := filepath.Join(t.TempDir(), "other")
	if out, err := remotetestKey(other); err != nil {
		t.Fatal(out)
	}
	v := sshVia(h)
	v.IdentityFile = other
	_, err := dialSSH(ctx, cfg, v)
	checkToolError(t, err, toolkit.CodeAttachFailed, "ssh", "Permission denied", "identityFile")

	cfg.SSHConfig = filepath.Join(t.TempDir(), "strict")
	if err := os.WriteFile(cfg.SSHConfig, []byte("Host *\n  UserKnownHostsFile /dev/null\n  GlobalKnownHostsFile /dev/null\n  StrictHostKeyChecking yes\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = dialSSH(ctx, cfg, sshVia(h))
	checkToolError(t, err, toolkit.CodeAttachFailed, "ssh", "Host key verification failed", "fingerprint")

	// An address of the test's network that nobody holds: ssh waits for
	// an answer that never comes, and the via's timeout ends it.
	v = sshVia(h)
	v.Host, v.TimeoutMs = strings.TrimSuffix(h.Addr, ".2")+".3", 1500
	tctx, cancel := context.WithTimeout(ctx, timeout(v))
	defer cancel()
	start := time.Now()
	_, err = dialSSH(tctx, sshConfig(t, h), v)
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("an unanswered host took %s, beyond the via's 1.5 s timeout", took)
	}
	if te := toolkit.AsToolError(err); te == nil || (te.Code != toolkit.CodeTimeout && te.Code != toolkit.CodeAttachFailed) {
		t.Errorf("unanswered host: %v", err)
	}
}

func checkToolError(t *testing.T, err error, code, tool, says, hint string) {
	t.Helper()
	te := toolkit.AsToolError(err)
	if te == nil {
		t.Fatalf("want a %s error, got %v", code, err)
	}
	if te.Code != code || !strings.Contains(te.Message, tool) || !strings.Contains(te.Message, says) || !strings.Contains(te.Hint, hint) {
		t.Errorf("error %s %q (hint %q): want %s naming %s, saying %q, hint with %q", te.Code, te.Message, te.Hint, code, tool, says, hint)
	}
	if te.NextAction == "" {
		t.Errorf("error %q has no nextAction", te.Message)
	}
	if d, ok := te.Details.(map[string]any); !ok || d["tool"] != tool {
		t.Errorf("details %v do not name %s", te.Details, tool)
	}
}

// remotetestKey generates a key the test's server does not accept.
func remotetestKey(path string) (string, error) {
	out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", path).CombinedOutput()
	return string(out), err
}
