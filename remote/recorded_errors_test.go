package remote

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
)

// The failures of docker and kubectl, as the recorded tools answer them
// (their outputs captured from the real clients): each names the tool
// with what it said, the fix, and the next action.

func reachRecorded(t *testing.T, recording string, v sessions.Via, lang string) ([][]string, error) {
	t.Helper()
	calls := recordedPath(t, recording)
	reg := adapters.Default()
	a, _ := reg.Lookup(lang)
	rc := New(Config{Adapters: reg, PrivateDir: func() (string, error) { return t.TempDir(), nil }})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// A throwaway process: a start the recording runs here attaches to
	// it, never to this test.
	r, err := rc.Reach(ctx, sessions.ReachRequest{Via: v, Adapter: a, PID: sleeper(t).Process.Pid})
	if err == nil {
		r.Close(ctx)
		t.Fatalf("%s: the reach succeeded: %+v", recording, r.Info)
	}
	return calls(), err
}

func TestRecordedFailures(t *testing.T) {
	docker := sessions.Via{Kind: KindDocker, Container: "web"}
	kube := sessions.Via{Kind: KindKubernetes, Pod: "web", Namespace: "shop", Context: "prod"}
	for _, c := range []struct {
		recording  string
		via        sessions.Via
		lang       string
		code, tool string
		says, hint string
	}{
		{"docker_stopped", docker, "go", toolkit.CodeAttachFailed, "docker", "exited, not running", "docker start web"},
		{"docker_nosuch", docker, "go", toolkit.CodeAttachFailed, "docker", "No such container: web", "docker ps"},
		{"docker_noengine", docker, "go", toolkit.CodeAttachFailed, "docker", "Cannot connect to the Docker daemon", "engine is not reachable"},
		{"docker_ptrace", docker, "c", toolkit.CodeAttachFailed, "docker", "Operation not permitted", "docker run --cap-add=SYS_PTRACE --security-opt seccomp=unconfined"},
		{"docker_missing", docker, "python", toolkit.CodeAttachFailed, "docker", "no gdb", "docker exec -u root web sh -c 'apt-get update && apt-get install -y gdb'"},
		{"kubectl_nocontext", sessions.Via{Kind: KindKubernetes, Pod: "web", Namespace: "shop"}, "go", toolkit.CodeAttachFailed, "kubectl", "current-context is not set", "kubectl config use-context"},
		{"kubectl_nopod", kube, "go", toolkit.CodeAttachFailed, "kubectl", `pods "web" not found`, "kubectl get pods -n shop"},
		{"kubectl_wrongcontext", kube, "go", toolkit.CodeAttachFailed, "kubectl", `context "prod" does not exist`, "get-contexts"},
	} {
		t.Run(c.recording, func(t *testing.T) {
			calls, err := reachRecorded(t, c.recording, c.via, c.lang)
			checkToolError(t, err, c.code, c.tool, c.says, c.hint)
			for _, argv := range calls {
				if argv[0] != c.tool {
					t.Errorf("ran %q", argv)
				}
			}
			if strings.HasSuffix(c.recording, "ptrace") || strings.HasSuffix(c.recording, "missing") {
				// What the start left is taken down.
				if !slices.ContainsFunc(calls, func(a []string) bool {
					return slices.ContainsFunc(a, func(s string) bool { return strings.HasPrefix(s, "/tmp/dbg-") })
				}) {
					t.Errorf("no teardown after the failed start: %q", calls)
				}
			}
		})
	}
}

// TestRecordedTimeout: a docker that does not answer is given up at the
// via's timeoutMs, as a TIMEOUT naming docker.
func TestRecordedTimeout(t *testing.T) {
	recordedPath(t, "docker_hang")
	rc := New(Config{Adapters: adapters.Default(), PrivateDir: func() (string, error) { return t.TempDir(), nil }})
	a, _ := adapters.Default().Lookup("go")
	start := time.Now()
	_, err := rc.Reach(context.Background(), sessions.ReachRequest{Via: sessions.Via{Kind: KindDocker, Container: "web", TimeoutMs: 800}, Adapter: a, PID: 1})
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("took %s past a timeoutMs of 800", took)
	}
	te := toolkit.AsToolError(err)
	if te == nil || te.Code != toolkit.CodeTimeout || !strings.Contains(te.Message, "docker") || !te.Retryable {
		t.Fatalf("want a retryable TIMEOUT naming docker, got %v", err)
	}
}

// TestStatusKinds: per via kind, whether the tool is installed and set
// up, from what docker and kubectl answer; ssh is the real one.
func TestStatusKinds(t *testing.T) {
	for _, c := range []struct {
		recording              string
		docker, kube           string
		dockerDetail, kubeHint string
	}{
		{"status_unconfigured", toolkit.Unavailable, toolkit.NotConfigured, "engine is not reachable: Cannot connect", "use-context"},
		{"status_configured", toolkit.Available, toolkit.Available, "28.2.2 is reachable", `"kind": "kubernetes"`},
	} {
		t.Run(c.recording, func(t *testing.T) {
			recordedPath(t, c.recording)
			rc := New(Config{Adapters: adapters.Default()})
			part := statusPart{rc.status}.Status(context.Background(), toolkit.StatusQuery{})
			states := map[string]string{}
			for _, cs := range part.Capabilities {
				states[cs.Name] = cs.State
			}
			if states["remote.docker"] != c.docker || states["remote.kubernetes"] != c.kube {
				t.Errorf("states %v, want docker %s, kubernetes %s", states, c.docker, c.kube)
			}
			data := part.Data.(map[string]ViaStatus)
			if !strings.Contains(data[KindDocker].Detail, c.dockerDetail) || !strings.Contains(data[KindKubernetes].Hint, c.kubeHint) {
				t.Errorf("docker %+v, kubernetes %+v", data[KindDocker], data[KindKubernetes])
			}
			if s := data[KindSSH]; !s.Installed || !s.Configured || s.NextAction == "" {
				t.Errorf("ssh %+v", s)
			}
		})
	}
}
