package remote

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
)

// The kinds of via.
const (
	KindSSH        = "ssh"
	KindDocker     = "docker"
	KindKubernetes = "kubernetes"
)

// Kinds are the via kinds, in the order status lists them.
var Kinds = []string{KindSSH, KindDocker, KindKubernetes}

// defaultTimeout bounds a via that names no timeoutMs.
const defaultTimeout = 30 * time.Second

// ParseVia reads the CLI's --via: ssh://[user@]host[:port],
// docker://NAME or k8s://NS/POD[/CONTAINER] (kubernetes:// too; NS may be
// empty for the context's namespace: k8s:///POD).
func ParseVia(s string) (sessions.Via, error) {
	bad := func(why string) (sessions.Via, error) {
		return sessions.Via{}, toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("--via %q: %s", s, why),
			"use ssh://user@host[:port], docker://CONTAINER or k8s://NAMESPACE/POD[/CONTAINER]")
	}
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok {
		return bad("no scheme")
	}
	switch strings.ToLower(scheme) {
	case "ssh":
		u, err := url.Parse("ssh://" + rest)
		if err != nil || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
			return bad("not ssh://[user@]host[:port]")
		}
		v := sessions.Via{Kind: KindSSH, Host: u.Hostname(), User: u.User.Username()}
		if p := u.Port(); p != "" {
			n, err := strconv.Atoi(p)
			if err != nil {
				return bad("the port is not a number")
			}
			v.Port = toolkit.Int(n)
		}
		return v, checkVia(v)
	case "docker":
		v := sessions.Via{Kind: KindDocker, Container: strings.TrimSuffix(rest, "/")}
		return v, checkVia(v)
	case "k8s", "kubernetes", "kube":
		parts := strings.Split(strings.TrimSuffix(rest, "/"), "/")
		if len(parts) < 2 || len(parts) > 3 {
			return bad("not k8s://NAMESPACE/POD[/CONTAINER]")
		}
		v := sessions.Via{Kind: KindKubernetes, Namespace: parts[0], Pod: parts[1]}
		if len(parts) == 3 {
			v.Container = parts[2]
		}
		return v, checkVia(v)
	}
	return bad("the scheme is none of ssh, docker, k8s")
}

// String is the via as --via writes it.
func String(v sessions.Via) string {
	switch v.Kind {
	case KindSSH:
		h := v.Host
		if strings.Contains(h, ":") {
			h = "[" + h + "]"
		}
		if v.User != "" {
			h = v.User + "@" + h
		}
		if v.Port != 0 {
			h += ":" + strconv.Itoa(int(v.Port))
		}
		return "ssh://" + h
	case KindDocker:
		return "docker://" + v.Container
	case KindKubernetes:
		s := "k8s://" + v.Namespace + "/" + v.Pod
		if v.Container != "" {
			s += "/" + v.Container
		}
		return s
	}
	return v.Kind
}

// checkVia refuses a via that names nothing to reach, or names it with
// text a command line would read as an option or more than one word.
func checkVia(v sessions.Via) error {
	bad := func(field, why string) error {
		return toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("via.%s %s", field, why), viaHint(v.Kind))
	}
	word := func(field, s string, required bool) error {
		switch {
		case s == "" && required:
			return bad(field, "is required")
		case strings.HasPrefix(s, "-"):
			return bad(field, fmt.Sprintf("%q starts with '-'", s))
		case strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r == 0x7f }):
			return bad(field, fmt.Sprintf("%q holds spaces or control characters", s))
		}
		return nil
	}
	var errs []error
	switch v.Kind {
	case KindSSH:
		errs = append(errs, word("host", v.Host, true), word("user", v.User, false), word("identityFile", v.IdentityFile, false))
		if strings.Contains(v.User, "@") {
			errs = append(errs, bad("user", "holds '@'"))
		}
		// A host with a colon is an IPv6 address, or nothing ssh reaches.
		if strings.Contains(v.Host, ":") && net.ParseIP(v.Host) == nil {
			errs = append(errs, bad("host", fmt.Sprintf("%q is neither a host name nor an address", v.Host)))
		}
		if v.Port < 0 || v.Port > 65535 {
			errs = append(errs, bad("port", "is not a TCP port"))
		}
	case KindDocker:
		errs = append(errs, word("container", v.Container, true))
	case KindKubernetes:
		errs = append(errs, word("pod", v.Pod, true), word("namespace", v.Namespace, false), word("container", v.Container, false),
			word("context", v.Context, false), word("image", v.Image, false))
	default:
		return toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("via.kind %q is none of ssh, docker, kubernetes", v.Kind),
			"pass via.kind ssh (host), docker (container) or kubernetes (pod)").WithOptions(Kinds...)
	}
	if v.TimeoutMs < 0 {
		errs = append(errs, bad("timeoutMs", "is negative"))
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func viaHint(kind string) string {
	switch kind {
	case KindSSH:
		return `pass via {"kind": "ssh", "host": "HOST", "user": "USER"}, as ssh USER@HOST takes them`
	case KindDocker:
		return `pass via {"kind": "docker", "container": "NAME"}, a running container (docker ps)`
	}
	return `pass via {"kind": "kubernetes", "pod": "POD", "namespace": "NS"} (kubectl get pods -n NS)`
}

// timeout is the via's bound.
func timeout(v sessions.Via) time.Duration {
	if v.TimeoutMs > 0 {
		return time.Duration(v.TimeoutMs) * time.Millisecond
	}
	return defaultTimeout
}
