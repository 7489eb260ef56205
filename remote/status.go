package remote

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/dbg-dev/dbg/textcut"
	"github.com/dbg-dev/dbg/toolkit"
)

// ViaStatus is what get_debug_tools_status says of one via kind: whether
// its client tool is installed, whether it is set up (kubectl's context,
// docker's engine), and what to do next.
type ViaStatus struct {
	Installed  bool   `json:"installed"`
	Version    string `json:"version,omitempty"`
	Configured bool   `json:"configured"`
	Detail     string `json:"detail"`
	NextAction string `json:"nextAction"`
	Hint       string `json:"hint,omitempty"`
}

// statusTTL is how long a probe of the client tools is reused.
const statusTTL = 30 * time.Second

// statusCache probes the client tools at most once per statusTTL.
type statusCache struct {
	run Runner

	mu   sync.Mutex
	at   time.Time
	last map[string]ViaStatus
}

func newStatusCache(run Runner) *statusCache { return &statusCache{run: run} }

// get returns the status of every via kind, probing when the last probe
// is old.
func (c *statusCache) get(ctx context.Context) map[string]ViaStatus {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.last != nil && time.Since(c.at) < statusTTL {
		return c.last
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	var mu sync.Mutex
	out := map[string]ViaStatus{}
	var wg sync.WaitGroup
	for kind, probe := range map[string]func(context.Context) ViaStatus{KindSSH: c.ssh, KindDocker: c.docker, KindKubernetes: c.kubectl} {
		wg.Go(func() {
			st := probe(ctx)
			mu.Lock()
			out[kind] = st
			mu.Unlock()
		})
	}
	wg.Wait()
	c.last, c.at = out, time.Now()
	return out
}

// probe runs a tool's command; missing says it is not installed.
func (c *statusCache) probe(ctx context.Context, argv ...string) (out string, missing bool, err error) {
	out, err = c.run.Run(ctx, "", argv...)
	return out, errors.Is(err, exec.ErrNotFound), err
}

func (c *statusCache) ssh(ctx context.Context) ViaStatus {
	_, missing, err := c.probe(ctx, "ssh", "-V")
	if missing {
		return ViaStatus{Detail: "ssh is not installed", NextAction: toolkit.NextNone, Hint: "install OpenSSH's client (apt-get install openssh-client)"}
	}
	v := ""
	var ce *CommandError
	if errors.As(err, &ce) {
		v = textcut.Line(ce.Stderr)
	}
	return ViaStatus{Installed: true, Version: v, Configured: true, NextAction: toolkit.NextCreateDebugSession,
		Detail: "ssh runs with your own configuration, keys and agent",
		Hint:   `attach with via {"kind": "ssh", "host": ...}; list_remote_processes lists the host's processes`}
}

func (c *statusCache) docker(ctx context.Context) ViaStatus {
	out, missing, err := c.probe(ctx, "docker", "version", "--format", "{{.Server.Version}}")
	if missing {
		return ViaStatus{Detail: "docker is not installed", NextAction: toolkit.NextNone, Hint: "install the docker client to debug in containers"}
	}
	if err != nil {
		return ViaStatus{Installed: true, Detail: "the docker engine is not reachable: " + errorLine(err), NextAction: toolkit.NextNone,
			Hint: "start the engine, or point DOCKER_HOST (docker context use) at the one that runs your containers"}
	}
	return ViaStatus{Installed: true, Configured: true, Version: strings.TrimSpace(out), NextAction: toolkit.NextCreateDebugSession,
		Detail: "the docker engine " + strings.TrimSpace(out) + " is reachable",
		Hint:   `attach with via {"kind": "docker", "container": ...}`}
}

func (c *statusCache) kubectl(ctx context.Context) ViaStatus {
	out, missing, err := c.probe(ctx, "kubectl", "config", "current-context")
	if missing {
		return ViaStatus{Detail: "kubectl is not installed", NextAction: toolkit.NextNone, Hint: "install kubectl to debug in pods"}
	}
	if err != nil {
		return ViaStatus{Installed: true, Detail: "kubectl has no current context: " + errorLine(err), NextAction: toolkit.NextNone,
			Hint: "choose one with kubectl config use-context NAME, or pass via.context"}
	}
	ctxName := strings.TrimSpace(out)
	return ViaStatus{Installed: true, Configured: true, Detail: "kubectl's current context is " + ctxName, NextAction: toolkit.NextCreateDebugSession,
		Hint: `attach with via {"kind": "kubernetes", "pod": ..., "namespace": ...}`}
}

// errorLine is the last line a failed tool wrote.
func errorLine(err error) string {
	var ce *CommandError
	if errors.As(err, &ce) && strings.TrimSpace(ce.Stderr) != "" {
		return textcut.LastLines(strings.TrimSpace(ce.Stderr), 1)
	}
	return err.Error()
}

// statusPart is the remote capability's part of get_debug_tools_status.
type statusPart struct{ c *statusCache }

func (p statusPart) Status(ctx context.Context, _ toolkit.StatusQuery) toolkit.StatusPart {
	st := p.c.get(ctx)
	part := toolkit.StatusPart{Section: "remote", Data: st}
	for _, kind := range Kinds {
		s := st[kind]
		state := toolkit.Available
		switch {
		case !s.Installed:
			state = toolkit.Unavailable
		case !s.Configured && kind == KindKubernetes:
			state = toolkit.NotConfigured
		case !s.Configured:
			state = toolkit.Unavailable
		}
		part.Capabilities = append(part.Capabilities, toolkit.CapabilityState{Name: "remote." + kind, State: state, Reason: s.Detail})
	}
	return part
}
