package remote

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"
	"sync"

	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
)

// dockerTarget is a running container, reached with the docker client:
// commands run with docker exec, and a forward is a listener on this
// machine's loopback whose every connection is relayed by a docker exec
// of a relay in the container to the container's own loopback, so the
// debug server is never published on a network.
type dockerTarget struct {
	v    sessions.Via
	run  Runner
	info dockerInfo

	mu     sync.Mutex
	lns    []net.Listener
	relays []Process
	closed bool
}

// dockerInfo is what docker inspect says of the container that dbg
// uses.
type dockerInfo struct {
	Name  string `json:"Name"`
	State struct {
		Status  string `json:"Status"`
		Running bool   `json:"Running"`
	} `json:"State"`
	HostConfig struct {
		CapAdd      []string `json:"CapAdd"`
		Privileged  bool     `json:"Privileged"`
		SecurityOpt []string `json:"SecurityOpt"`
	} `json:"HostConfig"`
	Config struct {
		Image string `json:"Image"`
	} `json:"Config"`
}

// dialDocker checks that the container runs.
func dialDocker(ctx context.Context, cfg Config, v sessions.Via) (*dockerTarget, error) {
	t := &dockerTarget{v: v, run: cfg.Runner}
	out, err := cfg.Runner.Run(ctx, "", "docker", "inspect", "--type", "container", "--format", "{{json .}}", v.Container)
	if err != nil {
		return nil, failed(ctx, v, "to find container "+v.Container, err)
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &t.info); err != nil {
		return nil, toolkit.NewError(toolkit.CodeAttachFailed, "docker inspect answered what dbg cannot read: "+err.Error(), "check the docker client (docker version)")
	}
	if !t.info.State.Running {
		return nil, toolkit.NewError(toolkit.CodeAttachFailed, fmt.Sprintf("docker: container %s is %s, not running", v.Container, t.info.State.Status),
			"start it: docker start "+v.Container).WithNext(toolkit.NextReconnect).WithDetails(map[string]any{"tool": "docker"})
	}
	return t, nil
}

func (t *dockerTarget) tool() string { return "docker" }

func (t *dockerTarget) exec(ctx context.Context, script string, args ...string) (string, error) {
	argv := append([]string{"docker", "exec", "-i", t.v.Container, "sh", "-s", "--"}, args...)
	out, err := t.run.Run(ctx, script, argv...)
	if err != nil {
		return out, failed(ctx, t.v, "to run a command in "+t.v.Container, err)
	}
	return out, nil
}

// relayScript copies its stdin and stdout to TCP $1:$2, with whichever of
// socat, nc, python, perl or bash the container has.
const relayScript = `h=$1; p=$2
if command -v socat >/dev/null 2>&1; then exec socat - "TCP:$h:$p"; fi
for py in python3 python; do
	if command -v "$py" >/dev/null 2>&1; then exec "$py" -c '
import socket, sys, threading
s = socket.create_connection((sys.argv[1], int(sys.argv[2])))
def up():
    while True:
        b = sys.stdin.buffer.read1(65536)
        if not b:
            break
        s.sendall(b)
    s.shutdown(socket.SHUT_WR)
threading.Thread(target=up, daemon=True).start()
while True:
    b = s.recv(65536)
    if not b:
        break
    sys.stdout.buffer.write(b)
    sys.stdout.buffer.flush()
' "$h" "$p"; fi
done
if command -v nc >/dev/null 2>&1; then exec nc "$h" "$p"; fi
if command -v perl >/dev/null 2>&1; then exec perl -MIO::Socket::INET -e '
my $s = IO::Socket::INET->new(PeerAddr => $ARGV[0], PeerPort => $ARGV[1]) or die "connect: $!\n";
$| = 1; binmode STDIN; binmode STDOUT;
if (fork) { my $b; while (sysread($s, $b, 65536)) { syswrite(STDOUT, $b) } exit }
my $b; while (sysread(STDIN, $b, 65536)) { syswrite($s, $b) } shutdown($s, 1);
' "$h" "$p"; fi
if command -v bash >/dev/null 2>&1; then exec bash -c 'exec 3<>"/dev/tcp/$0/$1"; cat <&3 & cat >&3' "$h" "$p"; fi
echo "dbg: the container has none of socat, python, nc, perl or bash to relay a connection with" >&2
exit 127
`

// forward listens on a free port of this machine's loopback; each
// connection is relayed by `docker exec -i CONTAINER sh -c RELAY` to
// host:port in the container.
func (t *dockerTarget) forward(ctx context.Context, host string, port int) (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		_ = ln.Close()
		return "", fmt.Errorf("the way to %s is closed", t.v.Container)
	}
	t.lns = append(t.lns, ln)
	t.mu.Unlock()
	argv := []string{"docker", "exec", "-i", t.v.Container, "sh", "-c", relayScript, "dbg-relay", host, fmt.Sprint(port)}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go t.relay(c, argv)
		}
	}()
	return ln.Addr().String(), nil
}

// relay copies c to and from a relay process until either ends.
func (t *dockerTarget) relay(c net.Conn, argv []string) {
	defer c.Close()
	p, err := t.run.Start(argv, nil)
	if err != nil {
		return
	}
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		p.Stop(context.Background())
		return
	}
	t.relays = append(t.relays, p)
	t.mu.Unlock()
	done := make(chan struct{}, 2)
	go func() { _, _ = io.Copy(p, c); _ = p.Close(); done <- struct{}{} }()
	go func() { _, _ = io.Copy(c, p); done <- struct{}{} }()
	<-done
	p.Stop(context.Background())
	t.mu.Lock()
	t.relays = slices.DeleteFunc(t.relays, func(q Process) bool { return q == p })
	t.mu.Unlock()
}

// fix names the docker run flag or the install the container needs.
func (t *dockerTarget) fix(ptrace bool, install string) string {
	if ptrace {
		caps := "it has no CAP_SYS_PTRACE"
		if t.info.HostConfig.Privileged || slices.ContainsFunc(t.info.HostConfig.CapAdd, func(c string) bool {
			return strings.EqualFold(strings.TrimPrefix(strings.ToUpper(c), "CAP_"), "SYS_PTRACE") || strings.EqualFold(c, "ALL")
		}) {
			caps = "it has CAP_SYS_PTRACE, so its seccomp profile or the host's kernel.yama.ptrace_scope refuses"
		}
		return fmt.Sprintf("container %s may not trace its processes (%s): recreate it with `docker run --cap-add=SYS_PTRACE --security-opt seccomp=unconfined ...` (docker compose: cap_add: [SYS_PTRACE])",
			t.v.Container, caps)
	}
	image := t.info.Config.Image
	if image == "" {
		image = "its image"
	}
	return fmt.Sprintf("in the container: `docker exec -u root %s sh -c '%s'`, or add it to %s so it stays", t.v.Container, installCommand(install), image)
}

// installCommand is the command of an install hint ("install gdb on the
// target (apt-get install gdb): ..." gives "apt-get install gdb").
func installCommand(fix string) string {
	if i := strings.Index(fix, "("); i >= 0 {
		if j := strings.Index(fix[i:], ")"); j > 0 {
			return fix[i+1 : i+j]
		}
	}
	return fix
}

func (t *dockerTarget) close(ctx context.Context) {
	t.mu.Lock()
	t.closed = true
	lns, relays := t.lns, t.relays
	t.lns, t.relays = nil, nil
	t.mu.Unlock()
	for _, ln := range lns {
		_ = ln.Close()
	}
	for _, p := range relays {
		p.Stop(ctx)
	}
}
