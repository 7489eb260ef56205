package remote

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
)

// kubeTarget is a container of a running pod, reached with kubectl:
// commands run with kubectl exec, forwards are kubectl port-forward
// (which connects to the pod's own loopback). With via.image, the debug
// server runs in an ephemeral container of that image (kubectl debug
// --target, sharing the container's processes, with the general profile,
// which allows ptrace): for native code and images without the tools.
// Kubernetes cannot remove an ephemeral container; dbg's ends with the
// session and stays in the pod's spec as terminated, which the answer
// says.
type kubeTarget struct {
	v         sessions.Via
	run       Runner
	base      []string // kubectl with --context and -n
	container string   // the app container
	execIn    string   // where commands run: the app container, or the ephemeral one

	mu    sync.Mutex
	fwds  []Process
	debug string // the ephemeral container, once made
}

// kubePod is what kubectl get pod -o json says of the pod that dbg uses.
type kubePod struct {
	Metadata struct {
		Annotations map[string]string `json:"annotations"`
	} `json:"metadata"`
	Spec struct {
		Containers []struct {
			Name string `json:"name"`
		} `json:"containers"`
	} `json:"spec"`
	Status struct {
		Phase             string `json:"phase"`
		ContainerStatuses []struct {
			Name  string `json:"name"`
			State struct {
				Running *struct{} `json:"running"`
			} `json:"state"`
		} `json:"containerStatuses"`
		EphemeralContainerStatuses []struct {
			Name  string `json:"name"`
			State struct {
				Running    *struct{} `json:"running"`
				Terminated *struct {
					Reason string `json:"reason"`
				} `json:"terminated"`
			} `json:"state"`
		} `json:"ephemeralContainerStatuses"`
	} `json:"status"`
}

// dialKube checks the pod and picks its container: via.container, the
// default-container annotation, else the first.
func dialKube(ctx context.Context, cfg Config, v sessions.Via) (*kubeTarget, error) {
	t := &kubeTarget{v: v, run: cfg.Runner, base: []string{"kubectl"}}
	if v.Context != "" {
		t.base = append(t.base, "--context", v.Context)
	}
	if v.Namespace != "" {
		t.base = append(t.base, "-n", v.Namespace)
	}
	pod, err := t.pod(ctx)
	if err != nil {
		return nil, err
	}
	if pod.Status.Phase != "Running" {
		return nil, toolkit.NewError(toolkit.CodeAttachFailed, fmt.Sprintf("kubectl: pod %s is %s, not Running", v.Pod, pod.Status.Phase),
			"kubectl describe pod "+v.Pod+" says why").WithNext(toolkit.NextReconnect).WithDetails(map[string]any{"tool": "kubectl"})
	}
	var names []string
	for _, c := range pod.Spec.Containers {
		names = append(names, c.Name)
	}
	t.container = v.Container
	if t.container == "" {
		t.container = pod.Metadata.Annotations["kubectl.kubernetes.io/default-container"]
	}
	if t.container == "" && len(names) > 0 {
		t.container = names[0]
	}
	if !slices.Contains(names, t.container) {
		return nil, toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("kubectl: pod %s has no container %q", v.Pod, t.container),
			"pass via.container, one of availableOptions").WithOptions(names...)
	}
	for _, cs := range pod.Status.ContainerStatuses {
		if cs.Name == t.container && cs.State.Running == nil {
			return nil, toolkit.NewError(toolkit.CodeAttachFailed, fmt.Sprintf("kubectl: container %s of pod %s is not running", t.container, v.Pod),
				"kubectl describe pod "+v.Pod+" says why").WithNext(toolkit.NextReconnect).WithDetails(map[string]any{"tool": "kubectl"})
		}
	}
	t.execIn = t.container
	return t, nil
}

func (t *kubeTarget) pod(ctx context.Context) (*kubePod, error) {
	out, err := t.run.Run(ctx, "", t.argv("get", "pod", t.v.Pod, "-o", "json")...)
	if err != nil {
		return nil, failed(ctx, t.v, "to find pod "+t.v.Pod, err)
	}
	var pod kubePod
	if err := json.Unmarshal([]byte(out), &pod); err != nil {
		return nil, toolkit.NewError(toolkit.CodeAttachFailed, "kubectl get pod answered what dbg cannot read: "+err.Error(), "check the kubectl client (kubectl version)")
	}
	return &pod, nil
}

func (t *kubeTarget) argv(args ...string) []string {
	return append(append([]string(nil), t.base...), args...)
}

func (t *kubeTarget) tool() string { return "kubectl" }

func (t *kubeTarget) exec(ctx context.Context, script string, args ...string) (string, error) {
	t.mu.Lock()
	in := t.execIn
	t.mu.Unlock()
	out, err := t.run.Run(ctx, script, t.argv(append([]string{"exec", "-i", t.v.Pod, "-c", in, "--", "sh", "-s", "--"}, args...)...)...)
	if err != nil {
		return out, failed(ctx, t.v, "to run a command in pod "+t.v.Pod, err)
	}
	return out, nil
}

