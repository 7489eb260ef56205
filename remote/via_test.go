package remote

import (
	"strings"
	"testing"

	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
)

func TestParseVia(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		want sessions.Via
		err  string
	}{
		{in: "ssh://deploy@api.example.com", want: sessions.Via{Kind: KindSSH, Host: "api.example.com", User: "deploy"}},
		{in: "ssh://10.0.0.7:2222", want: sessions.Via{Kind: KindSSH, Host: "10.0.0.7", Port: 2222}},
		{in: "ssh://root@[fd00::7]:22", want: sessions.Via{Kind: KindSSH, Host: "fd00::7", User: "root", Port: 22}},
		{in: "ssh://prod-box", want: sessions.Via{Kind: KindSSH, Host: "prod-box"}},
		{in: "docker://web", want: sessions.Via{Kind: KindDocker, Container: "web"}},
		{in: "k8s://shop/web-7d9f", want: sessions.Via{Kind: KindKubernetes, Namespace: "shop", Pod: "web-7d9f"}},
		{in: "k8s://shop/web-7d9f/app", want: sessions.Via{Kind: KindKubernetes, Namespace: "shop", Pod: "web-7d9f", Container: "app"}},
		{in: "kubernetes:///web", want: sessions.Via{Kind: KindKubernetes, Pod: "web"}},
		{in: "ssh://-oProxyCommand=sh", err: "starts with '-'"},
		{in: "ssh://a@b/path", err: "not ssh://"},
		{in: "ssh://host:port", err: "not ssh://"},
		{in: "docker://", err: "container is required"},
		{in: "docker://-v", err: "starts with '-'"},
		{in: "k8s://only", err: "NAMESPACE/POD"},
		{in: "k8s://a/b/c/d", err: "NAMESPACE/POD"},
		{in: "ftp://x", err: "none of ssh, docker, k8s"},
		{in: "web", err: "no scheme"},
	} {
		got, err := ParseVia(c.in)
		if c.err != "" {
			te := toolkit.AsToolError(err)
			if te == nil || te.Code != toolkit.CodeInvalidArgument || !strings.Contains(te.Message, c.err) || te.Hint == "" {
				t.Errorf("ParseVia(%q) = %+v, %v; want INVALID_ARGUMENT saying %q", c.in, got, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("ParseVia(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
		if back, err := ParseVia(String(got)); err != nil || back != got {
			t.Errorf("String(%+v) = %q does not parse back: %+v %v", got, String(got), back, err)
		}
	}
}

func TestCheckVia(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		v    sessions.Via
		says string
	}{
		{sessions.Via{}, "via.kind"},
		{sessions.Via{Kind: "ftp"}, "via.kind"},
		{sessions.Via{Kind: KindSSH}, "via.host is required"},
		{sessions.Via{Kind: KindSSH, Host: "h", User: "a b"}, "via.user"},
		{sessions.Via{Kind: KindSSH, Host: "h", User: "a@b"}, "'@'"},
		{sessions.Via{Kind: KindSSH, Host: "h", IdentityFile: "-i"}, "via.identityFile"},
		{sessions.Via{Kind: KindSSH, Host: "h", Port: 70000}, "via.port"},
		{sessions.Via{Kind: KindSSH, Host: "h\nProxyCommand x"}, "control characters"},
		{sessions.Via{Kind: KindKubernetes, Pod: "p", Context: "--kubeconfig=/x"}, "via.context"},
		{sessions.Via{Kind: KindKubernetes, Pod: "p", Image: "a b"}, "via.image"},
		{sessions.Via{Kind: KindDocker, Container: "c", TimeoutMs: -1}, "timeoutMs"},
	} {
		if err := checkVia(c.v); err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("checkVia(%+v) = %v, want it to say %q", c.v, err, c.says)
		}
	}
}

// FuzzParseVia: no input panics, and what parses is a via checkVia
// accepts, whose String parses back to it.
func FuzzParseVia(f *testing.F) {
	for _, s := range []string{"ssh://u@h:22", "docker://web", "k8s://ns/pod/c", "ssh://[::1]", "k8s:///p", "ssh://%zz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseVia(s)
		if err != nil {
			return
		}
		if err := checkVia(v); err != nil {
			t.Fatalf("ParseVia(%q) = %+v, which checkVia refuses: %v", s, v, err)
		}
		if back, err := ParseVia(String(v)); err != nil || back != v {
			t.Fatalf("ParseVia(%q) = %+v; String %q parses to %+v, %v", s, v, String(v), back, err)
		}
	})
}
