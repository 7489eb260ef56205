package remote

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dbg-dev/dbg/safefs"
	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/textcut"
	"github.com/dbg-dev/dbg/toolkit"
)

// sshTarget is a host reached with the system's ssh, the user's own
// configuration, keys and agent: one master connection (ControlMaster)
// whose control socket is in a private folder of dbg's; every command
// and every forward goes over it; close ends it. ssh runs with BatchMode,
// so it never asks for a password or a new host key, and dbg never
// stores either.
type sshTarget struct {
	v      sessions.Via
	run    Runner
	opts   []string // ssh and its options, before the control ones
	sock   string
	dir    string // holds sock; removed at close
	master Process
	out    *lineRing // what the master said

	mu   sync.Mutex
	fwds []string // -L specs, cancelled at close
}

// dialSSH opens the master connection to v.Host within ctx.
func dialSSH(ctx context.Context, cfg Config, v sessions.Via) (*sshTarget, error) {
	parent, err := cfg.PrivateDir()
	if err != nil {
		return nil, toolkit.NewError(toolkit.CodeInternal, "no private folder for ssh's control socket: "+err.Error(),
			"make dbg's state folder (DBG_STATE_DIR) private to this user")
	}
	if len(parent) > maxSocketDir {
		// A socket's path is at most 108 bytes: this user's own short
		// folder in the temporary folder, made and checked.
		parent = safefs.PrivateTemp(nil)
	}
	dir, err := safefs.MkdirTemp(parent, "dbg-ssh-*")
	if err != nil {
		return nil, toolkit.NewError(toolkit.CodeInternal, "no private folder for ssh's control socket: "+err.Error(), "check dbg's state folder")
	}
	t := &sshTarget{v: v, run: cfg.Runner, dir: dir, sock: filepath.Join(dir, "cm"), out: &lineRing{max: 40}}
	secs := max(1, int(timeout(v)/time.Second))
	t.opts = []string{"ssh", "-o", "BatchMode=yes", "-o", "ConnectTimeout=" + strconv.Itoa(secs),
		"-o", "ServerAliveInterval=15", "-o", "ServerAliveCountMax=3"}
	if cfg.SSHConfig != "" {
		t.opts = append(t.opts, "-F", cfg.SSHConfig)
	}
	if v.User != "" {
		t.opts = append(t.opts, "-l", v.User)
	}
	if v.Port != 0 {
		t.opts = append(t.opts, "-p", strconv.Itoa(int(v.Port)))
	}
	if v.IdentityFile != "" {
		t.opts = append(t.opts, "-i", v.IdentityFile, "-o", "IdentitiesOnly=yes")
	}
	argv := append(append([]string(nil), t.opts...), "-M", "-S", t.sock, "-N", "-T", "-o", "ControlPersist=no", "--", v.Host)
	t.master, err = cfg.Runner.Start(argv, func(_, line string) { t.out.add(line) })
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, failed(ctx, v, "to start", err)
	}
	if err := t.waitReady(ctx, argv); err != nil {
		t.close(context.WithoutCancel(ctx))
		return nil, err
	}
	return t, nil
}

// waitReady waits until the master's control socket exists (ssh makes
// it once logged in), the master ends, or ctx does.
func (t *sshTarget) waitReady(ctx context.Context, argv []string) error {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		if st, err := os.Stat(t.sock); err == nil && st.Mode()&os.ModeSocket != 0 {
			return nil
		}
		select {
		case <-t.master.Exited():
			return failed(ctx, t.v, "to connect to "+t.v.Host, &CommandError{Argv: argv, ExitCode: 255, Stderr: t.out.String()})
		case <-ctx.Done():
			return failed(ctx, t.v, "to connect to "+t.v.Host, ctx.Err())
		case <-tick.C:
		}
	}
}

func (t *sshTarget) tool() string { return "ssh" }

// client is ssh over the master, with args after the host.
func (t *sshTarget) client(control []string, args ...string) []string {
	argv := append(append([]string(nil), t.opts...), "-S", t.sock, "-o", "ControlMaster=no")
	argv = append(append(argv, control...), "--", t.v.Host)
	return append(argv, args...)
}

func (t *sshTarget) exec(ctx context.Context, script string, args ...string) (string, error) {
	cmd := "sh -s --"
	for _, a := range args {
		cmd += " " + shellQuote(a)
	}
	out, err := t.run.Run(ctx, script, t.client([]string{"-T", "-o", "RemoteCommand=none", "-o", "RequestTTY=no"}, cmd)...)
	if err != nil {
		return out, failed(ctx, t.v, "to run a command on "+t.v.Host, err)
	}
	return out, nil
}

// forward adds a local forward to the master: a free port of this
// machine's loopback to host:port as the target sees it. A port lost to
// a race is tried again with another.
func (t *sshTarget) forward(ctx context.Context, host string, port int) (string, error) {
	var last error
	for range 3 {
		lp, err := freeLocalPort()
		if err != nil {
			return "", err
		}
		spec := fmt.Sprintf("127.0.0.1:%d:%s:%d", lp, sshForwardHost(host), port)
		_, err = t.run.Run(ctx, "", t.client([]string{"-O", "forward", "-L", spec})...)
		if err == nil {
			t.mu.Lock()
			t.fwds = append(t.fwds, spec)
			t.mu.Unlock()
			return hostPort("127.0.0.1", lp), nil
		}
		last = err
		if ctx.Err() != nil || !strings.Contains(err.Error(), "forward") {
			break
		}
	}
	return "", failed(ctx, t.v, fmt.Sprintf("to forward port %d of %s", port, t.v.Host), last)
}

// sshForwardHost writes an IPv6 address as -L takes it.
func sshForwardHost(h string) string {
	if strings.Contains(h, ":") {
		return "[" + h + "]"
	}
	return h
}

// fix: what the host needs is the install, run there, or the right to
// trace another process of the user (root, or kernel.yama.ptrace_scope).
func (t *sshTarget) fix(ptrace bool, install string) string {
	if ptrace {
		return "the kernel on " + t.v.Host + " refused to let the debug server trace the program: connect as the program's user or as root, and check kernel.yama.ptrace_scope there (sysctl kernel.yama.ptrace_scope=0 lets a user trace its own processes)"
	}
	return "on " + t.v.Host + ": " + install
}

// close cancels the forwards, ends the master and removes its folder.
func (t *sshTarget) close(ctx context.Context) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if t.master != nil {
		select {
		case <-t.master.Exited():
		default:
			t.mu.Lock()
			fwds := t.fwds
			t.fwds = nil
			t.mu.Unlock()
			for _, spec := range fwds {
				_, _ = t.run.Run(ctx, "", t.client([]string{"-O", "cancel", "-L", spec})...)
			}
			_, _ = t.run.Run(ctx, "", t.client([]string{"-O", "exit"})...)
		}
		t.master.Stop(ctx)
	}
	_ = os.RemoveAll(t.dir)
}

// lineRing keeps the last max lines a tool wrote.
type lineRing struct {
	mu    sync.Mutex
	max   int
	lines []string
}

func (r *lineRing) add(line string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lines = append(r.lines, textcut.Clip(line, 500))
	if len(r.lines) > r.max {
		r.lines = r.lines[len(r.lines)-r.max:]
	}
}

func (r *lineRing) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.lines, "\n")
}

// maxSocketDir is the longest folder whose control socket path fits a
// UNIX socket address (107 bytes): the folder, "/dbg-ssh-" and its
// random 24-byte name, "/cm", and the 17 bytes ssh appends to it while
// the master starts.
const maxSocketDir = 107 - len("/dbg-ssh-") - 24 - len("/cm") - 17