// kubeForwarding is kubectl port-forward's line for the local port.
var kubeForwarding = regexp.MustCompile(`^Forwarding from 127\.0\.0\.1:(\d+) -> \d+`)

// forward runs kubectl port-forward to the pod's port, on a port of
// this machine's loopback it picks, and waits for its "Forwarding from"
// line. kubectl reaches the pod's loopback only.
func (t *kubeTarget) forward(ctx context.Context, host string, port int) (string, error) {
	if !isLoopback(host) {
		return "", toolkit.NewError(toolkit.CodeUnsupported, fmt.Sprintf("the debugger port listens on %s in the pod, and kubectl port-forward reaches only the pod's loopback", host),
			"bind the debug server to 127.0.0.1 (or every address) in the pod")
	}
	got := make(chan int, 1)
	argv := t.argv("port-forward", "pod/"+t.v.Pod, "--address", "127.0.0.1", ":"+strconv.Itoa(port))
	p, err := t.run.Start(argv, func(_, line string) {
		if m := kubeForwarding.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[1])
			select {
			case got <- n:
			default:
			}
		}
	})
	if err != nil {
		return "", failed(ctx, t.v, "to forward a port", err)
	}
	select {
	case n := <-got:
		t.mu.Lock()
		t.fwds = append(t.fwds, p)
		t.mu.Unlock()
		return hostPort("127.0.0.1", n), nil
	case <-p.Exited():
		return "", failed(ctx, t.v, fmt.Sprintf("to forward port %d of pod %s", port, t.v.Pod), &CommandError{Argv: argv, ExitCode: 1, Stderr: p.StderrTail()})
	case <-ctx.Done():
		p.Stop(context.WithoutCancel(ctx))
		return "", failed(ctx, t.v, fmt.Sprintf("to forward port %d of pod %s", port, t.v.Pod), ctx.Err())
	}
}

// debugContainer runs via.image as an ephemeral container targeting the
// app container, which waits until dbg tells it to end, and sends the
// commands that follow to it.
func (t *kubeTarget) debugContainer(ctx context.Context) (warning string, err error) {
	name := "dbg-" + randomName(4)
	_, err = t.run.Run(ctx, "", t.argv("debug", t.v.Pod, "--target="+t.container, "--image="+t.v.Image, "--profile=general",
		"--container="+name, "--attach=false", "--quiet", "--", "sh", "-c", "while [ ! -e /tmp/dbg-done ]; do sleep 1; done")...)
	if err != nil {
		return "", failed(ctx, t.v, "to add an ephemeral debug container to pod "+t.v.Pod, err)
	}
	t.mu.Lock()
	t.debug = name
	t.mu.Unlock()
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		pod, err := t.pod(ctx)
		if err != nil {
			return "", err
		}
		for _, s := range pod.Status.EphemeralContainerStatuses {
			if s.Name != name {
				continue
			}
			if s.State.Running != nil {
				t.mu.Lock()
				t.execIn = name
				t.mu.Unlock()
				return fmt.Sprintf("dbg added ephemeral container %s (image %s) to pod %s for the debug server; Kubernetes cannot remove an ephemeral container: it ends with the session and stays in the pod's spec as terminated until the pod is replaced",
					name, t.v.Image, t.v.Pod), nil
			}
			if s.State.Terminated != nil {
				return "", toolkit.NewError(toolkit.CodeAttachFailed, fmt.Sprintf("kubectl: ephemeral container %s ended at once (%s)", name, s.State.Terminated.Reason),
					"check that image "+t.v.Image+" has sh: kubectl describe pod "+t.v.Pod)
			}
		}
		select {
		case <-ctx.Done():
			return "", failed(ctx, t.v, "to start ephemeral container "+name, ctx.Err())
		case <-tick.C:
		}
	}
}

func (t *kubeTarget) fix(ptrace bool, install string) string {
	if ptrace {
		return fmt.Sprintf("container %s may not trace its processes: pass via.image, an image with the debug server, and dbg runs it in an ephemeral container with kubectl debug --target=%s --profile=general (which allows ptrace)", t.container, t.container)
	}
	return fmt.Sprintf("the image of container %s lacks it: pass via.image, an image that has it (%s), and dbg runs the debug server in an ephemeral container of that image (kubectl debug --target=%s --image=IMAGE --profile=general); Kubernetes cannot remove ephemeral containers afterwards",
		t.container, installCommand(install), t.container)
}

// close stops the forwards and ends the ephemeral container.
func (t *kubeTarget) close(ctx context.Context) {
	t.mu.Lock()
	fwds, debug := t.fwds, t.debug
	t.fwds, t.debug = nil, ""
	t.mu.Unlock()
	for _, p := range fwds {
		p.Stop(ctx)
	}
	if debug != "" {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		_, _ = t.run.Run(cctx, "", t.argv("exec", t.v.Pod, "-c", debug, "--", "touch", "/tmp/dbg-done")...)
	}
}
