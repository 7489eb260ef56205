package remote

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"

	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/textcut"
	"github.com/dbg-dev/dbg/toolkit"
)

// target is the machine (host, container, pod) a via reaches, through
// its client tool. Its methods honour ctx; close may be called once, from
// any goroutine, after the others returned.
type target interface {
	// tool is the client tool's name ("ssh", "docker", "kubectl").
	tool() string
	// exec runs a POSIX sh script on the target (sh -s, the script on
	// stdin) with args as its positional parameters, and returns its
	// stdout.
	exec(ctx context.Context, script string, args ...string) (string, error)
	// forward makes host:port as the target sees it reachable at the
	// returned address on this machine's loopback, until close.
	forward(ctx context.Context, host string, port int) (string, error)
	// fix is what makes the target able to do what it lacks: the debug
	// server's tracing (ptrace: true) or a missing tool, whose install is
	// install.
	fix(ptrace bool, install string) string
	close(ctx context.Context)
}

// freeLocalPort is a port of this machine's loopback nobody listens on
// now (the ssh forward that takes it may still lose it to a race, and
// is then retried).
func freeLocalPort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=@%+,", r))
	}) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// failed is the error of a client tool that failed while reaching via:
// the tool named with its stderr, a hint from what it said, and its
// command line in details. A ctx that ended is a TIMEOUT.
func failed(ctx context.Context, v sessions.Via, what string, err error) error {
	var te *toolkit.ToolError
	if errors.As(err, &te) {
		return err
	}
	var ce *CommandError
	tool := toolOf(v.Kind)
	stderr := err.Error()
	details := map[string]any{"tool": tool}
	if errors.As(err, &ce) {
		tool, stderr = ce.Argv[0], strings.TrimSpace(ce.Stderr)
		details = map[string]any{"tool": tool, "argv": ce.Argv, "exitCode": ce.ExitCode, "stderr": textcut.LastLines(stderr, 20)}
		if stderr == "" && ce.Err != nil {
			stderr = ce.Err.Error()
		}
	}
	if ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) {
		return toolkit.NewError(toolkit.CodeTimeout, fmt.Sprintf("%s did not finish %s within %s (via.timeoutMs)", tool, what, timeout(v)),
			fmt.Sprintf("check that %s reaches %s from this machine, or pass a larger via.timeoutMs", tool, String(v))).
			WithNext(toolkit.NextReconnect).WithDetails(details).Retry()
	}
	return toolkit.NewError(toolkit.CodeAttachFailed, fmt.Sprintf("%s failed %s: %s", tool, what, textcut.LastLines(stderr, 6)), hintFor(v, stderr)).
		WithNext(toolkit.NextReconnect).WithDetails(details)
}

// toolOf is the client tool of a via kind.
func toolOf(kind string) string {
	switch kind {
	case KindDocker:
		return "docker"
	case KindKubernetes:
		return "kubectl"
	}
	return "ssh"
}

// hintFor reads what the tool said and names the fix.
func hintFor(v sessions.Via, stderr string) string {
	has := func(subs ...string) bool {
		for _, s := range subs {
			if strings.Contains(strings.ToLower(stderr), strings.ToLower(s)) {
				return true
			}
		}
		return false
	}
	who := String(v)
	switch v.Kind {
	case KindSSH:
		login := "ssh " + strings.TrimPrefix(who, "ssh://")
		switch {
		case has("Host key verification failed", "REMOTE HOST IDENTIFICATION HAS CHANGED"):
			return "the host's key is not the one known_hosts holds (or none is): connect once with `" + login + "`, check its fingerprint and accept it; dbg never skips the check"
		case has("Permission denied", "Too many authentication failures"):
			return "ssh could not log in: check the key (via.identityFile) or your ssh-agent, and that `" + login + " true` works without a password (dbg runs ssh with BatchMode and never asks for one)"
		case has("Could not resolve hostname"):
			return "the host name does not resolve: pass an address, or a Host of your ~/.ssh/config"
		case has("Connection refused", "timed out", "No route to host", "Network is unreachable"):
			return "no ssh server answers there: check the address and via.port"
		}
		return "check that `" + login + " true` works from this machine"
	case KindDocker:
		switch {
		case has("Cannot connect to the Docker daemon", "docker daemon is not running", "error during connect"):
			return "the docker engine is not reachable: start it, or point DOCKER_HOST (or docker context use) at the one that runs the container"
		case has("permission denied while trying to connect"):
			return "this user may not use the docker engine: add it to the docker group, or run dbg as a user that may"
		case has("No such container", "No such object"):
			return "no container " + v.Container + ": docker ps lists the running ones"
		case has("is not running", "is paused", "is restarting"):
			return "the container is not running: docker start " + v.Container
		}
		return "check that `docker exec " + v.Container + " true` works"
	default:
		switch {
		case has("current-context is not set"):
			return "kubectl has no current context: pass via.context, or choose one with kubectl config use-context NAME"
		case has("does not exist") && has("context"):
			return "kubectl config get-contexts lists the contexts"
		case has("NotFound") && has("pods"):
			return "no such pod: kubectl get pods -n " + nsOr(v.Namespace) + " lists them"
		case has("container not found", "is not valid for pod"):
			return "the pod has no such container: kubectl get pod " + v.Pod + " -o jsonpath='{.spec.containers[*].name}' lists them"
		case has("Forbidden"):
			return "your kubectl user may not do this: kubectl auth can-i create pods/exec -n " + nsOr(v.Namespace)
		case has("Unable to connect to the server", "was refused", "i/o timeout", "no such host"):
			return "the cluster does not answer: check kubectl cluster-info and the context"
		}
		return "check that `kubectl exec " + v.Pod + " -- true` works"
	}
}

func nsOr(ns string) string {
	if ns == "" {
		return "default"
	}
	return ns
}

// hostPort joins host and port.
func hostPort(host string, port int) string { return net.JoinHostPort(host, strconv.Itoa(port)) }

// randomName is n random bytes in hex.
func randomName(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
